/**
 * Cuts a store into shards (shard-format.ts) and names each by its key: a city's quarter at a
 * time and a day at a time, so that no more than one city's quarter or one day's rows are held at
 * once. A quarter's city shards and a day's shard are made from that quarter's or day's rows of
 * every city, whose digests the store keeps (digests.ts): where those are the previous render's,
 * its shards are taken as they are (a day ingested makes its quarter's and its day's again, not the
 * 2,500 shards of 200 cities' 730 days).
 */
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { dayString } from '../../domain/dates.js';
import type { Store } from '../store.js';
import {
  cityShard,
  type DayRun,
  dayShard,
  encodeShard,
  INDEX_SHARD,
  type IndexShard,
  quarterOf,
  type RowsShard,
  SHARD_FORMAT,
  type ShardManifest,
  type SourceRun,
  shardKey,
  skillShard,
} from './shard-format.js';

/** Where shards go: a key's bytes, stored once whatever the name (a folder, Netlify Blobs). */
export type PutShard = (key: string, bytes: Uint8Array) => void;

/** A quarter's city shards, or a day's shard: the digest of what they were made from, and each shard's key and size by name. */
export interface ShardPart {
  digest: string;
  shards: Record<string, [key: string, bytes: number]>;
}

/** The parts of a render's shards, by `quarter:2025-q2` and `day:2025-04-01`. */
export type ShardParts = Record<string, ShardPart>;

/** What a render may take from the previous one's shards. */
export interface ShardReuse {
  /** The digest of the code that writes shards: other code makes every shard again. */
  code: string;
  /** The previous render's parts (the render cache keeps them). */
  previous: ShardParts;
  /** Whether a key's shard is still where `put` stores it. */
  has: (key: string) => boolean;
}

const NONE = Buffer.alloc(32);

/** Each day's digest of what its shards are made from, the days in order, and each quarter's days with the digest of them. */
function partDigests(store: Store, reuse: ShardReuse) {
  const digests = store.checks.shardDigests();
  const salt = createHash('sha256').update(`${SHARD_FORMAT}\n${reuse.code}\n`).update(digests.names).digest();
  const dayDigests = new Map<number, Buffer>();
  for (const day of [...digests.values[0].keys(), ...digests.values[1].keys(), ...digests.pollen.keys(), ...digests.weather.keys()])
    if (!dayDigests.has(day))
      dayDigests.set(
        day,
        createHash('sha256')
          .update(salt)
          .update(digests.values[0].get(day) ?? NONE)
          .update(digests.values[1].get(day) ?? NONE)
          .update(digests.pollen.get(day) ?? NONE)
          .update(digests.weather.get(day) ?? NONE)
          .digest(),
      );
  const days = [...dayDigests.keys()].sort((a, b) => a - b);
  const quarters = new Map<string, { first: number; last: number; hash: ReturnType<typeof createHash> }>();
  for (const day of days) {
    const name = quarterOf(day);
    let q = quarters.get(name);
    if (!q) quarters.set(name, (q = { first: day, last: day, hash: createHash('sha256').update(salt) }));
    q.last = day;
    q.hash.update(dayDigests.get(day)!);
  }
  return { dayDigests, days, quarters };
}

/**
 * Writes every shard of `store` through `put` and says which key each name has, with the parts
 * for the next render and how many shards were taken from the previous one's.
 */
