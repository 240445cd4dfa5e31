import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cityBySlug } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ingest, windows } from '../../src/ingest/ingest.js';
import { ProviderError, type DaySpan, type PollenBatch, type PollenProvider } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const cities = ['austin', 'honolulu', 'scranton'].map((s) => cityBySlug(s)!);
const span = { from: dayNumber('2025-03-01'), to: dayNumber('2025-03-20') };
const sample = new SampleProvider();

/** A pollen provider that answers like the sample one, except where `fail` says otherwise. */
function flaky(fail: (city: string, span: DaySpan) => ProviderError | PollenBatch | undefined): PollenProvider {
  return {
    id: 'sample',
    maxDaysPerCall: 7,
    pollenForecast: (c, now) => sample.pollenForecast(c, now),
    async pollenHistory(city, s) {
      const outcome = fail(city.slug, s);
      if (outcome instanceof ProviderError) throw outcome;
      return outcome ?? sample.pollenHistory(city, s);
    },
  };
}

describe('ingest', () => {
  it('fills every city-day, and a second run adds and changes nothing', async () => {
    const store = openStore(join(tempDir(), 'a.db'));
    const first = await ingest({ store, pollen: sample, weather: sample, cities, span });
    expect(first).toMatchObject({ cityDays: 60, written: 60, skipped: 0, weatherRows: 60, failures: [] });
    expect(store.counts()).toMatchObject({ pollen_day: 60, weather_day: 60, pollen_hour: first.hourlyRows });
    const counts = store.counts();
    const sum = store.checksum();
    const second = await ingest({ store, pollen: sample, weather: sample, cities, span });
    expect(second).toMatchObject({ written: 0, skipped: 60, calls: 0 });
    expect(store.counts()).toEqual(counts);
    expect(store.checksum()).toBe(sum);
    store.close();
  });

  it('names every city-day that failed, keeps the rest, and a later run fills only the gap', async () => {
    const dir = tempDir();
    const store = openStore(join(dir, 'b.db'));
    const outage = flaky((city, s) => (city === 'honolulu' && s.from === span.from ? new ProviderError('sample', 'unavailable', 'HTTP 503') : undefined));
    const run = await ingest({ store, pollen: outage, weather: sample, cities, span });
    expect(run.failures.map((f) => `${f.city} ${f.date} ${f.data} ${f.failure}`)).toEqual(
      Array.from({ length: 7 }, (_, i) => `honolulu 2025-03-0${i + 1} pollen unavailable`),
    );
    expect(store.counts().pollen_day).toBe(53);
    expect(store.counts().weather_day).toBe(60); // weather came from a healthy provider

    const retry = await ingest({ store, pollen: sample, weather: sample, cities, span });
    expect(retry).toMatchObject({ written: 7, failures: [] });

    const clean = openStore(join(dir, 'clean.db'));
    await ingest({ store: clean, pollen: sample, weather: sample, cities, span });
    expect(store.checksum(['fetched_at'])).toBe(clean.checksum(['fetched_at']));
    store.close();
    clean.close();
  });

  it('writes nothing from a bad payload', async () => {
    const store = openStore(join(tempDir(), 'c.db'));
    const broken = flaky((city) => (city === 'austin' ? { timezone: null, hours: [{ time: Number.NaN, tree: 1, grass: 1, weed: 1, species: null }] } : undefined));
    const run = await ingest({ store, pollen: broken, weather: null, cities: [cityBySlug('austin')!], span: { from: span.from, to: span.from + 2 } });
    expect(run.failures).toHaveLength(3);
    expect(run.failures[0]).toMatchObject({ failure: 'bad_payload', city: 'austin' });
    expect(store.counts()).toMatchObject({ pollen_day: 0, pollen_hour: 0 });
    store.close();
  });

  it('leaves a day the provider has no hours for unstored, and fetches it again next time', async () => {
    const store = openStore(join(tempDir(), 'lag.db'));
    const one = { from: span.from, to: span.from + 1 };
    const lagging = flaky((city) => (city === 'austin' ? { timezone: 'America/Chicago', hours: [] } : undefined));
    const first = await ingest({ store, pollen: lagging, weather: sample, cities: [cityBySlug('austin')!], span: one });
    expect(first).toMatchObject({ empty: 2, failures: [], weatherRows: 2 });
    expect(store.counts().pollen_day).toBe(0);
    const second = await ingest({ store, pollen: sample, weather: sample, cities: [cityBySlug('austin')!], span: one });
    expect(second).toMatchObject({ empty: 0, written: 2, weatherRows: 0 });
    expect(store.counts().pollen_day).toBe(2);
    store.close();
  });

  it('stores invalid provider numbers as missing values', async () => {
    const store = openStore(join(tempDir(), 'd.db'));
    const t = span.from * 24 * 3_600_000;
    const odd = flaky(() => ({
      timezone: 'America/Chicago',
      hours: [{ time: t, tree: -4, grass: 'many', weed: 7, total: Number.NaN, species: { Tree: { Oak: -1 }, Others: 3 } }],
    }));
    await ingest({ store, pollen: odd, weather: null, cities: [cityBySlug('austin')!], span: { from: span.from, to: span.from } });
    expect(store.hours('austin', 0, 1e9)).toEqual([
      { hour: span.from * 24, tree: null, grass: null, weed: 7, total: 7, species: { Tree: { Oak: null }, Others: 3 }, timezone: 'America/Chicago', source: 'sample' },
    ]);
    store.close();
  });

  it('fetches stored days again with refresh, giving the same data', async () => {
    const store = openStore(join(tempDir(), 'e.db'));
    let clock = 1_000;
    await ingest({ store, pollen: sample, weather: sample, cities, span, now: () => clock });
    const data = store.checksum(['fetched_at']);
    const all = store.checksum();
    clock = 2_000;
    const again = await ingest({ store, pollen: sample, weather: sample, cities, span, refresh: true, now: () => clock });
    expect(again.written).toBe(60);
    expect(store.checksum(['fetched_at'])).toBe(data);
    expect(store.checksum()).not.toBe(all);
    store.close();
  });

  it('counts provider fetches, one per window and kind of data', async () => {
    const store = openStore(join(tempDir(), 'f.db'));
    const run = await ingest({ store, pollen: sample, weather: sample, cities, span });
    expect(run.calls).toBe(cities.length * 2); // one 20-day window per city, for pollen and for weather
    store.close();
  });

  it('stops calling a provider after a quota refusal, failing its remaining windows at once', async () => {
    const store = openStore(join(tempDir(), 'g.db'));
    let asked = 0;
    const quota = flaky(() => (asked++, new ProviderError('sample', 'quota', 'HTTP 429')));
    const run = await ingest({ store, pollen: quota, weather: null, cities, span, concurrency: 1 });
    expect(asked).toBe(1);
    expect(run.failures).toHaveLength(60);
    expect(run.stopped).toEqual({ sample: 'sample: HTTP 429' });
    store.close();
  });
});

describe('windows', () => {
  it('splits needed days into runs no longer than a provider call allows', () => {
    const needed = new Set([1, 2, 3, 4, 5, 8, 9]);
    expect(windows({ from: 1, to: 10 }, 3, (d) => needed.has(d))).toEqual([
      { from: 1, to: 3, skip: false },
      { from: 4, to: 5, skip: false },
      { from: 6, to: 7, skip: true },
      { from: 8, to: 9, skip: false },
      { from: 10, to: 10, skip: true },
    ]);
  });
});
