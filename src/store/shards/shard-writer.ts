/**
 * Cuts a store into shards (shard-format.ts) and names each by its key: a city at a time and a
 * day at a time, so that no more than one city's or one day's rows are held at once.
 */
import {
  INDEX_SHARD,
  SHARD_FORMAT,
  cityShard,
  dayShard,
  encodeShard,
  shardKey,
  skillShard,
  type DayRun,
  type IndexShard,
  type RowsShard,
  type ShardManifest,
  type SourceRun,
} from './shard-format.js';
import { deflateRawSync } from 'node:zlib';
import type { Store } from '../store.js';

/** Where shards go: a key's bytes, stored once whatever the name (a folder, Netlify Blobs). */
export type PutShard = (key: string, bytes: Uint8Array) => void;

/** Writes every shard of `store` through `put` and says which key each name has. */
export function writeShards(store: Store, put: PutShard): ShardManifest {
  const rows = store.shardRows();
  const manifest: ShardManifest = { format: SHARD_FORMAT, shards: {}, bytes: {} };
  const add = (name: string, bytes: Uint8Array) => {
    const key = shardKey(bytes);
    put(key, bytes);
    manifest.shards[name] = key;
    manifest.bytes[name] = bytes.length;
  };
  const cities = rows.cities();
  const days = new Set<number>();
  for (const [id, slug] of cities) {
    const { pollen, weather, values } = rows.cityRows(id);
    const quarters = new Map<string, RowsShard>();
    const quarter = (day: number) => {
      days.add(day);
      const name = cityShard(slug, day);
      let shard = quarters.get(name);
      if (!shard) quarters.set(name, (shard = { kind: 'rows', format: SHARD_FORMAT, pollen: [], weather: [], values: [] }));
      return shard;
    };
    for (const r of pollen) quarter(r[1]).pollen.push(r);
    for (const r of weather) quarter(r[1]).weather.push(r);
    for (const r of values) quarter(r[2]).values.push(r);
    for (const [name, shard] of quarters) add(name, encodeShard(shard));
  }
  for (const day of [...days].sort((a, b) => a - b))
    add(dayShard(day), encodeShard({ kind: 'rows', format: SHARD_FORMAT, ...rows.dayRows(day) }));
  const skills = rows.skills();
  for (const [city, skill] of skills) add(skillShard(city), encodeShard({ kind: 'skill', format: SHARD_FORMAT, city, skill }));
  add(
    INDEX_SHARD,
    encodeShard(
      indexOf(
        store,
        skills.map(([city]) => city),
      ),
    ),
  );
  return manifest;
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
