/**
 * The forecast over a chain of providers (POLLEN_PROVIDERS): each asked in turn, in their recorded
 * formats on loopback (Atmospore's days, Ambee's hours), each counted apart; and a daily provider's
 * fetch kept by the build as the days it forecast.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { boundedFetch } from '../../src/deploy-data/blobs-fetch.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { BlobsForecastCache, SqliteForecastCache } from '../../src/forecast/cache.js';
import { blobFetches, FETCHES_PREFIX, fetchKey } from '../../src/forecast/kept.js';
import { CallUncounted, ForecastService, ForecastUnavailable } from '../../src/forecast/service.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { createProviders, forecastBudget } from '../../src/providers/registry.js';
import { openStore } from '../../src/store/store.js';
import { atmosporeCategory } from '../helpers/atmospore.js';
import { type BlobsOutage, blobsBehindProxy } from '../helpers/blobs-outage.js';
import { useBlobsServer } from '../helpers/blobs-server.js';
import { fixture } from '../helpers/fixtures.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const ATMOSPORE_KEY = 'ak_chain-key-41f0aa';
const AMBEE_KEY = 'ambee-chain-key-93bd';
// Austin at 10:00 CDT on the first date of the Atmospore fixtures.
const NOW = Date.parse('2025-04-01T15:00:00Z');
const austin = DEFAULT_CITIES.get('austin')!;
const QUOTA = { status: 429, body: { error: 'Daily API quota exceeded', limit: 100, used: 101, resets_at: '2025-04-02T00:00:00Z' } };

let atmospore: ScriptedServer;
let replay: ReplayServer;
beforeAll(async () => (replay = await startReplayServer(AMBEE_KEY, { now: () => NOW })));
afterAll(async () => replay.close());
beforeEach(async () => {
  atmospore = await scriptedServer();
  replay.served.length = 0;
});
afterEach(async () => {
  expect(atmospore.unexpected).toEqual([]);
  await atmospore.close();
});

const env = () => ({
  ATMOSPORE_API_KEY: ATMOSPORE_KEY,
  ATMOSPORE_BASE_URL: atmospore.url,
  AMBEE_API_KEY: AMBEE_KEY,
  AMBEE_BASE_URL: replay.url,
  HTTP_RETRIES: '0',
});
const chainOf = (pollen: string) => createProviders({ pollen, weather: 'sample', env: env() }).chain;
const pollenPath = (url: URL) => url.pathname === '/v1/pollen';
const ambeeForecasts = () => replay.served.filter((s) => s.url.startsWith('/v3/pollen/forecast')).length;
const noKey = (text: string) => {
  expect(text).not.toContain(ATMOSPORE_KEY);
  expect(text).not.toContain(AMBEE_KEY);
};

describe('the forecast over a chain of providers', () => {
  it("hands over to Ambee when Atmospore refuses for its quota: Ambee's hours served under its name, each provider counted apart", async () => {
    const store = openStore(join(tempDir(), 'cache.db'));
    const logged: string[] = [];
    const clock = { now: NOW };
    const service = new ForecastService({
      providers: chainOf('atmospore,ambee'),
      cache: new SqliteForecastCache(store),
      dailyBudget: (id) => forecastBudget(id, env()),
      now: () => clock.now,
      log: (m, e) => logged.push(`${m} ${String(e)}`),
    });
    atmospore.on(pollenPath, QUOTA);
    const forecast = await service.get(austin);
    expect(forecast).toMatchObject({ city: 'austin', source: 'ambee', provider: 'ambee', stale: false });
    expect(forecast.days).toBeUndefined();
    expect(forecast.hours.length).toBeGreaterThanOrEqual(46);
    expect(forecast.hours[0]!.hour).toBe(Math.floor(NOW / HOUR_MS));
    expect(atmospore.seen).toHaveLength(1);
    expect(ambeeForecasts()).toBe(1);
    expect(store.ledger.callsOn('atmospore', '2025-04-01')).toEqual({ ingest: 0, forecast: 1 });
    expect(store.ledger.callsOn('ambee', '2025-04-01')).toEqual({ ingest: 0, forecast: 1 });

    // Ambee's forecast is fresh for 6 hours: served from the cache, neither provider asked again.
    clock.now = NOW + HOUR_MS;
    expect(await service.get(austin)).toMatchObject({ source: 'cache', provider: 'ambee', stale: false });
    expect(atmospore.seen).toHaveLength(1);
    expect(ambeeForecasts()).toBe(1);
    noKey(JSON.stringify(forecast) + logged.join('\n'));
    store.close();
  });

  it("does not ask a provider whose budget is spent, and serves the next one's forecast", async () => {
    const store = openStore(join(tempDir(), 'cache.db'));
    const service = new ForecastService({
      providers: chainOf('atmospore,ambee'),
      cache: new SqliteForecastCache(store),
      dailyBudget: (id) => (id === 'atmospore' ? 0 : null),
      now: () => NOW,
    });
    expect(await service.get(austin)).toMatchObject({ source: 'ambee', provider: 'ambee', stale: false });
    expect(atmospore.seen).toHaveLength(0);
    expect(store.ledger.callsOn('atmospore', '2025-04-01').forecast).toBe(0);
    store.close();
  });

  it("serves the stale cache of the first provider that has one when every refresh fails, quotaExhausted from that provider's refusal", async () => {
    const store = openStore(join(tempDir(), 'cache.db'));
    const clock = { now: NOW };
    const service = new ForecastService({
      providers: chainOf('atmospore,ambee'),
      cache: new SqliteForecastCache(store),
      dailyBudget: null,
      now: () => clock.now,
    });
    atmospore.on(pollenPath, { status: 200, body: fixture('atmospore-austin.json') });
    expect(await service.get(austin)).toMatchObject({ source: 'atmospore', provider: 'atmospore' });
    clock.now = NOW + 7 * HOUR_MS;
    atmospore.on(pollenPath, QUOTA);
    replay.fault = () => '5xx';
    try {
      const stale = await service.get(austin);
      expect(stale).toMatchObject({
        source: 'cache',
        provider: 'atmospore',
        stale: true,
        quotaExhausted: true,
        fetchedAt: new Date(NOW).toISOString(),
      });
      expect(ambeeForecasts()).toBe(1);
    } finally {
      replay.fault = () => undefined;
    }
    store.close();
  });
});

describe('the forecast over a chain, its call ledger failing', () => {
  let outage: BlobsOutage;
  const scratch = mkdtempSync(join(tmpdir(), 'chain-outage-'));
  beforeAll(async () => (outage = await blobsBehindProxy(join(scratch, 'blobs'))));
  afterAll(async () => {
    await outage.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('asks no provider of the chain: a call one ledger cannot count, the next cannot either', async () => {
    const blobs = getStore({
      name: 'chain-outage',
      siteID: 'site',
      token: 'token',
      edgeURL: outage.url,
      fetch: boundedFetch(globalThis.fetch, { timeoutMs: 200, pauseMs: 0 }),
    });
    const service = new ForecastService({
      providers: chainOf('atmospore,ambee'),
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => NOW,
      log: () => {},
    });
    outage.fault('fail', /\/calls\/|prefix=calls/);
    const error = await service.get(austin).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForecastUnavailable);
    expect((error as ForecastUnavailable).failure).toBeInstanceOf(CallUncounted);
    expect(atmospore.seen).toHaveLength(0);
    expect(ambeeForecasts()).toBe(0);
    await outage.up();
  });
});

describe("a daily provider's forecast fetched by the function", () => {
  const blobsServer = useBlobsServer('chain-kept-');

  it("is cached with its dates and kept by the next build as the days it forecast, with their leads, apart from another provider's fetch of the same instant", async () => {
    const blobs = getStore({ name: 'chain-kept', siteID: 'site', token: 'tok', edgeURL: blobsServer.edgeURL });
    const [atmo, ambee] = chainOf('atmospore,ambee');
    atmospore.on(pollenPath, { status: 200, body: fixture('atmospore-austin.json') });
    const daily = await new ForecastService({
      providers: [atmo!],
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => NOW,
    }).get(austin);
    expect(daily).toMatchObject({ source: 'atmospore', provider: 'atmospore', hours: [] });
    expect(daily.days).toHaveLength(14);
    // Ambee's forecast of the same instant keeps its own blob.
    await new ForecastService({ providers: [ambee!], cache: new BlobsForecastCache(blobs), dailyBudget: null, now: () => NOW }).get(austin);
    const keys = (await blobs.list({ prefix: FETCHES_PREFIX })).blobs.map((b) => b.key).sort();
    expect(keys).toEqual([fetchKey('austin', 'ambee', NOW), fetchKey('austin', 'atmospore', NOW)]);

    const store = openStore(await buildStore(tempDir(), ['austin'], { from: dayNumber('2025-03-20'), to: dayNumber('2025-03-31') }));
    const kept = await keepForecasts({
      store,
      providers: [atmo!, ambee!],
      cities: [austin],
      now: NOW + HOUR_MS,
      serveDays: 730,
      fetched: blobFetches(blobs, FETCHES_PREFIX),
      take: new Set(),
    });
    expect(kept.fromFunction).toBe(2);
    const issued = store.issued.since('austin', 0).filter((f) => f.issuedAt === NOW);
    const atmoKept = issued.find((f) => f.source === 'atmospore')!;
    expect(atmoKept.origin).toBe('function');
    expect(atmoKept.days.map((d) => [d.day, d.lead, d.hours])).toEqual(
      Array.from({ length: 14 }, (_, i) => [dayNumber('2025-04-01') + i, i, 0]),
    );
    // The build keeps each date's value as it keeps a forecast it takes itself: the tree level of the fixture's first date.
    const first = (fixture('atmospore-austin.json').data as Array<{ species: Record<string, { value: number; category: string }> }>)[0]!;
    const tree = atmosporeCategory(first, 'tree');
    expect(atmoKept.days[0]!.levels.tree?.value).toBeCloseTo(tree, 3);
    expect(issued.find((f) => f.source === 'ambee')!.days.every((d) => d.hours > 0)).toBe(true);
    store.close();
  });
});
