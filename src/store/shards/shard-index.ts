/**
 * The index shard of a served store, decoded once: the lookup tables, which city-days each shard
 * holds (as runs of days), the days' masks, and the answers about the whole store as the store
 * computed them. Every reader of the shards (shard-reader.ts) looks its answers up here first.
 */
import { inflateRawSync } from 'node:zlib';
import type { City, CitySet } from '../../domain/cities.js';
import { leafCount, type Shape } from '../../domain/species/payload.js';
import { cityOfRow, citySetOf } from '../city-set.js';
import type { PackedNames } from '../day-values-packing.js';
import { type CityRow, type DayRun, decodeShard, INDEX_SHARD, type IndexShard, ShardUnavailable, type SourceRun } from './shard-format.js';

/**
 * Where a reader gets shards by name: the bytes stored under the key its manifest names, checked
 * against it (checkedShard), or undefined for a shard not here yet (one a function fetches before
 * it answers again: the source keeps the names asked). Throws ShardUnavailable for a shard that
 * cannot be had.
 */
export interface ShardSource {
  get(name: string): Uint8Array | undefined;
}

/** The days of runs that fall in [first, last], ascending. */
export function* daysIn(runs: readonly DayRun[] | undefined, first: number, last: number): Generator<number> {
  for (const [start, count] of runs ?? []) {
    if (start > last) return;
    for (let day = Math.max(start, first); day < Math.min(start + count, last + 1); day++) yield day;
  }
}

/** The days of runs, newest first, at most `limit`. */
export function newestDays(runs: readonly DayRun[] | undefined, limit: number): number[] {
  const out: number[] = [];
  for (let i = (runs?.length ?? 0) - 1; i >= 0 && out.length < limit; i--) {
    const [start, count] = runs![i]!;
    for (let day = start + count - 1; day >= start && out.length < limit; day--) out.push(day);
  }
  return out;
}

/** The run holding `day`, if any (runs ascending and apart). */
export function runOf<R extends DayRun>(runs: readonly R[] | undefined, day: number): R | undefined {
  if (!runs) return undefined;
  let [lo, hi] = [0, runs.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid]!;
    if (day < run[0]) hi = mid - 1;
    else if (day >= run[0] + run[1]) lo = mid + 1;
    else return run;
  }
  return undefined;
}

/** The rows of the cities the set serves: active and named, as CityTable picks them. */
const servedRows = (cities: readonly CityRow[]): CityRow[] => cities.filter((c) => c[7] === 1 && c[2] !== null);

/** The index shard, decoded once and looked up by the readers of every answer. */
export class ShardIndex {
  readonly ids = new Map<string, number>();
  readonly sourceNames: Map<number, string>;
  readonly labelTexts: Map<number, string>;
  readonly pollenRuns: Map<number, DayRun[]>;
  readonly weatherRuns: Map<number, DayRun[]>;
  readonly valueRuns: Map<string, DayRun[]>;
  readonly pollenSources: Map<number, SourceRun[]>;
  private readonly packedMasks: Map<number, { first: number; packed: Uint8Array }>;
  private readonly masks = new Map<number, Uint8Array>();
  /** The city set's cities (active and named), by slug, as the SQL of days-with-data.ts picks them. */
  readonly served: Array<{ id: number; slug: string }>;
  readonly skillCities: Set<string>;
  /** What packed rows name by id. */
  readonly packed: PackedNames;
  private readonly shapeKeys: Map<number, string>;
  private readonly shapes = new Map<number, Shape>();
  private cities: CitySet | undefined;

  constructor(readonly shard: IndexShard) {
    for (const [id, slug] of shard.cities) this.ids.set(slug, id);
    this.sourceNames = new Map(shard.sources);
    this.labelTexts = new Map(shard.labels);
    this.shapeKeys = new Map(shard.shapes);
    this.pollenRuns = new Map(shard.pollenRuns);
    this.weatherRuns = new Map(shard.weatherRuns);
    this.valueRuns = new Map(shard.valueRuns.map(([city, cut, runs]) => [`${city}|${cut}`, runs]));
    this.pollenSources = new Map(shard.pollenSources);
    this.packedMasks = new Map(shard.pollenMasks.map(([city, first, packed]) => [city, { first, packed }]));
    this.served = servedRows(shard.cities)
      .map(([id, slug]) => ({ id, slug }))
      .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    this.skillCities = new Set(shard.skills);
    this.packed = {
      source: (id) => this.sourceNames.get(id)!,
      label: (id) => this.labelTexts.get(id)!,
      shape: (id) => this.shape(id),
      slots: (id) => leafCount(this.shape(id)),
    };
  }

  /** The index of a source's `index` shard. */
  static of(source: ShardSource): ShardIndex {
    const bytes = source.get(INDEX_SHARD);
    if (!bytes) throw new ShardUnavailable(INDEX_SHARD, 'not here yet');
    return new ShardIndex(decodeShard(INDEX_SHARD, bytes, 'index'));
  }

  /** The mask of a city's pollen day (0 for none). */
  mask(city: number, day: number): number {
    const packed = this.packedMasks.get(city);
    if (!packed) return 0;
    let bytes = this.masks.get(city);
    if (!bytes) this.masks.set(city, (bytes = inflateRawSync(packed.packed)));
    const at = (day - packed.first) * 3;
    return at < 0 || at >= bytes.length ? 0 : bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  }

  shape(id: number): Shape {
    let shape = this.shapes.get(id);
    if (!shape) this.shapes.set(id, (shape = JSON.parse(this.shapeKeys.get(id)!) as Shape));
    return shape;
  }

  /** The city set the store serves (CityTable.set), made once: every answer of a deployed function asks for it. */
  citySet(): CitySet {
    return (this.cities ??= this.servedSet());
  }

  private servedSet(): CitySet {
    const chosen: City[] = servedRows(this.shard.cities).map(([, slug, name, state, lat, lon, timezone]) =>
      cityOfRow({ slug, name, state, lat, lon, timezone }),
    );
    return citySetOf(chosen.length === 0 ? undefined : chosen);
  }
}
