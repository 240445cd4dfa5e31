import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import type { PollenHour } from '../../src/domain/hours.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { openStore, StoreVersionError } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const D = dayNumber('2025-05-01');
const species = { Grass: { 'Grass / Poaceae': 17 }, Others: 2, Tree: { Oak: 1500, Birch: 0.5 }, Weed: { Ragweed: null } };
const hourAt = (h: number, extra: Partial<PollenHour> = {}): PollenHour => ({
  hour: D * 24 + h,
  tree: 1500.5,
  grass: 17,
  weed: null,
  total: 1519.5,
  species,
  ...extra,
});
const pollen = (hours: PollenHour[], fetchedAt = 1000) => ({ source: 'sample', timezone: 'America/Chicago', fetchedAt, hours });

describe('store', () => {
  it('migrates a new file to the current schema version, once', () => {
    const dir = tempDir();
    const path = join(dir, 'a.db');
    openStore(path).close();
    const ro = openStore(path, { readonly: true });
    expect(ro.checks.counts()).toMatchObject({ hours: 0 });
    expect(ro.checks.schemaVersion()).toBe(SCHEMA_VERSION);
    ro.close();
    openStore(path).close(); // a second open must not re-run migration 1 (it would fail on existing tables)
    const again = openStore(path, { readonly: true });
    expect(again.checks.schemaVersion()).toBe(SCHEMA_VERSION);
    again.close();
  });

  it("upgrades a store of the first format in place, losslessly, deriving each city-day's status", () => {
    const path = join(tempDir(), 'v1.db');
    copyFileSync(new URL('../fixtures/store-v1.db', import.meta.url), path);
    expect(() => openStore(path, { readonly: true })).toThrow(
      /schema version 1, this code reads \d+; run `npm run ingest` once to upgrade it/,
    );
    const old = openStore(path);
    expect(old.checks.schemaVersion()).toBe(SCHEMA_VERSION);
    const day = dayNumber('2025-04-01');
    // Written by the first release: 3 days of austin and honolulu, one honolulu day with 22 hours.
    expect(old.checks.counts()).toMatchObject({ pollen_day: 6, weather_day: 6, hours: 142 });
    expect(old.pollen.statuses('austin', day, day + 2)).toEqual(
      new Map([
        [day, 'complete'],
        [day + 1, 'complete'],
        [day + 2, 'complete'],
      ]),
    );
    expect(old.pollen.statuses('honolulu', day, day + 2)).toEqual(
      new Map([
        [day, 'partial'],
        [day + 1, 'complete'],
        [day + 2, 'complete'],
      ]),
    );
    expect(old.weather.statuses('honolulu', day, day + 2)).toEqual(
      new Map([
        [day, 'complete'],
        [day + 1, 'complete'],
        [day + 2, 'complete'],
      ]),
    );
    expect(old.pollen.hours('honolulu', day * 24, day * 24 + 24)).toHaveLength(22);
    expect(old.pollen.hours('austin', day * 24, day * 24 + 1)[0]).toMatchObject({ source: 'sample', timezone: 'America/Chicago' });
    expect(old.weather.cityDay('austin', day)?.values.timezone).toBe('America/Chicago');
    expect(old.checks.integrity()).toBe('ok');
    old.close();
  });

  it('upgrades a store of the second format in place, losslessly: every hour, species payload, weather row, status and call', () => {
    const path = join(tempDir(), 'v2.db');
    copyFileSync(new URL('../fixtures/store-v2.db', import.meta.url), path);
    // What the release before packed days read back from this file (test/fixtures/sources.md).
    const expected = JSON.parse(readFileSync(new URL('../fixtures/store-v2.json', import.meta.url), 'utf8')) as {
      hours: Record<string, unknown[]>;
      weather: Record<string, unknown[]>;
      statuses: Record<string, { pollen: Array<[number, string]>; weather: Array<[number, string]> }>;
      calls: { ingest: number; forecast: number };
    };
    const store = openStore(path);
    expect(store.checks.schemaVersion()).toBe(SCHEMA_VERSION);
    const days = expected.statuses.austin!.pollen.map(([d]) => d);
    for (const city of Object.keys(expected.hours)) {
      expect(store.pollen.hours(city, 0, 1e9)).toEqual(expected.hours[city]);
      expect(days.map((d) => store.weather.cityDay(city, d) ?? null)).toEqual(expected.weather[city]);
      expect([...store.pollen.statuses(city, 0, 1e6)]).toEqual(expected.statuses[city]!.pollen);
      expect([...store.weather.statuses(city, 0, 1e6)]).toEqual(expected.statuses[city]!.weather);
    }
    expect(store.ledger.callsOn('ambee', '2026-01-01')).toEqual(expected.calls);
    expect(store.cities.set().size).toBe(40);
    expect(store.checks.incompleteDays()).toEqual([]);
    expect(store.checks.integrity()).toBe('ok');
    store.close();
  });

  it('compacts a file left loose by newest-first writes, keeping every value, and leaves a compact one alone', () => {
    const path = join(tempDir(), 'loose.db');
    const store = openStore(path);
    const cities = ['austin', 'boise', 'tulsa', 'miami', 'denver', 'seattle'];
    for (let d = 120; d >= 0; d--) {
      for (const city of cities)
        store.writeCityDay({
          city,
          day: D + d,
          pollen: { ...pollen(Array.from({ length: 24 }, (_, h) => ({ ...hourAt(h), hour: (D + d) * 24 + h, tree: d * 24 + h }))) },
        });
    }
    const sum = store.checks.checksum();
    // The hours' pages, as SQLite's dbstat counts them: the file also holds a page or two of each other table.
    const hoursBytes = () => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw.prepare("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'pollen_day%'").pluck().get() as number;
      } finally {
        raw.close();
      }
    };
    const loose = hoursBytes();
    const compacted = store.compactIfLoose();
    expect(compacted).toBeDefined();
    expect(compacted!.after).toBeLessThan(compacted!.before);
    expect(hoursBytes()).toBeLessThan(loose * 0.8);
    expect(store.checks.checksum()).toBe(sum);
    expect(store.compactIfLoose()).toBeUndefined();
    store.close();
  });

  it('keeps the status its content gives each city-day, and serves no empty weather row', () => {
    const store = openStore(join(tempDir(), 'status.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen(Array.from({ length: 24 }, (_, h) => hourAt(h))) });
    store.writeCityDay({ city: 'austin', day: D + 1, pollen: pollen([{ ...hourAt(0), hour: (D + 1) * 24 }]) });
    store.writeCityDay({
      city: 'austin',
      day: D + 2,
      pollen: pollen([]),
      weather: { source: 'sample', fetchedAt: 1, values: { tz: '-05:00', timezone: 'America/Chicago' } },
    });
    expect(store.pollen.statuses('austin', D, D + 5)).toEqual(
      new Map([
        [D, 'complete'],
        [D + 1, 'partial'],
        [D + 2, 'empty'],
      ]),
    );
    expect(store.weather.statuses('austin', D, D + 5)).toEqual(new Map([[D + 2, 'empty']]));
    expect(store.weather.cityDay('austin', D + 2)).toBeUndefined();
    expect(store.weather.forCity('austin', 10)).toEqual([]);
    expect(store.weather.latestDay()).toBeNull();
    // Weather days are those with a complete row in any city, whichever city's row comes first.
    const values = { temp_day_c: 21.5 };
    store.writeCityDay({ city: 'austin', day: D + 3, pollen: pollen([]), weather: { source: 'sample', fetchedAt: 1, values: {} } });
    store.writeCityDay({ city: 'tulsa', day: D + 3, pollen: pollen([]), weather: { source: 'sample', fetchedAt: 1, values } });
    store.writeCityDay({ city: 'tulsa', day: D + 4, pollen: pollen([]), weather: { source: 'sample', fetchedAt: 1, values } });
    expect(store.weather.days()).toEqual([D + 4, D + 3]);
    store.writeCityDay({ city: 'tulsa', day: D + 3, pollen: pollen([]), weather: { source: 'sample', fetchedAt: 2, values: {} } });
    expect(store.weather.days()).toEqual([D + 4]);
    store.close();
  });

  it('replaces only the hours asked for, keeping the rest of the day', () => {
    const store = openStore(join(tempDir(), 'asked.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0), hourAt(1), hourAt(20)]) });
    store.writeCityDay({
      city: 'austin',
      day: D,
      pollen: { ...pollen([hourAt(20, { grass: 1 }), hourAt(21)], 2000), asked: { from: D * 24 + 12, to: D * 24 + 24 } },
    });
    expect(store.pollen.hours('austin', 0, 1e9).map((h) => [h.hour - D * 24, h.grass])).toEqual([
      [0, 17],
      [1, 17],
      [20, 1],
      [21, 17],
    ]);
    expect(store.pollen.statuses('austin', D, D).get(D)).toBe('partial');
    expect(store.checks.incompleteDays()).toEqual([]);
    expect(() =>
      store.writeCityDay({ city: 'austin', day: D, pollen: { ...pollen([hourAt(2)]), asked: { from: D * 24 + 12, to: D * 24 + 24 } } }),
    ).toThrow(/outside the hours asked/);
    store.close();
  });

  it('refuses a read-only open of a missing file, and writes through a read-only store', () => {
    const dir = tempDir();
    expect(() => openStore(join(dir, 'missing.db'), { readonly: true })).toThrow(StoreVersionError);
    const path = join(dir, 'b.db');
    openStore(path).close();
    const ro = openStore(path, { readonly: true });
    expect(() => ro.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0)]) })).toThrow(/readonly/i);
    ro.close();
  });

  it('returns each species payload exactly as stored, key order and plain numbers included', () => {
    const store = openStore(join(tempDir(), 'c.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(3), hourAt(4, { species: null, tree: null })]) });
    const [a, b] = store.pollen.hours('austin', D * 24, D * 24 + 24);
    expect(JSON.stringify(a!.species)).toBe(JSON.stringify(species));
    expect(a).toMatchObject({
      hour: D * 24 + 3,
      tree: 1500.5,
      grass: 17,
      weed: null,
      total: 1519.5,
      timezone: 'America/Chicago',
      source: 'sample',
    });
    expect(b).toMatchObject({ species: null, tree: null });
    store.close();
  });

  it('writes a city-day all or nothing', () => {
    const store = openStore(join(tempDir(), 'd.db'));
    const bad = [hourAt(0), hourAt(1), { ...hourAt(2), hour: (D + 1) * 24 }]; // the last hour belongs to the next day
    expect(() =>
      store.writeCityDay({
        city: 'austin',
        day: D,
        pollen: pollen(bad),
        weather: { source: 'sample', fetchedAt: 1, values: { humidity: 40 } },
      }),
    ).toThrow(RangeError);
    expect(store.checks.counts()).toMatchObject({ hours: 0, pollen_day: 0, weather_day: 0 });
    store.close();
  });

  it('upserts: writing a day again replaces it, dropping hours no longer sent', () => {
    const store = openStore(join(tempDir(), 'e.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0), hourAt(1), hourAt(2)]) });
    const before = store.checks.checksum();
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0), hourAt(1), hourAt(2)]) });
    expect(store.checks.checksum()).toBe(before);
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(1, { grass: 3 })], 2000) });
    expect(store.pollen.hours('austin', 0, 1e9).map((h) => [h.hour - D * 24, h.grass])).toEqual([[1, 3]]);
    expect(store.checks.incompleteDays()).toEqual([]);
    expect(store.checks.checksum()).not.toBe(before);
    expect(store.checks.checksum(['fetched_at'])).not.toBe(before);
    store.close();
  });

  it('keeps weather fields that were measured and omits the rest', () => {
    const store = openStore(join(tempDir(), 'f.db'));
    store.writeCityDay({
      city: 'tulsa',
      day: D,
      weather: { source: 'sample', fetchedAt: 5, values: { temp_day_c: 21.5, aqi: 2, weather_main: 'Clear' } },
    });
    expect(store.weather.cityDay('tulsa', D)).toEqual({
      city: 'tulsa',
      day: D,
      source: 'sample',
      fetchedAt: 5,
      values: { temp_day_c: 21.5, weather_main: 'Clear', aqi: 2 },
    });
    expect(store.weather.forDay(D).map((w) => w.city)).toEqual(['tulsa']);
    expect(store.weather.latestDay()).toBe(D);
    expect(store.weather.cityDay('tulsa', D + 1)).toBeUndefined();
    store.close();
  });

  it('counts upstream calls per provider, UTC day and purpose', () => {
    const store = openStore(join(tempDir(), 'g.db'));
    store.ledger.record('ambee', '2025-05-01', 'ingest', 3);
    store.ledger.record('ambee', '2025-05-01', 'forecast');
    store.ledger.record('ambee', '2025-05-02', 'ingest');
    expect(store.ledger.callsOn('ambee', '2025-05-01')).toEqual({ ingest: 3, forecast: 1 });
    expect(store.ledger.callsOn('other', '2025-05-01')).toEqual({ ingest: 0, forecast: 0 });
    store.close();
  });

  it("caches one forecast per city and provider, a daily provider's days beside its hours", () => {
    const store = openStore(join(tempDir(), 'h.db'));
    expect(store.forecasts.get('austin', 'sample')).toBeUndefined();
    const hour = (n: number) => ({ hour: n, tree: 1, grass: null, weed: 0, total: 1, species: null });
    store.forecasts.put('austin', { source: 'sample', fetchedAt: 10, timezone: 'America/Chicago', hours: [hour(1)] });
    store.forecasts.put('austin', { source: 'sample', fetchedAt: 20, timezone: 'America/Chicago', hours: [hour(2)] });
    const daily = {
      dayMeans: 'local' as const,
      zone: 'America/Chicago',
      days: [{ date: '2025-04-01', tree: 12, grass: 3, weed: null, total: 15, species: null, levels: { overall: 'moderate' } }],
    };
    store.forecasts.put('austin', { source: 'atmospore', fetchedAt: 30, timezone: null, hours: [], daily });
    expect(store.forecasts.get('austin', 'sample')).toEqual({
      source: 'sample',
      fetchedAt: 20,
      timezone: 'America/Chicago',
      hours: [hour(2)],
    });
    expect(store.forecasts.get('austin', 'atmospore')).toEqual({ source: 'atmospore', fetchedAt: 30, timezone: null, hours: [], daily });
    expect(store.forecasts.get('austin', 'ambee')).toBeUndefined();
    store.close();
  });

  it('lists days with data newest first, and the latest day', () => {
    const store = openStore(join(tempDir(), 'i.db'));
    expect(store.pollen.latestDay()).toBeNull();
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0)]) });
    store.writeCityDay({ city: 'tulsa', day: D + 2, pollen: pollen([]) }); // asked, but the provider had nothing
    store.writeCityDay({ city: 'tulsa', day: D + 1, pollen: pollen([{ ...hourAt(0), hour: (D + 1) * 24 }]) });
    expect(store.pollen.daysWithData()).toEqual([D + 1, D]);
    expect(store.pollen.latestDay()).toBe(D + 1);
    expect(store.pollen.cityDaysWithData('tulsa', 10)).toEqual([D + 1]);
    expect(store.pollen.statuses('tulsa', D, D + 5)).toEqual(
      new Map([
        [D + 1, 'partial'],
        [D + 2, 'empty'],
      ]),
    );
    expect(store.pollen.latestSource()).toBe('sample');
    store.close();
  });

  it('lists a day when any city has data on it, whichever city comes first', () => {
    const store = openStore(join(tempDir(), 'j.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0)]) });
    store.writeCityDay({ city: 'austin', day: D + 1, pollen: pollen([]) });
    store.writeCityDay({ city: 'tulsa', day: D + 1, pollen: pollen([{ ...hourAt(0), hour: (D + 1) * 24 }]) });
    expect(store.pollen.daysWithData()).toEqual([D + 1, D]);
    store.writeCityDay({ city: 'tulsa', day: D + 1, pollen: pollen([]) });
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([]) });
    expect(store.pollen.daysWithData()).toEqual([]);
    store.close();
  });
});
