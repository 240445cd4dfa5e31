/**
 * Shards: the served store cut into pieces a function fetches by name, each stored under the
 * SHA-256 of its bytes, so that a deploy uploads only the pieces whose bytes changed and a
 * reader can tell a piece it got from the one its manifest names.
 *
 * - `index`: what every answer may ask first (the cities, sources, labels and species shapes by
 *   the store's ids; which city-days hold data, as runs of consecutive days; the answers about the whole store,
 *   as the store itself computed them: the days with data, the newest day, hour and provider, the
 *   last ingest run).
 * - `city/<slug>/<year>-q<n>`: a city's rows of one UTC calendar quarter (pollen hours, weather,
 *   day values in both cuts), what a city's own answers read.
 * - `day/<yyyy-mm-dd>`: every city's rows of one day, what a date's maps and lists read.
 * - `skill/<slug>`: a city's forecast skill.
 *
 * Rows keep the store's packed blobs as they are (store/codec.ts, day-values-packing.ts), with the
 * store's ids: a reader decodes them with the same code as the store, so its answers are the
 * store's. Shards are MessagePack (msgpack.org), which carries those blobs as bytes.
 */
import { createHash } from 'node:crypto';
import { decode, encode } from '@msgpack/msgpack';
import { dayString } from '../../domain/dates.js';
import type { IngestRun } from '../ingest-runs.js';

/** The shards' layout: a reader refuses another. */
export const SHARD_FORMAT = 1;

/**
 * A range's rows come from at most this many city-quarters or days of every city
 * (docs/decisions.md, "Bounded reads"): with the index, one under the 25 shards an answer may read.
 */
export const RANGE_SHARDS = 23;

/** A city row: id, slug, name, state, lat, lon, timezone, active (1 or 0), as the city table holds it. */
export type CityRow = [
  id: number,
  slug: string,
  name: string | null,
  state: string | null,
  lat: number | null,
  lon: number | null,
  timezone: string | null,
  active: number,
];
/** Consecutive days from `first`: [first, count]. */
export type DayRun = [first: number, count: number];
/** Consecutive days with data from one provider. */
export type SourceRun = [first: number, count: number, source: number];
/** Stored rows: only pollen days with an hour and complete weather days (the rows a reader reads). */
export type PollenRow = [city: number, day: number, source: number, zone: number | null, mask: number, data: Uint8Array | null];
export type WeatherRow = [city: number, day: number, source: number, fetchedAt: number, data: Uint8Array];
export type ValueRow = [city: number, cut: 0 | 1, day: number, data: Uint8Array];

export interface IndexShard {
  kind: 'index';
  format: number;
  cities: CityRow[];
  sources: Array<[number, string]>;
  labels: Array<[number, string]>;
  /** Every species shape by id (its keys' JSON), and `shapes.all()`'s order. */
  shapes: Array<[number, string]>;
  shapeOrder: number[];
  longestLabelBytes: number;
  lastRun: IngestRun | null;
  pollen: { days: number[]; latestDay: number | null; latestHour: number | null; latestSource: string | null };
  weather: { days: number[]; latestDay: number | null; latestSource: string | null };
  /** By city id: its pollen days with an hour, its complete weather days, its day values of each cut. */
  pollenRuns: Array<[city: number, runs: DayRun[]]>;
  /**
   * By city id: the hours each pollen day holds (a 24-bit mask, 3 bytes a day from `first`, 0 for
   * none; deflated), and its providers as runs of days: what a range counts and names before it
   * reads a row.
   */
  pollenMasks: Array<[city: number, first: number, masks: Uint8Array]>;
  pollenSources: Array<[city: number, runs: SourceRun[]]>;
  weatherRuns: Array<[city: number, runs: DayRun[]]>;
  valueRuns: Array<[city: number, cut: 0 | 1, runs: DayRun[]]>;
  /** The cities whose forecast skill a render wrote. */
  skills: string[];
}

