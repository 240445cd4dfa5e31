import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { openStore, StoreVersionError, type PollenHour } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const D = dayNumber('2025-05-01');
const species = { Grass: { 'Grass / Poaceae': 17 }, Others: 2, Tree: { Oak: 1500, Birch: 0.5 }, Weed: { Ragweed: null } };
const hourAt = (h: number, extra: Partial<PollenHour> = {}): PollenHour => ({ hour: D * 24 + h, tree: 1500.5, grass: 17, weed: null, total: 1519.5, species, ...extra });
const pollen = (hours: PollenHour[], fetchedAt = 1000) => ({ source: 'sample', timezone: 'America/Chicago', fetchedAt, hours });

describe('store', () => {
  it('migrates a new file to the current schema version, once', () => {
    const dir = tempDir();
    const path = join(dir, 'a.db');
    openStore(path).close();
    const ro = openStore(path, { readonly: true });
    expect(ro.counts()).toMatchObject({ pollen_hour: 0 });
    ro.close();
    openStore(path).close(); // a second open must not re-run migration 1 (it would fail on existing tables)
    expect(SCHEMA_VERSION).toBeGreaterThan(0);
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
    const [a, b] = store.hours('austin', D * 24, D * 24 + 24);
    expect(JSON.stringify(a!.species)).toBe(JSON.stringify(species));
    expect(a).toMatchObject({ hour: D * 24 + 3, tree: 1500.5, grass: 17, weed: null, total: 1519.5, timezone: 'America/Chicago', source: 'sample' });
    expect(b).toMatchObject({ species: null, tree: null });
    store.close();
  });

  it('writes a city-day all or nothing', () => {
    const store = openStore(join(tempDir(), 'd.db'));
    const bad = [hourAt(0), hourAt(1), { ...hourAt(2), hour: (D + 1) * 24 }]; // the last hour belongs to the next day
    expect(() => store.writeCityDay({ city: 'austin', day: D, pollen: pollen(bad), weather: { source: 'sample', fetchedAt: 1, values: { humidity: 40 } } })).toThrow(RangeError);
    expect(store.counts()).toMatchObject({ pollen_hour: 0, pollen_day: 0, weather_day: 0 });
    store.close();
  });

  it('upserts: writing a day again replaces it, dropping hours no longer sent', () => {
    const store = openStore(join(tempDir(), 'e.db'));
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0), hourAt(1), hourAt(2)]) });
    const before = store.checksum();
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0), hourAt(1), hourAt(2)]) });
    expect(store.checksum()).toBe(before);
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(1, { grass: 3 })], 2000) });
    expect(store.hours('austin', 0, 1e9).map((h) => [h.hour - D * 24, h.grass])).toEqual([[1, 3]]);
    expect(store.incompleteDays()).toEqual([]);
    expect(store.checksum()).not.toBe(before);
    expect(store.checksum(['fetched_at'])).not.toBe(before);
    store.close();
  });

  it('keeps weather fields that were measured and omits the rest', () => {
    const store = openStore(join(tempDir(), 'f.db'));
    store.writeCityDay({ city: 'tulsa', day: D, weather: { source: 'sample', fetchedAt: 5, values: { temp_day_c: 21.5, aqi: 2, weather_main: 'Clear' } } });
    expect(store.weather('tulsa', D)).toEqual({ city: 'tulsa', day: D, source: 'sample', fetchedAt: 5, values: { temp_day_c: 21.5, weather_main: 'Clear', aqi: 2 } });
    expect(store.weatherForDay(D).map((w) => w.city)).toEqual(['tulsa']);
    expect(store.latestWeatherDay()).toBe(D);
    expect(store.weather('tulsa', D + 1)).toBeUndefined();
    store.close();
  });

  it('counts upstream calls per provider, UTC day and purpose', () => {
    const store = openStore(join(tempDir(), 'g.db'));
    store.recordCalls('ambee', '2025-05-01', 'ingest', 3);
    store.recordCalls('ambee', '2025-05-01', 'forecast');
    store.recordCalls('ambee', '2025-05-02', 'ingest');
    expect(store.callsOn('ambee', '2025-05-01')).toEqual({ ingest: 3, forecast: 1 });
    expect(store.callsOn('other', '2025-05-01')).toEqual({ ingest: 0, forecast: 0 });
    store.close();
  });

  it('caches one forecast per city', () => {
    const store = openStore(join(tempDir(), 'h.db'));
    expect(store.cachedForecast('austin')).toBeUndefined();
    store.putForecast('austin', { source: 'sample', fetchedAt: 10, rows: [{ a: 1 }] });
    store.putForecast('austin', { source: 'sample', fetchedAt: 20, rows: [{ a: 2 }] });
    expect(store.cachedForecast('austin')).toEqual({ source: 'sample', fetchedAt: 20, rows: [{ a: 2 }] });
    store.close();
  });

  it('lists days with data newest first, and the latest day', () => {
    const store = openStore(join(tempDir(), 'i.db'));
    expect(store.latestDay()).toBeNull();
    store.writeCityDay({ city: 'austin', day: D, pollen: pollen([hourAt(0)]) });
    store.writeCityDay({ city: 'tulsa', day: D + 2, pollen: pollen([]) }); // asked, but the provider had nothing
    store.writeCityDay({ city: 'tulsa', day: D + 1, pollen: pollen([{ ...hourAt(0), hour: (D + 1) * 24 }]) });
    expect(store.daysWithData()).toEqual([D + 1, D]);
    expect(store.latestDay()).toBe(D + 1);
    expect(store.cityDaysWithData('tulsa', 10)).toEqual([D + 1]);
    expect(store.storedDays('tulsa', D, D + 5).pollen).toEqual(new Set([D + 1, D + 2]));
    store.close();
  });
});
