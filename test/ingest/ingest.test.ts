import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import {
  type Coverage,
  type HourSpan,
  openCoverage,
  type PollenBatch,
  type PollenProvider,
  ProviderError,
  type WeatherProvider,
} from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const cities = ['austin', 'honolulu', 'scranton'].map((s) => DEFAULT_CITIES.get(s)!);
const span = { from: dayNumber('2025-03-01'), to: dayNumber('2025-03-20') };
const sample = new SampleProvider();
const store = (name = 'a.db'): Store => openStore(join(tempDir(), name));

/** A pollen provider that answers like the sample one, except where `answer` says otherwise. */
function scripted(
  answer: (city: string, hours: HourSpan) => ProviderError | PollenBatch | undefined | Promise<PollenBatch | undefined>,
  coverage: (now: number) => Coverage = (now) => sample.coverage(now),
  maxDaysPerCall = 7,
) {
  const asked: Array<{ city: string; hours: HourSpan }> = [];
  const provider: PollenProvider = {
    id: 'sample',
    resolution: 'hourly',
    maxDaysPerCall,
    coverage,
    pollenForecast: (c, now) => sample.pollenForecast(c, now),
    async pollenHistory(city, hours) {
      asked.push({ city: city.slug, hours });
      const outcome = await answer(city.slug, hours);
      if (outcome instanceof ProviderError) throw outcome;
      return outcome ?? sample.pollenHistory(city, hours);
    },
  };
  return { provider, asked };
}

/** A 48-hour window, as Ambee's free plan, at `now`. */
const window48 = (now: number): Coverage => {
  const oldestHour = Math.ceil((now - 48 * HOUR_MS) / HOUR_MS);
  return { oldestHour, newestHour: Math.floor(now / HOUR_MS), retryFromHour: oldestHour };
};
const at = (iso: string) => () => Date.parse(iso);
const hoursOf = (s: Store, city: string, day: number) => s.pollen.hours(city, day * 24, day * 24 + 24).length;

