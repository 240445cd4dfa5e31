import type { StoredHour } from '../../src/domain/hours.js';
import type { Species } from '../../src/domain/species/payload.js';

/** A stored hour for hand-computed fixtures: `hourOfDay` within UTC `day`. */
export function hour(
  day: number,
  hourOfDay: number,
  values: { tree?: number | null; grass?: number | null; weed?: number | null; total?: number; species?: Species | null },
): StoredHour {
  const tree = values.tree ?? null;
  const grass = values.grass ?? null;
  const weed = values.weed ?? null;
  return {
    hour: day * 24 + hourOfDay,
    tree,
    grass,
    weed,
    total: values.total ?? (tree ?? 0) + (grass ?? 0) + (weed ?? 0),
    species: values.species ?? null,
    timezone: 'America/Chicago',
    source: 'sample',
  };
}
