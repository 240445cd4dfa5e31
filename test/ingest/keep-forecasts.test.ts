import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { BlobsForecastCache, SqliteForecastCache } from '../../src/forecast/cache.js';
import { blobFetches, FETCHES_PREFIX, fetchKey } from '../../src/forecast/kept.js';
import { ForecastService } from '../../src/forecast/service.js';
import { functionFetches } from '../../src/ingest/function-fetches.js';
import { keepForecasts, MADE_AGAIN_AT } from '../../src/ingest/keep-forecasts.js';
import { type PollenProvider, ProviderError } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { useBlobsServer } from '../helpers/blobs-server.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const sample = new SampleProvider();
const [tulsa, austin] = [DEFAULT_CITIES.get('tulsa')!, DEFAULT_CITIES.get('austin')!];
const SPAN = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-10') };
const T0 = Date.parse('2025-04-11T06:30:00Z');

/** A provider that forecasts as the sample does but cannot issue its past again (as a real one), counting its calls. */
function realLike(id = 'pollenprov', fail?: ProviderError) {
  const calls: string[] = [];
  const provider: PollenProvider = {
    id,
    resolution: 'hourly',
    maxDaysPerCall: 1,
    coverage: (now) => sample.coverage(now),
    pollenHistory: () => Promise.reject(new Error('not used')),
    async pollenForecast(city, now) {
      calls.push(city.slug);
      if (fail) throw fail;
      return sample.pollenForecast(city, now);
    },
  };
  return { provider, calls };
}

const blobsServer = useBlobsServer('keep-test-');