describe('ingest', () => {
  it('fills every city-day, and a second run adds and changes nothing', async () => {
    const s = store();
    const first = await ingest({ store: s, pollen: sample, weather: sample, cities, span });
    const stored = s.checks.counts();
    expect(first.counts.complete + first.counts.partial).toBe(2 * 60); // the sample model leaves a few hours out
    expect(first.counts).toMatchObject({ empty: 0, deferred: 0, outside_window: 0, failed: 0 });
    expect(stored).toMatchObject({ pollen_day: 60, weather_day: 60, hours: first.hourlyRows });
    const sum = s.checks.checksum();
    const second = await ingest({ store: s, pollen: sample, weather: sample, cities, span });
    expect(second).toMatchObject({ written: 0, calls: 0, counts: first.counts });
    expect(s.checks.counts()).toEqual(stored);
    expect(s.checks.checksum()).toBe(sum);
    s.close();
  });

  it('names every city-day that failed, keeps the rest, and a later run fills only the gap', async () => {
    const dir = tempDir();
    const s = openStore(join(dir, 'b.db'));
    const outage = scripted((city, h) =>
      city === 'honolulu' && h.from === span.from * 24 ? new ProviderError('sample', 'unavailable', 'HTTP 503') : undefined,
    );
    const run = await ingest({ store: s, pollen: outage.provider, weather: sample, cities, span });
    // Requests go newest first, so the failed one is the oldest 6 days (20 = 7 + 7 + 6).
    expect(run.failed.map((f) => `${f.city} ${f.date} ${f.data} ${f.failure}`)).toEqual(
      Array.from({ length: 6 }, (_, i) => `honolulu 2025-03-0${i + 1} pollen unavailable`),
    );
    expect(run.counts.failed).toBe(6);
    expect(s.checks.counts().pollen_day).toBe(54);
    expect(s.checks.counts().weather_day).toBe(60); // weather came from a healthy provider

    const retry = await ingest({ store: s, pollen: sample, weather: sample, cities, span });
    expect(retry).toMatchObject({ written: 6, failed: [] });
    const clean = openStore(join(dir, 'clean.db'));
    await ingest({ store: clean, pollen: sample, weather: sample, cities, span });
    expect(s.checks.checksum(['fetched_at'])).toBe(clean.checks.checksum(['fetched_at']));
    s.close();
    clean.close();
  });

  it('writes nothing from a bad payload', async () => {
    const s = store();
    const broken = scripted((city) =>
      city === 'austin' ? { timezone: null, hours: [{ time: Number.NaN, tree: 1, grass: 1, weed: 1, species: null }] } : undefined,
    );
    const run = await ingest({
      store: s,
      pollen: broken.provider,
      weather: null,
      cities: [DEFAULT_CITIES.get('austin')!],
      span: { from: span.from, to: span.from + 2 },
    });
    expect(run.failed).toHaveLength(3);
    expect(run.failed[0]).toMatchObject({ failure: 'bad_payload', city: 'austin' });
    expect(s.checks.counts()).toMatchObject({ pollen_day: 0, hours: 0 });
    s.close();
  });

  it('stores invalid provider numbers as missing values', async () => {
    const s = store();
    const t = span.from * 24 * HOUR_MS;
    const odd = scripted(() => ({
      timezone: 'America/Chicago',
      hours: [{ time: t, tree: -4, grass: 'many', weed: 7, total: Number.NaN, species: { Tree: { Oak: -1 }, Others: 3 } }],
    }));
    await ingest({
      store: s,
      pollen: odd.provider,
      weather: null,
      cities: [DEFAULT_CITIES.get('austin')!],
      span: { from: span.from, to: span.from },
    });
    expect(s.pollen.hours('austin', 0, 1e9)).toEqual([
      {
        hour: span.from * 24,
        tree: null,
        grass: null,
        weed: 7,
        total: 7,
        species: { Tree: { Oak: null }, Others: 3 },
        timezone: 'America/Chicago',
        source: 'sample',
      },
    ]);
    s.close();
  });

  it('fetches stored days again with refresh, giving the same data', async () => {
    const s = store();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    await ingest({ store: s, pollen: sample, weather: sample, cities, span, now: () => clock });
    const data = s.checks.checksum(['fetched_at']);
    const all = s.checks.checksum();
    clock += 1000;
    const again = await ingest({ store: s, pollen: sample, weather: sample, cities, span, refresh: true, now: () => clock });
    expect(again.written).toBe(120);
    expect(s.checks.checksum(['fetched_at'])).toBe(data);
    expect(s.checks.checksum()).not.toBe(all);
    s.close();
  });

  it('makes one request per run of days, per kind of data', async () => {
    const s = store();
    const run = await ingest({ store: s, pollen: sample, weather: sample, cities, span });
    expect(run.calls).toBe(cities.length * 2); // one 20-day request per city, for pollen and for weather
    s.close();
  });

  it('defers what is left once a provider refuses for quota, spending the quota on the newest days first', async () => {
    const s = store();
    let answered = 0;
    const quota = scripted(() => (++answered > 4 ? new ProviderError('sample', 'quota', 'HTTP 422') : undefined), undefined, 2);
    const run = await ingest({
      store: s,
      pollen: quota.provider,
      weather: null,
      cities,
      span: { from: span.from, to: span.from + 5 },
      concurrency: 1,
    });
    expect(run.failed).toEqual([]);
    expect(run.stopped).toEqual({ sample: 'sample: HTTP 422' });
    expect(run.counts.deferred).toBe(18 - 8);
    // Every city's newest two days came before any city's older days; the fifth request was refused.
    expect(quota.asked.map((a) => `${a.city} ${a.hours.from / 24 - span.from}`)).toEqual([
      'austin 4',
      'honolulu 4',
      'scranton 4',
      'austin 2',
      'honolulu 2',
    ]);
    expect(s.pollen.statuses('scranton', span.from, span.to).has(span.from + 5)).toBe(true);
    expect(s.pollen.statuses('scranton', span.from, span.to).has(span.from + 3)).toBe(false);
    s.close();
  });

  it('stores a place the provider has no data for (404) as empty, not failed', async () => {
    const s = store();
    const uncovered = scripted((city) => (city === 'honolulu' ? new ProviderError('sample', 'not_covered', 'HTTP 404') : undefined));
    const run = await ingest({ store: s, pollen: uncovered.provider, weather: null, cities, span: { from: span.from, to: span.from + 1 } });
    expect(run).toMatchObject({ failed: [], counts: { empty: 2, failed: 0 } });
    expect(s.pollen.statuses('honolulu', span.from, span.to)).toEqual(
      new Map([
        [span.from, 'empty'],
        [span.from + 1, 'empty'],
      ]),
    );
    s.close();
  });

  it('counts days the provider refuses as outside its window, without failing', async () => {
    const s = store();
    const refusing = scripted(() => new ProviderError('sample', 'outside_window', 'HTTP 400 Only past 2 days data available!'));
    const run = await ingest({
      store: s,
      pollen: refusing.provider,
      weather: null,
      cities: cities.slice(0, 1),
      span: { from: span.from, to: span.from + 1 },
    });
    expect(run).toMatchObject({ failed: [], counts: { outside_window: 2 } });
    expect(s.checks.counts().pollen_day).toBe(0);
    s.close();
  });
});

