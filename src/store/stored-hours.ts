/** A stored day's hours as answers read them: decoded from its packed form, with the day's zone and provider. */
import type { PollenHour, StoredHour } from '../domain/hours.js';
import { decodeDay, type PackedDay } from './codec.js';
import type { PackedNames } from './day-values-packing.js';

/**
 * An hour with its day's zone and source. Written out, not spread: V8 promotes spread copies to
 * the old generation, which a server streaming ranges would fill with garbage (B3 measures it).
 */
export const storedHour = (h: PollenHour, timezone: string | null, source: string): StoredHour => ({
  hour: h.hour,
  tree: h.tree,
  grass: h.grass,
  weed: h.weed,
  total: h.total,
  species: h.species,
  timezone,
  source,
});

/**
 * A stored day's hours, exactly as ingested, with the day's zone and provider: its packed hours
 * (store/codec.ts) and the ids its row holds, named by `names` (the store's tables, or a shard index's).
 */
export function storedHoursOf(
  day: number,
  packed: PackedDay,
  zone: number | null,
  source: number,
  names: Pick<PackedNames, 'label' | 'source' | 'shape'>,
): StoredHour[] {
  const timezone = zone === null ? null : names.label(zone);
  const provider = names.source(source);
  return decodeDay(day, packed, (id) => names.shape(id)).map((h) => storedHour(h, timezone, provider));
}