export function writeShards(
  store: Store,
  put: PutShard,
  reuse: ShardReuse,
): { manifest: ShardManifest; parts: ShardParts; reused: number } {
  const rows = store.shardRows();
  const { dayDigests, days, quarters } = partDigests(store, reuse);

  /** A shard's bytes stored under their key: the key and size. */
  const stored = (bytes: Uint8Array): [string, number] => {
    const key = shardKey(bytes);
    put(key, bytes);
    return [key, bytes.length];
  };
  const parts: ShardParts = {};
  let reused = 0;
  /** The previous render's part when made from the same rows and its shards are all still there. */
  const kept = (part: string, digest: string): boolean => {
    const before = reuse.previous[part];
    if (!before || before.digest !== digest || !Object.values(before.shards).every(([key]) => reuse.has(key))) {
      parts[part] = { digest, shards: {} };
      return false;
    }
    parts[part] = before;
    reused += Object.keys(before.shards).length;
    return true;
  };
  /** A rows shard into its part, unless it holds no row. */
  const add = (part: string, name: string, shard: RowsShard) => {
    if (shard.pollen.length + shard.weather.length + shard.values.length > 0) parts[part]!.shards[name] = stored(encodeShard(shard));
  };
  const quarterPart = (quarter: string) => `quarter:${quarter}`;
  const dayPart = (day: number) => `day:${dayString(day)}`;

  const cities = rows.cities();
  for (const [quarter, { first, last, hash }] of quarters) {
    if (kept(quarterPart(quarter), hash.digest('hex'))) continue;
    for (const [id, slug] of cities)
      add(quarterPart(quarter), cityShard(slug, first), { kind: 'rows', format: SHARD_FORMAT, ...rows.cityRows(id, first, last) });
  }
  for (const day of days)
    if (!kept(dayPart(day), dayDigests.get(day)!.toString('hex')))
      add(dayPart(day), dayShard(day), { kind: 'rows', format: SHARD_FORMAT, ...rows.dayRows(day) });

  // Each city's quarters in order, then the days, the skills and the index: the same manifest however many shards were taken.
  const manifest: ShardManifest = { format: SHARD_FORMAT, shards: {}, bytes: {} };
  const list = (name: string, shard: [key: string, bytes: number] | undefined) => {
    if (!shard) return;
    manifest.shards[name] = shard[0];
    manifest.bytes[name] = shard[1];
  };
  const listPart = (part: string, name: string) => list(name, parts[part]!.shards[name]);
  for (const [, slug] of cities) for (const [quarter, { first }] of quarters) listPart(quarterPart(quarter), cityShard(slug, first));
  for (const day of days) listPart(dayPart(day), dayShard(day));
  const skills = rows.skills();
  for (const [city, skill] of skills) list(skillShard(city), stored(encodeShard({ kind: 'skill', format: SHARD_FORMAT, city, skill })));
  list(
    INDEX_SHARD,
    stored(
      encodeShard(
        indexOf(
          store,
          skills.map(([city]) => city),
        ),
      ),
    ),
  );
  return { manifest, parts, reused };
}

/** The index: the lookup tables, which city-days hold what, and the answers about the whole store as the store gives them. */
function indexOf(store: Store, skills: string[]): IndexShard {
  const rows = store.shardRows();
  const pollenRuns = new Map<number, DayRun[]>();
  const masks = new Map<number, Array<[number, number]>>();
  const sources = new Map<number, SourceRun[]>();
  for (const [city, day, mask, source] of rows.pollenDays()) {
    extend(pollenRuns, city, day);
    let days = masks.get(city);
    if (!days) masks.set(city, (days = []));
    days.push([day, mask]);
    let runs = sources.get(city);
    if (!runs) sources.set(city, (runs = []));
    const last = runs.at(-1);
    if (last && last[0] + last[1] === day && last[2] === source) last[1]++;
    else runs.push([day, 1, source]);
  }
  const weatherRuns = new Map<number, DayRun[]>();
  for (const [city, day] of rows.weatherDays()) extend(weatherRuns, city, day);
  const valueRuns = new Map<string, DayRun[]>();
  for (const [city, cut, day] of rows.valueDays()) extend(valueRuns, `${city}|${cut}`, day);
  return {
    kind: 'index',
    format: SHARD_FORMAT,
    cities: rows.cities(),
    sources: rows.sources(),
    labels: rows.labels(),
    shapes: rows.shapes(),
    shapeOrder: rows.shapeOrder(),
    longestLabelBytes: store.longestLabelBytes(),
    lastRun: store.runs.last() ?? null,
    pollen: {
      days: store.pollen.daysWithData(),
      latestDay: store.pollen.latestDay(),
      latestHour: store.pollen.latestHour(),
      latestSource: store.pollen.latestSource(),
    },
    weather: { days: store.weather.days(), latestDay: store.weather.latestDay(), latestSource: store.weather.latestSource() },
    pollenRuns: [...pollenRuns],
    pollenMasks: [...masks].map(([city, days]) => [city, days[0]![0], packMasks(days)]),
    pollenSources: [...sources],
    weatherRuns: [...weatherRuns],
    valueRuns: [...valueRuns].map(([key, runs]) => {
      const [city, cut] = key.split('|').map(Number) as [number, 0 | 1];
      return [city, cut, runs];
    }),
    skills,
  };
}

/** A city's days' masks, 3 bytes a day from its first, deflated (most days hold every hour: they pack to little). */
function packMasks(days: Array<[day: number, mask: number]>): Uint8Array {
  const first = days[0]![0];
  const bytes = new Uint8Array((days.at(-1)![0] - first + 1) * 3);
  for (const [day, mask] of days) bytes.set([mask & 0xff, (mask >> 8) & 0xff, mask >> 16], (day - first) * 3);
  return deflateRawSync(bytes);
}

/** Adds `day` to the runs of `key`, days coming in ascending order. */
function extend<K>(runs: Map<K, DayRun[]>, key: K, day: number): void {
  let list = runs.get(key);
  if (!list) runs.set(key, (list = []));
  const last = list.at(-1);
  if (last && last[0] + last[1] === day) last[1]++;
  else list.push([day, 1]);
}
