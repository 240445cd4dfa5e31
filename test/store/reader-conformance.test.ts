/**
 * One suite for every `StoreReader`: the SQLite store and the shard store (what the functions read
 * from Netlify Blobs) each answer the same questions of a sample store whose contents are known
 * (every hour of every day of SPAN for each city, from the sample provider), and each is held to
 * what the store is known to hold, not only to the other's answers (test/store/shards.test.ts
 * compares their HTTP answers byte for byte).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderShards, readShardManifest } from '../../src/deploy-data/shard-folder.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { dayNumber } from '../../src/domain/dates.js';
import { render } from '../../src/render/render.js';
import type { StoreReader } from '../../src/store/reader.js';
import { ShardIndex } from '../../src/store/shards/shard-index.js';
import { ShardStore } from '../../src/store/shards/shard-reader.js';
import { openStore, type Store } from '../../src/store/store.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'honolulu'];
// Across a quarter's edge, so that a city's answers read two quarters' shards.
const SPAN = { from: dayNumber('2025-03-26'), to: dayNumber('2025-04-04') };
const DAYS = SPAN.to - SPAN.from + 1;
const newestFirst = (n: number) => Array.from({ length: n }, (_, i) => SPAN.to - i);
const OUTSIDE = 'atlantis';

let served: Store;
let shards: ShardStore;
beforeAll(async () => {
  const dir = tempDir();
  const db = await buildStore(dir, CITIES, SPAN);
  const store = openStore(db, { readonly: true });
  await render(store, join(dir, 'publish'));
  store.close();
  served = openStore(servedStorePath(db), { readonly: true, immutable: true });
  const folder = new FolderShards(join(dir, 'shards'), readShardManifest(join(dir, 'served', 'shards.json'))!);
  shards = new ShardStore(ShardIndex.of(folder), folder);
}, 300_000);
afterAll(() => served?.close());

describe.each<[string, () => StoreReader]>([
  ['the SQLite store', () => served],
  ['the shard store', () => shards],
])('%s, as a StoreReader', (_name, reader) => {
  describe('pollen', () => {
    it('holds every day of the span, newest first, from the sample', () => {
      const r = reader();
      expect(r.pollen.daysWithData()).toEqual(newestFirst(DAYS));
      expect(r.pollen.latestDay()).toBe(SPAN.to);
      expect(r.pollen.latestHour()).toBe(SPAN.to * 24 + 23);
      expect(r.pollen.latestSource()).toBe('sample');
      expect(r.pollen.citiesWithDataOn(SPAN.to)).toEqual(CITIES);
      expect(r.pollen.citiesWithDataOn(SPAN.from - 1)).toEqual([]);
    });

    it("gives a city's hours in [from, to) in order, across the quarter's edge, and none outside the data or the set", () => {
      const r = reader();
      const [from, to] = [SPAN.from * 24 + 20, (SPAN.from + 7) * 24 + 3];
      const hours = r.pollen.hours('austin', from, to);
      expect(hours.map((h) => h.hour)).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
      for (const h of hours) expect(h.total).toBeGreaterThanOrEqual(0);
      expect([...r.pollen.iterateHours('austin', from, to)]).toEqual(hours);
      expect(r.pollen.hours('austin', (SPAN.from - 2) * 24, SPAN.from * 24 + 2).map((h) => h.hour)).toEqual([
        SPAN.from * 24,
        SPAN.from * 24 + 1,
      ]);
      expect(r.pollen.hours('austin', to, from)).toEqual([]);
      expect(r.pollen.hours(OUTSIDE, from, to)).toEqual([]);
    });

    it("counts a window's hours and days up to a limit, and names its providers", () => {
      const r = reader();
      const from = SPAN.from * 24;
      expect(r.pollen.countUpTo([{ city: 'austin', from, to: from + 48 }], 1_000)).toEqual({ count: 48, more: false });
      expect(r.pollen.countUpTo([{ city: 'austin', from, to: from + 48, dayOf: (h) => Math.floor(h / 24) }], 1_000)).toEqual({
        count: 2,
        more: false,
      });
      expect(r.pollen.countUpTo([{ city: OUTSIDE, from, to: from + 48 }], 1_000)).toEqual({ count: 0, more: false });
      expect(r.pollen.sourcesIn('austin', from, from + 48)).toEqual(['sample']);
      expect(r.pollen.sourcesIn(OUTSIDE, from, from + 48)).toEqual([]);
    });

    it("gives a city's newest days up to a limit", () => {
      const r = reader();
      expect(r.pollen.cityDaysWithData('honolulu', 3)).toEqual(newestFirst(3));
      expect(r.pollen.cityDaysWithData('honolulu', 100)).toEqual(newestFirst(DAYS));
      expect(r.pollen.cityDaysWithData(OUTSIDE, 3)).toEqual([]);
    });
  });

  describe('weather', () => {
    it('holds a day of each city for every day of the span', () => {
      const r = reader();
      expect(r.weather.days()).toEqual(newestFirst(DAYS));
      expect(r.weather.latestDay()).toBe(SPAN.to);
      expect(r.weather.latestSource()).toBe('sample');
      expect(r.weather.citiesOn(SPAN.from)).toEqual(CITIES);
      const day = r.weather.cityDay('austin', SPAN.from)!;
      expect(day).toMatchObject({ city: 'austin', day: SPAN.from, source: 'sample' });
      expect(typeof day.values.temp_day_c).toBe('number');
      expect(r.weather.cityDay('austin', SPAN.from - 1)).toBeUndefined();
      expect(r.weather.cityDay(OUTSIDE, SPAN.from)).toBeUndefined();
      expect(r.weather.forCity('austin', 3).map((w) => w.day)).toEqual(newestFirst(3));
      expect(
        r.weather
          .forDay(SPAN.to)
          .map((w) => w.city)
          .sort(),
      ).toEqual(CITIES);
      expect(r.weather.forDay(SPAN.to + 1)).toEqual([]);
    });
  });

  describe('day values', () => {
    it('holds each UTC day whole, and each local day by the city', () => {
      const r = reader();
      const utc = r.values.on('austin', 'UTC', SPAN.from)!;
      expect(utc).toMatchObject({ day: SPAN.from, hours: 24, source: 'sample', sources: ['sample'] });
      expect(r.values.on('austin', 'UTC', SPAN.from - 1)).toBeUndefined();
      expect(r.values.on(OUTSIDE, 'UTC', SPAN.from)).toBeUndefined();
      expect(r.values.has('honolulu', 'local')).toBe(true);
      expect(r.values.has(OUTSIDE, 'UTC')).toBe(false);
      // Honolulu's second local day lies wholly in the span's UTC hours.
      expect(r.values.on('honolulu', 'local', SPAN.from + 1)?.hours).toBe(24);
    });

    it("gives a city's newest days, a span of them, and a span across cities", () => {
      const r = reader();
      expect(r.values.newest('austin', 'UTC', 3).map((v) => v.day)).toEqual(newestFirst(3));
      const span = r.values.span('austin', 'UTC', SPAN.from + 2, SPAN.from + 5);
      expect([...span.keys()].sort((a, b) => a - b)).toEqual([SPAN.from + 2, SPAN.from + 3, SPAN.from + 4, SPAN.from + 5]);
      expect(span.get(SPAN.from + 2)).toEqual(r.values.on('austin', 'UTC', SPAN.from + 2));
      const across = r.values.across('UTC', SPAN.to - 1, SPAN.to);
      expect([...across.keys()].sort()).toEqual(CITIES);
      for (const city of CITIES) expect([...across.get(city)!.keys()].sort((a, b) => a - b)).toEqual([SPAN.to - 1, SPAN.to]);
    });
  });

  describe('the rest', () => {
    it('gives the last ingest run, the species shapes, the skills written and the longest label', () => {
      const r = reader();
      expect(r.runs.last()?.pollen).toBe('sample');
      expect(r.shapes.all().length).toBeGreaterThan(0);
      for (const city of [...CITIES, OUTSIDE]) expect(r.skills.has(city), city).toBe(r.skills.get(city) !== undefined);
      expect(r.skills.has(OUTSIDE)).toBe(false);
      expect(r.longestLabelBytes()).toBeGreaterThanOrEqual(Buffer.byteLength('sample'));
    });
  });
});
