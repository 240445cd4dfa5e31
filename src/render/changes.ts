/**
 * What changed in the store since the previous render: the city-days whose fetch time is new,
 * different or gone. Forms in the route list say which of these their files depend on.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Changes {
  /** False when there is nothing to compare with (first render, or the code changed): render all. */
  known: boolean;
  pollenDays: Set<number>;
  pollenCities: Set<string>;
  pollenPairs: Set<string>;
  weatherDays: Set<number>;
  weatherCities: Set<string>;
  weatherPairs: Set<string>;
}

export interface RenderState {
  code: string;
  fetched: Record<string, number>;
}

/** No change recorded yet; `known: false` means every file must be rendered. */
export function emptyChanges(known: boolean): Changes {
  return { known, pollenDays: new Set(), pollenCities: new Set(), pollenPairs: new Set(), weatherDays: new Set(), weatherCities: new Set(), weatherPairs: new Set() };
}

/** The differences between two fetch-time maps. */
export function diff(previous: Map<string, number>, current: Map<string, number>): Changes {
  const c = emptyChanges(true);
  const mark = (key: string) => {
    const [kind, city, dayText] = key.split('|') as [string, string, string];
    const day = Number(dayText);
    if (kind === 'pollen') (c.pollenDays.add(day), c.pollenCities.add(city), c.pollenPairs.add(`${city}|${day}`));
    else (c.weatherDays.add(day), c.weatherCities.add(city), c.weatherPairs.add(`${city}|${day}`));
  };
  for (const [key, t] of current) if (previous.get(key) !== t) mark(key);
  for (const key of previous.keys()) if (!current.has(key)) mark(key);
  return c;
}

/** A fingerprint of the code that produces answers: a different one means every file may differ. */
export function codeFingerprint(srcDir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|css)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const f of files) hash.update(f.slice(srcDir.length)).update(readFileSync(f));
  return hash.digest('hex');
}