describe('the forecasts a build keeps', () => {
  it("keeps the forecast function's fetches from Blobs, takes one forecast per city not fetched in 6 hours, and forgets what a saved store holds", async () => {
    const db = await buildStore(tempDir(), ['tulsa', 'austin'], SPAN);
    const store = openStore(db);
    const blobs = getStore({ name: `forecast-cache-${Math.random()}`, siteID: 'site', token: 'tok', edgeURL: blobsServer.edgeURL });
    const { provider, calls } = realLike();
    // Between builds, the function fetches Tulsa twice (its cache lasts 6 hours).
    const clock = { now: T0 - 20 * HOUR_MS };
    const service = new ForecastService({
      providers: [provider],
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => clock.now,
    });
    await service.get(tulsa);
    clock.now += 7 * HOUR_MS;
    await service.get(tulsa);
    // Another provider's forecast left in the site's Blobs is no forecast of this deployment.
    await blobs.setJSON(`${FETCHES_PREFIX}austin/${T0 - 2 * HOUR_MS}`, {
      source: 'other',
      fetchedAt: T0 - 2 * HOUR_MS,
      timezone: null,
      hours: [],
    });
    expect(calls).toEqual(['tulsa', 'tulsa']);

    const fetched = blobFetches(blobs, FETCHES_PREFIX);
    const first = await keepForecasts({ store, providers: [provider], cities: [tulsa, austin], now: T0, serveDays: 730, fetched });
    expect(first).toMatchObject({ fromFunction: 2, forgotten: 0, taken: 2, madeAgain: 0, failed: [] });
    // The build took Tulsa's too: its latest fetch is 13 hours old.
    expect(calls).toEqual(['tulsa', 'tulsa', 'tulsa', 'austin']);
    const kept = store.issued.since('tulsa', 0);
    expect(kept.map((f) => [f.issuedAt, f.origin])).toEqual([
      [T0 - 20 * HOUR_MS, 'function'],
      [T0 - 13 * HOUR_MS, 'function'],
      [T0, 'build'],
    ]);
    // Issued at 10:30Z for 48 hours: the issue day holds 14 of its hours and the day after next 10, too few; the next day is whole (lead 1).
    expect(kept[0]!.days.map((d) => [d.day, d.lead, d.hours])).toEqual([[dayNumber('2025-04-11'), 1, 24]]);

    // The next build: the fetches the store held before it are forgotten in Blobs; nothing is taken again within 6 hours.
    const second = await keepForecasts({
      store,
      providers: [provider],
      cities: [tulsa, austin],
      now: T0 + HOUR_MS,
      serveDays: 730,
      fetched,
    });
    expect(second).toMatchObject({ fromFunction: 0, forgotten: 2, taken: 0 });
    expect(calls).toHaveLength(4);
    // Another real provider's fetch is not this build's to forget (only the sample's are).
    expect((await blobs.list({ prefix: FETCHES_PREFIX })).blobs.map((b) => b.key)).toEqual([`${FETCHES_PREFIX}austin/${T0 - 2 * HOUR_MS}`]);
    store.close();
  });

  it('stops taking forecasts once the provider refuses for quota, and says which city it could not take', async () => {
    const db = await buildStore(tempDir(), ['tulsa', 'austin'], SPAN);
    const store = openStore(db);
    const { provider, calls } = realLike('pollenprov', new ProviderError('pollenprov', 'quota', 'daily budget spent'));
    const kept = await keepForecasts({ store, providers: [provider], cities: [tulsa, austin], now: T0, serveDays: 730 });
    expect(kept).toMatchObject({ taken: 0, failed: ['tulsa: pollenprov: daily budget spent'] });
    expect(calls).toEqual(['tulsa']);
    store.close();
  });

  it('has the sample make its past forecasts again, two a day over the served days, once, and forgets those before them', async () => {
    const db = await buildStore(tempDir(), ['tulsa'], SPAN);
    const store = openStore(db);
    const now = T0 + 6 * HOUR_MS; // 12:30Z on 11 April: that day's 06:30 forecast is issued, its 18:30 one not yet
    const first = await keepForecasts({ store, providers: [sample], cities: [tulsa], now, serveDays: 730 });
    // 1 to 10 April twice, 11 April's morning, and those of before 1 April that reach it: 31 March's
    // two (lead 1, and the evening's lead 2 too) and 30 March's evening (18 hours of 1 April, lead 2).
    expect(first).toMatchObject({ madeAgain: 24, taken: 0, dropped: 0 });
    // The outlooks: 2 to 10 April made again (each from the days before it: none before 1 April), 11 April's issued.
    expect(first.outlooks).toMatchObject({ issued: 1, madeAgain: 9, dropped: 0 });
    expect(store.issued.since('tulsa', 0).every((f) => f.origin === 'made again' && f.source === 'sample')).toBe(true);
    // The days it made from daily rows say what the hourly forecast says: the same days and leads.
    const morning = store.issued
      .since('tulsa', 0)
      .find((f) => f.issuedAt === dayNumber('2025-04-05') * DAY_MS + MADE_AGAIN_AT[0]! * HOUR_MS)!;
    expect(morning.days.map((d) => [d.lead, d.hours])).toEqual([
      [0, 18],
      [1, 24],
    ]);
    expect(await keepForecasts({ store, providers: [sample], cities: [tulsa], now, serveDays: 730 })).toMatchObject({
      madeAgain: 0,
      outlooks: { issued: 0, madeAgain: 0, dropped: 0 },
    });
    // Serving 3 days (8 to 10 April) reaches back to 1 April, the first of their month: the 3 issued before it leave.
    expect((await keepForecasts({ store, providers: [sample], cities: [tulsa], now, serveDays: 3 })).dropped).toBe(3);
    store.close();
  });

  it("makes no forecast issued after the day after the store's last day, however long ago that was", async () => {
    const db = await buildStore(tempDir(), ['tulsa'], SPAN);
    const store = openStore(db);
    const kept = await keepForecasts({ store, providers: [sample], cities: [tulsa], now: T0 + 400 * DAY_MS, serveDays: 730 });
    // The 24 above and 11 April's evening one; none of the 800 since, which no stored day would score.
    expect(kept).toMatchObject({ madeAgain: 25 });
    const issued = store.issued.since('tulsa', 0).map((f) => f.issuedAt);
    expect(Math.max(...issued)).toBe(dayNumber('2025-04-11') * DAY_MS + MADE_AGAIN_AT[1]! * HOUR_MS);
    store.close();
  });

  it("reads the local forecast cache's fetches where no site is configured", async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], SPAN);
    const cachePath = join(dir, 'forecast-cache.db');
    const cache = openStore(cachePath);
    const { provider } = realLike();
    const service = new ForecastService({
      providers: [provider],
      cache: new SqliteForecastCache(cache),
      dailyBudget: null,
      now: () => T0 - 3 * HOUR_MS,
    });
    await service.get(tulsa);
    cache.close();
    const env = { FORECAST_CACHE_DB: cachePath };
    expect(functionFetches(cachePath, env)).toBeUndefined(); // the cache is the store itself
    const source = functionFetches(db, env)!;
    const store = openStore(db);
    const kept = await keepForecasts({ store, providers: [provider], cities: [tulsa], now: T0, serveDays: 730, fetched: source.fetched });
    source.close();
    expect(kept).toMatchObject({ fromFunction: 1, taken: 0 });
    expect(store.issued.since('tulsa', 0)[0]).toMatchObject({ issuedAt: T0 - 3 * HOUR_MS, origin: 'function', source: 'pollenprov' });
    store.close();
  });
});