/** A city's quarter, or a day across cities. */
export interface RowsShard {
  kind: 'rows';
  format: number;
  pollen: PollenRow[];
  weather: WeatherRow[];
  values: ValueRow[];
}

export interface SkillShard {
  kind: 'skill';
  format: number;
  city: string;
  /** The skill as the store keeps it (skills-table.ts: its JSON, deflated). */
  skill: Uint8Array;
}

export type Shard = IndexShard | RowsShard | SkillShard;

/** A shard that cannot be had: missing where its manifest says it is, unreadable, or not the bytes its key names. */
export class ShardUnavailable extends Error {
  constructor(
    readonly shard: string,
    reason: string,
  ) {
    super(`shard ${shard}: ${reason}`);
  }
}

export const INDEX_SHARD = 'index';

/** The UTC calendar quarter a day number falls in, as `2025-q2`. */
export function quarterOf(day: number): string {
  const date = new Date(day * 86_400_000);
  return `${date.getUTCFullYear()}-q${Math.floor(date.getUTCMonth() / 3) + 1}`;
}

export const cityShard = (slug: string, day: number): string => `city/${slug}/${quarterOf(day)}`;
export const dayShard = (day: number): string => `day/${dayString(day)}`;
export const skillShard = (slug: string): string => `skill/${slug}`;

/** The key a shard's bytes are stored under: their SHA-256, in hex. */
export const shardKey = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether a text is a shard key (what a manifest may name, and what a store may hold besides manifests). */
export const isShardKey = (key: string): boolean => /^[0-9a-f]{64}$/.test(key);

/** Which key holds each shard of a store. */
export interface ShardManifest {
  format: number;
  /** Shard name to key. */
  shards: Record<string, string>;
  /** Bytes of each key's shard, by name, as the store holds them. */
  bytes: Record<string, number>;
  /**
   * Where the deploy's functions find the shards: the site's store `pollen-shards` (absent), or
   * `deploy`, the deploy's own blobs, which Netlify Build uploads with it (a build on Netlify has no
   * token to write the site's stores).
   */
  store?: 'deploy';
}

/** The key a manifest names for a shard; ShardUnavailable when it names none, or not a key. */
export function manifestKey(manifest: ShardManifest, name: string): string {
  const key = Object.hasOwn(manifest.shards, name) ? manifest.shards[name] : undefined;
  if (key === undefined) throw new ShardUnavailable(name, "the deploy's manifest names no such shard");
  if (!isShardKey(key)) throw new ShardUnavailable(name, `the manifest names ${JSON.stringify(key)}, not a key`);
  return key;
}

/** Bytes a source got for a key, refused (ShardUnavailable) when they are not that key's: checked once, where they come in. */
export function checkedShard(name: string, key: string, bytes: Uint8Array): Uint8Array {
  if (shardKey(bytes) !== key) throw new ShardUnavailable(name, `its bytes are not those of key ${key}`);
  return bytes;
}

export const encodeShard = (shard: Shard): Uint8Array => encode(shard);

/** A shard from bytes its source checked (checkedShard), of the kind its name says. */
export function decodeShard<K extends Shard['kind']>(name: string, bytes: Uint8Array, kind: K): Extract<Shard, { kind: K }> {
  let shard: unknown;
  try {
    shard = decode(bytes);
  } catch (error) {
    throw new ShardUnavailable(name, `not MessagePack (${(error as Error).message})`);
  }
  const head = shard as Partial<Shard> | null;
  if (head?.kind !== kind || head.format !== SHARD_FORMAT)
    throw new ShardUnavailable(name, `not a ${kind} shard of format ${SHARD_FORMAT}`);
  return shard as Extract<Shard, { kind: K }>;
}

/** The kind of shard a name holds. */
export const kindOf = (name: string): Shard['kind'] => (name === INDEX_SHARD ? 'index' : name.startsWith('skill/') ? 'skill' : 'rows');