describe('ingest over a 48-hour window', () => {
  const austin = [DEFAULT_CITIES.get('austin')!];
  const today = dayNumber('2026-03-10');

  it('never asks before the window, asks a straddling day for its hours inside, and stores it as partial', async () => {
    const s = store();
    const p = scripted(() => undefined, window48);
    const run = await ingest({
      store: s,
      pollen: p.provider,
      weather: null,
      cities: austin,
      span: { from: today - 5, to: today - 1 },
      now: at('2026-03-10T06:30:00Z'),
    });
    const oldest = Math.ceil((Date.parse('2026-03-10T06:30:00Z') - 48 * HOUR_MS) / HOUR_MS);
    expect(p.asked).toEqual([{ city: 'austin', hours: { from: oldest, to: today * 24 } }]);
    expect(run.counts).toMatchObject({ outside_window: 3, failed: 0 });
    expect(s.pollen.statuses('austin', today - 5, today)).toEqual(
      new Map([
        [today - 1, hoursOf(s, 'austin', today - 1) === 24 ? 'complete' : 'partial'],
        [today - 2, 'partial'],
      ]),
    );
    expect(hoursOf(s, 'austin', today - 2)).toBeLessThanOrEqual(24 - 7);
    s.close();
  });

  it('completes a partial day on a later run while it is inside the window, keeping the hours it had', async () => {
    const s = store();
    const yesterday = today - 1;
    let firstRun = true;
    // The first answer lacks the evening (the provider had not published it yet).
    const p = scripted(
      async (_c, h) =>
        firstRun
          ? {
              timezone: 'America/Chicago',
              hours: (await sample.pollenHistory(austin[0]!, h)).hours.filter((x) => x.time < (yesterday * 24 + 18) * HOUR_MS),
            }
          : undefined,
      window48,
    );
    await ingest({
      store: s,
      pollen: p.provider,
      weather: null,
      cities: austin,
      span: { from: yesterday, to: yesterday },
      now: at('2026-03-10T01:30:00Z'),
    });
    expect(s.pollen.statuses('austin', yesterday, yesterday).get(yesterday)).toBe('partial');
    firstRun = false;
    const later = await ingest({
      store: s,
      pollen: p.provider,
      weather: null,
      cities: austin,
      span: { from: yesterday, to: yesterday },
      now: at('2026-03-10T06:30:00Z'),
    });
    expect(later.written).toBe(1);
    expect(hoursOf(s, 'austin', yesterday)).toBe(
      (await sample.pollenHistory(austin[0]!, { from: yesterday * 24, to: today * 24 })).hours.length,
    );
    s.close();
  });

  it('leaves a partial day alone once it has left the window: it is final, and a later run changes nothing', async () => {
    const s = store();
    const p = scripted(() => undefined, window48);
    const span2 = { from: today - 2, to: today - 1 };
    await ingest({ store: s, pollen: p.provider, weather: null, cities: austin, span: span2, now: at('2026-03-10T06:30:00Z') });
    expect(s.pollen.statuses('austin', today - 2, today - 2).get(today - 2)).toBe('partial');
    const before = s.pollen.hours('austin', (today - 2) * 24, (today - 1) * 24);
    p.asked.length = 0;
    const next = await ingest({
      store: s,
      pollen: p.provider,
      weather: null,
      cities: austin,
      span: span2,
      now: at('2026-03-11T06:30:00Z'),
    });
    expect(p.asked.every((a) => a.hours.from >= (today - 1) * 24)).toBe(true);
    expect(s.pollen.hours('austin', (today - 2) * 24, (today - 1) * 24)).toEqual(before);
    expect(next.counts.partial).toBeGreaterThanOrEqual(1);
    const sum = s.checks.checksum();
    const third = await ingest({
      store: s,
      pollen: p.provider,
      weather: null,
      cities: austin,
      span: span2,
      now: at('2026-03-13T06:30:00Z'),
    });
    expect(third.calls).toBe(0);
    expect(s.checks.checksum()).toBe(sum);
    s.close();
  });
});

describe('ingest of a lagging weather provider', () => {
  it('asks again for days it returned no values for, until they are older than its retry horizon', async () => {
    const s = store();
    const today = dayNumber('2026-03-10');
    let filledUpTo = today - 3; // the archive's newest filled day
    const asked: number[][] = [];
    const lagging: WeatherProvider = {
      id: 'lagging',
      maxDaysPerCall: 31,
      coverage: (now) => ({ ...openCoverage(Math.floor(now / DAY_MS) * 24, null), retryFromHour: (Math.floor(now / DAY_MS) - 5) * 24 }),
      async weatherHistory(city: City, sp) {
        asked.push([sp.from - today, sp.to - today]);
        return (await sample.weatherHistory(city, sp)).filter((d) => d.day <= filledUpTo);
      },
    };
    const austin = [DEFAULT_CITIES.get('austin')!];
    const days = { from: today - 4, to: today - 1 };
    const first = await ingest({ store: s, pollen: sample, weather: lagging, cities: austin, span: days, now: at('2026-03-10T06:30:00Z') });
    expect(first.counts).toMatchObject({ empty: 2 }); // the two newest days had no values yet
    filledUpTo = today - 1;
    await ingest({ store: s, pollen: sample, weather: lagging, cities: austin, span: days, now: at('2026-03-10T12:30:00Z') });
    expect(asked.at(-1)).toEqual([-2, -1]);
    expect([...s.weather.statuses('austin', days.from, days.to).values()]).toEqual(['complete', 'complete', 'complete', 'complete']);
    s.close();
  });
});