describe("the forecast function's fetches in the site's Blobs", () => {
  /** The site's own provider, a real one. */
  const site = realLike().provider;
  /** A forecast function on the Blobs, fetching from `provider` at `at`. */
  const functionOn = (blobs: ReturnType<typeof getStore>, provider: PollenProvider, at: number) =>
    new ForecastService({ providers: [provider], cache: new BlobsForecastCache(blobs), dailyBudget: null, now: () => at });

  it('are forgotten by a build when another provider fetched them, as a deploy on the sample sharing the Blobs does', async () => {
    const db = await buildStore(tempDir(), ['tulsa', 'austin'], SPAN);
    const store = openStore(db);
    const blobs = getStore({ name: `forecast-cache-${Math.random()}`, siteID: 'site', token: 'tok', edgeURL: blobsServer.edgeURL });
    const live = functionOn(blobs, site, T0 - 3 * HOUR_MS);
    const preview = functionOn(blobs, sample, T0 - 2 * HOUR_MS);
    await live.get(tulsa);
    await preview.get(tulsa);
    await preview.get(austin);
    const keys = async () => (await blobs.list({ prefix: FETCHES_PREFIX })).blobs.map((b) => b.key).sort();
    expect(await keys()).toHaveLength(3);

    const fetched = blobFetches(blobs, FETCHES_PREFIX);
    const first = await keepForecasts({ store, providers: [site], cities: [tulsa, austin], now: T0, serveDays: 730, fetched });
    expect(first).toMatchObject({ fromFunction: 1, forgotten: 0 });
    expect(store.issued.since('tulsa', 0).map((f) => [f.issuedAt, f.source])).toContainEqual([T0 - 3 * HOUR_MS, 'pollenprov']);
    // The site's own fetch stays until a build whose saved store holds it forgets it.
    expect(await keys()).toEqual([fetchKey('tulsa', 'pollenprov', T0 - 3 * HOUR_MS)]);

    expect(
      await keepForecasts({ store, providers: [site], cities: [tulsa, austin], now: T0 + HOUR_MS, serveDays: 730, fetched }),
    ).toMatchObject({
      forgotten: 1,
    });
    expect(await keys()).toEqual([]);
    store.close();
  });

  it("are never forgotten by a sample build when a real provider fetched them: the site's next build keeps them", async () => {
    const db = await buildStore(tempDir(), ['tulsa'], SPAN);
    const store = openStore(db);
    const blobs = getStore({ name: `forecast-cache-${Math.random()}`, siteID: 'site', token: 'tok', edgeURL: blobsServer.edgeURL });
    await functionOn(blobs, site, T0 - 3 * HOUR_MS).get(tulsa);
    const fetched = blobFetches(blobs, FETCHES_PREFIX);
    await keepForecasts({ store, providers: [sample], cities: [tulsa], now: T0, serveDays: 730, fetched });
    expect((await blobs.list({ prefix: FETCHES_PREFIX })).blobs.map((b) => b.key)).toEqual([
      fetchKey('tulsa', 'pollenprov', T0 - 3 * HOUR_MS),
    ]);
    store.close();
  });
});
