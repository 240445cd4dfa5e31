/** Hourly rows as the API shows them, and their daily aggregation (docs/decisions.md, "Daily rows"). */
import { isoHour } from './dates.js';
import { categoryRisk, worse, type Category, type Risk } from './risk.js';
import type { Species, SpeciesGroup } from './species.js';
import type { PollenHour, StoredHour } from './hours.js';
import type { DailyPollen, HourlyPollen } from './schemas.js';

export type { DailyPollen, HourlyPollen } from './schemas.js';

/** The daily mean values and their risks, shared by `/api/pollen?city=` and `aggregate=day`. */
export type DailyMeans = Omit<DailyPollen, 'date' | 'hours' | `peak_${string}`>;

/** What daily aggregation reads of an hour (a forecast hour's total may be missing). */
export type DayHour = Pick<StoredHour, 'tree' | 'grass' | 'weed' | 'species' | 'timezone'> & { total: number | null };

/** One hour, with its zone, as an HourlyPollen row. */
export function hourlyRow(h: PollenHour & { timezone: string | null }): HourlyPollen {
  return {
    ts: isoHour(h.hour),
    tree: h.tree,
    grass: h.grass,
    weed: h.weed,
    total: h.total,
    species: h.species,
    risk_tree: categoryRisk('tree', h.tree, h.species),
    risk_grass: categoryRisk('grass', h.grass, h.species),
    risk_weed: categoryRisk('weed', h.weed, h.species),
    timezone: h.timezone,
  };
}

/** Mean of the numbers in a list, skipping nulls; null when there are none. */
export function mean(values: Iterable<number | null>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

/** Largest number in a list, skipping nulls; null when there are none. */
export function max(values: Iterable<number | null>): number | null {
  let best: number | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

const round = (v: number | null): number | null => (v === null ? null : Math.round(v));

/** Daily maxima of one city-day. */
export interface DayMaxima {
  tree: number | null;
  grass: number | null;
  weed: number | null;
  ragweed: number | null;
}

const ragweedOf = (h: DayHour): number | null => {
  const weed = h.species?.Weed;
  const v = weed !== null && typeof weed === 'object' ? weed.Ragweed : undefined;
  return typeof v === 'number' ? v : null;
};

/** Hourly maxima of each category, and of the Ragweed allergen under Weed. */
export function dayMaxima(hours: readonly DayHour[]): DayMaxima {
  return {
    tree: max(hours.map((h) => h.tree)),
    grass: max(hours.map((h) => h.grass)),
    weed: max(hours.map((h) => h.weed)),
    ragweed: max(hours.map(ragweedOf)),
  };
}

/** The zone the first hour that has one reports. */
export const firstTimezone = (hours: readonly DayHour[]): string | null => hours.find((h) => h.timezone !== null)?.timezone ?? null;

/**
 * Per-allergen means over several payloads, unrounded. Keys keep their first-seen order; a leaf
 * is averaged over the hours that report a number for it; a category seen both as a number and
 * as an object keeps its first form.
 */
export function meanSpecies(payloads: ReadonlyArray<Species | null>): Species | null {
  type Acc = { sum: number; n: number };
  const groups = new Map<string, Acc | Map<string, Acc>>();
  const add = (acc: Acc, v: unknown) => {
    if (typeof v !== 'number') return;
    acc.sum += v;
    acc.n++;
  };
  let any = false;
  // for...in, in the keys' order as Object.entries gives them, without an array per hour and group:
  // the ingest makes a day's values of every hour it writes (half the time of Object.entries).
  for (const s of payloads) {
    if (s === null) continue;
    any = true;
    for (const category in s) {
      const group = s[category];
      const isObject = group !== null && typeof group === 'object';
      let acc = groups.get(category);
      if (acc === undefined) groups.set(category, (acc = isObject ? new Map() : { sum: 0, n: 0 }));
      if (acc instanceof Map) {
        if (!isObject) continue;
        for (const k in group) {
          let leaf = acc.get(k);
          if (leaf === undefined) acc.set(k, (leaf = { sum: 0, n: 0 }));
          add(leaf, group[k]);
        }
      } else if (!isObject) add(acc, group);
    }
  }
  if (!any) return null;
  const avg = (a: Acc) => (a.n === 0 ? null : a.sum / a.n);
  return Object.fromEntries(
    [...groups].map(([category, acc]): [string, SpeciesGroup] => [
      category,
      acc instanceof Map ? Object.fromEntries([...acc].map(([k, a]) => [k, avg(a)])) : avg(acc),
    ]),
  );
}

/** Species values rounded to whole numbers, as daily rows publish them. */
export function roundSpecies(s: Species | null): Species | null {
  if (s === null) return null;
  return Object.fromEntries(
    Object.entries(s).map(([c, g]): [string, SpeciesGroup] => [
      c,
      g !== null && typeof g === 'object' ? Object.fromEntries(Object.entries(g).map(([k, v]) => [k, round(v)])) : round(g),
    ]),
  );
}

/** Means of a set of hours: rounded values and species, risks graded on the unrounded means. */
export function dailyMeans(hours: readonly DayHour[]): DailyMeans {
  const m = {
    tree: mean(hours.map((h) => h.tree)),
    grass: mean(hours.map((h) => h.grass)),
    weed: mean(hours.map((h) => h.weed)),
  };
  const species = meanSpecies(hours.map((h) => h.species));
  return {
    tree: round(m.tree),
    grass: round(m.grass),
    weed: round(m.weed),
    total: round(mean(hours.map((h) => h.total))),
    species: roundSpecies(species),
    risk_tree: categoryRisk('tree', m.tree, species),
    risk_grass: categoryRisk('grass', m.grass, species),
    risk_weed: categoryRisk('weed', m.weed, species),
    timezone: firstTimezone(hours),
  };
}

/** The highest hourly risk of a category over a set of hours. */
export function peakRisk(category: Category, hours: readonly DayHour[]): Risk | null {
  return hours.reduce<Risk | null>((r, h) => worse(r, categoryRisk(category, h[category], h.species)), null);
}

/** Groups ascending hours by UTC day, in ascending day order. */
export function byDay<T extends { hour: number }>(hours: readonly T[]): Map<number, T[]> {
  const days = new Map<number, T[]>();
  for (const h of hours) {
    const day = Math.floor(h.hour / 24);
    const list = days.get(day);
    if (list) list.push(h);
    else days.set(day, [h]);
  }
  return days;
}
