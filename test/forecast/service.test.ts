import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch } from '../../src/deploy-data/blobs-fetch.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { isoHour } from '../../src/domain/dates.js';
import { normalizeHour } from '../../src/domain/hours.js';
import { BlobsForecastCache, type ForecastCache, SqliteForecastCache } from '../../src/forecast/cache.js';
import { CACHE_LIMIT_MS, CallUncounted, ForecastService, ForecastUnavailable } from '../../src/forecast/service.js';
import { type PollenBatch, type PollenProvider, ProviderError } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { type BlobsOutage, blobsBehindProxy } from '../helpers/blobs-outage.js';

const T0 = Date.parse('2026-05-01T10:20:00Z');
const HOUR = 3_600_000;
const sample = new SampleProvider();

type Behaviour = 'ok' | 'timeout' | '5xx' | '429' | 'malformed' | 'short';

/** A provider whose next answers are scripted: the sample forecast, or one of the failures real ones have. */
function scripted() {
  const state = { calls: 0, next: 'ok' as Behaviour };
  const provider: PollenProvider = {
    id: 'pollenprov',
    resolution: 'hourly',
    maxDaysPerCall: 1,
    coverage: (now) => sample.coverage(now),
    pollenHistory: () => Promise.reject(new Error('not used')),
    async pollenForecast(city, now, signal): Promise<PollenBatch> {
      state.calls++;
      switch (state.next) {
        case 'ok':
          return sample.pollenForecast(city, now);
        case 'timeout':
          return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
        case '5xx':
          throw new ProviderError('pollenprov', 'unavailable', 'HTTP 502');
        case '429':
          throw new ProviderError('pollenprov', 'quota', 'HTTP 429', { retryAfterSeconds: 3600 });
        case 'malformed':
          throw new ProviderError('pollenprov', 'bad_payload', 'invalid JSON');
        case 'short': {
          // A well-formed answer that stops after 12 hours: not a forecast to cache.
          const full = await sample.pollenForecast(city, now);
          return { ...full, hours: full.hours.slice(0, 12) };
        }
      }
    },
  };
  return { state, provider };
}

/** Each cache implementation runs the same transitions. */
const scratch = mkdtempSync(join(tmpdir(), 'forecast-test-'));
let made = 0;
const caches: Array<[string, () => Promise<ForecastCache>]> = [
  ['SQLite', async () => new SqliteForecastCache(openStore(join(scratch, `cache-${made++}.db`)))],
  [
    'Netlify Blobs',
    async () => new BlobsForecastCache(getStore({ name: `forecast-${Math.random()}`, siteID: 'site', token: 'token', edgeURL: blobsUrl })),
  ],
];

let blobsServer: BlobsServer;
let blobsUrl = '';
beforeAll(async () => {
  blobsServer = new BlobsServer({ directory: join(scratch, 'blobs'), token: 'token', logger: () => {} });
  const { port } = await blobsServer.start();
  blobsUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await blobsServer.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe.each(caches)('forecast with a %s cache', (_name, makeCache) => {
  const setup = async (dailyBudget: number | null = null) => {
    const clock = { now: T0 };
    const { state, provider } = scripted();
    const service = new ForecastService({
      providers: [provider],
      cache: await makeCache(),
      dailyBudget,
      now: () => clock.now,
      timeoutMs: 50,
    });
    return { clock, state, service };
  };

  it('refreshes a cold city, then serves the cache until it is 6 hours old', async () => {
    const { clock, state, service } = await setup();
    const first = await service.get(DEFAULT_CITIES.get('austin')!);
    expect(first).toMatchObject({ city: 'austin', source: 'pollenprov', stale: false, fetchedAt: '2026-05-01T10:20:00.000Z' });
    expect(first.hours).toHaveLength(48);
    expect(isoHour(first.hours[0]!.hour)).toBe('2026-05-01T10:00:00.000Z');
    expect(first.timezone).toBe('America/Chicago');
    expect(first).not.toHaveProperty('quotaExhausted');

    clock.now = T0 + 2 * HOUR;
    const cached = await service.get(DEFAULT_CITIES.get('austin')!);
    expect(cached).toMatchObject({ source: 'cache', stale: false, fetchedAt: '2026-05-01T10:20:00.000Z' });
    expect(isoHour(cached.hours[0]!.hour)).toBe('2026-05-01T12:00:00.000Z'); // trimmed to hours not yet past
    expect(cached.hours).toHaveLength(46);
    expect(state.calls).toBe(1);

    clock.now = T0 + CACHE_LIMIT_MS;
    expect((await service.get(DEFAULT_CITIES.get('austin')!)).source).toBe('pollenprov');
    expect(state.calls).toBe(2);
  });

  it.each<[Behaviour, boolean]>([
    ['timeout', false],
    ['5xx', false],
    ['malformed', false],
    ['short', false],
    ['429', true],
  ])('serves the stale cache when a refresh meets %s (quotaExhausted: %s), then recovers', async (behaviour, quota) => {
    const { clock, state, service } = await setup();
    await service.get(DEFAULT_CITIES.get('tulsa')!);
    clock.now = T0 + 7 * HOUR;
    state.next = behaviour;
    const stale = await service.get(DEFAULT_CITIES.get('tulsa')!);
    expect(stale).toMatchObject({ source: 'cache', stale: true, fetchedAt: '2026-05-01T10:20:00.000Z' });
    expect(stale.quotaExhausted).toBe(quota ? true : undefined);
    expect(isoHour(stale.hours[0]!.hour)).toBe('2026-05-01T17:00:00.000Z');

    state.next = 'ok';
    const fresh = await service.get(DEFAULT_CITIES.get('tulsa')!);
    expect(fresh).toMatchObject({ source: 'pollenprov', stale: false, fetchedAt: '2026-05-01T17:20:00.000Z' });
    expect(state.calls).toBe(3);
  });

  it('reads the cache alone for cached(): nothing before a refresh, then what get serves, stale after 6 hours, never a call', async () => {
    const { clock, state, service } = await setup();
    const austin = DEFAULT_CITIES.get('austin')!;
    expect(await service.cached(austin)).toBeUndefined();
    expect(state.calls).toBe(0);
    await service.get(austin);
    clock.now = T0 + 2 * HOUR;
    expect(await service.cached(austin)).toEqual(await service.get(austin));
    clock.now = T0 + 7 * HOUR;
    const stale = await service.cached(austin);
    expect(stale).toMatchObject({ source: 'cache', stale: true, fetchedAt: '2026-05-01T10:20:00.000Z' });
    expect(isoHour(stale!.hours[0]!.hour)).toBe('2026-05-01T17:00:00.000Z');
    expect(state.calls).toBe(1);
  });

  it('is unavailable, with a retry delay, when nothing is cached and the refresh fails', async () => {
    const { state, service } = await setup();
    state.next = '429';
    const error = await service.get(DEFAULT_CITIES.get('boise')!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForecastUnavailable);
    expect((error as ForecastUnavailable).retryAfterSeconds).toBe(3600);
    state.next = '5xx';
    expect(((await service.get(DEFAULT_CITIES.get('boise')!).catch((e: unknown) => e)) as ForecastUnavailable).retryAfterSeconds).toBe(300);
  });

  it('stops calling upstream once the daily budget is spent, like a quota refusal', async () => {
    const { clock, state, service } = await setup(2);
    await service.get(DEFAULT_CITIES.get('miami')!);
    await service.get(DEFAULT_CITIES.get('dallas')!);
    clock.now = T0 + 7 * HOUR;
    const blocked = await service.get(DEFAULT_CITIES.get('miami')!);
    expect(blocked).toMatchObject({ source: 'cache', stale: true, quotaExhausted: true });
    expect(state.calls).toBe(2);
  });

  it("never serves another provider's entry, fresh or stale: it refreshes over it, and a failed refresh has nothing to fall back on", async () => {
    const cache = await makeCache();
    const austin = DEFAULT_CITIES.get('austin')!;
    const theirs = await sample.pollenForecast(austin, T0);
    await cache.write('austin', { source: 'sample', fetchedAt: T0, timezone: theirs.timezone, hours: theirs.hours.map(normalizeHour) });
    const { state, provider } = scripted();
    const service = new ForecastService({ providers: [provider], cache, dailyBudget: null, now: () => T0 + HOUR, timeoutMs: 50 });
    state.next = '5xx';
    expect(await service.get(austin).catch((e: unknown) => e)).toBeInstanceOf(ForecastUnavailable);
    state.next = 'ok';
    expect(await service.get(austin)).toMatchObject({ source: 'pollenprov', stale: false });
    expect((await cache.read('pollenprov', 'austin'))?.source).toBe('pollenprov');
    expect(state.calls).toBe(2);
  });

  it('makes exactly one upstream call for 100 concurrent requests for a cold city', async () => {
    const { state, service } = await setup();
    const answers = await Promise.all(Array.from({ length: 100 }, () => service.get(DEFAULT_CITIES.get('wichita')!)));
    expect(state.calls).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });
});

describe('the call counter in Netlify Blobs', () => {
  it('counts both of two instances that read the same ETag and write at once: the loser retries', async () => {
    const blobs = getStore({ name: `counter-${Math.random()}`, siteID: 'site', token: 'token', edgeURL: blobsUrl });
    // Both instances read before either writes, and the writes reach the server one after the
    // other (the local BlobsServer checks and writes in separate steps): the second write carries
    // a stale ETag and must lose.
    let reads = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    let writing = Promise.resolve();
    const gated = new Proxy(blobs, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'list') {
          return async (...args: Parameters<typeof blobs.list>) => {
            const result = await (value as (...a: typeof args) => ReturnType<typeof blobs.list>).apply(target, args);
            if (++reads === 2) release();
            await bothRead;
            return result;
          };
        }
        if (prop === 'setJSON') {
          return (...args: Parameters<typeof blobs.setJSON>) => {
            const write = writing.then(() => (value as typeof blobs.setJSON).apply(target, args));
            writing = write.then(() => undefined);
            return write;
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await blobs.setJSON('calls/ambee/2026-05-01', 5);
    const [a, b] = [new BlobsForecastCache(gated), new BlobsForecastCache(gated)];
    await Promise.all([a.countCall('ambee', '2026-05-01'), b.countCall('ambee', '2026-05-01')]);
    expect(reads).toBe(3); // the loser read again
    expect(await a.callsOn('ambee', '2026-05-01')).toBe(7);

    const fresh = new BlobsForecastCache(blobs);
    for (let i = 0; i < 3; i++) await fresh.countCall('ambee', '2026-05-02');
    expect(await fresh.callsOn('ambee', '2026-05-02')).toBe(3); // onlyIfNew for the first, onlyIfMatch after
  });
});

describe('a forecast cache in Netlify Blobs that fails or hangs', () => {
  let outage: BlobsOutage;
  let stores = 0;
  beforeAll(async () => {
    outage = await blobsBehindProxy(join(scratch, 'outage'));
  });
  afterAll(() => outage.close());
  afterEach(() => outage.up());

  /**
   * A service over a cache of its own behind the proxy, its Blobs requests bounded as the functions' are
   * (a short timeout: a held request never answers). `pauseMs: 0` where only some keys fail: the
   * functions' pause would fail the others too.
   */
  const over = (dailyBudget: number | null, { pauseMs }: { pauseMs?: number } = {}) => {
    const clock = { now: T0 };
    const { state, provider } = scripted();
    const logged: string[] = [];
    const blobs = getStore({
      name: `outage-${stores++}`,
      siteID: 'site',
      token: 'token',
      edgeURL: outage.url,
      fetch: boundedFetch(globalThis.fetch, { timeoutMs: 200, pauseMs }),
    });
    const cache = new BlobsForecastCache(blobs);
    const service = new ForecastService({ providers: [provider], cache, dailyBudget, now: () => clock.now, log: (m) => logged.push(m) });
    return { state, logged, service, clock };
  };

  it.each([
    ['answering 502', 'fail'],
    ['not answering', 'hang'],
  ] as const)(
    '%s, makes no upstream call it cannot count: ten requests, none cached, are each unavailable, whatever the budget',
    async (_name, kind) => {
      for (const budget of [2, null]) {
        const { state, logged, service } = over(budget);
        outage.fault(kind);
        for (let i = 0; i < 10; i++) {
          const error = await service.get(DEFAULT_CITIES.get('denver')!).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ForecastUnavailable);
          expect((error as ForecastUnavailable).failure).toBeInstanceOf(CallUncounted);
          expect((error as ForecastUnavailable).retryAfterSeconds).toBe(300);
        }
        expect(state.calls, `budget ${budget}`).toBe(0);
        expect(logged.filter((m) => m === 'forecast call count failed')).toHaveLength(10);
        await outage.up();
      }
    },
  );

  it.each([
    ['answering 502', 'fail'],
    ['not answering', 'hang'],
  ] as const)(
    'its call counter %s, serves the stale cache rather than call uncounted, and calls again once it counts',
    async (_name, kind) => {
      const { state, service, clock } = over(2, { pauseMs: 0 });
      const city = DEFAULT_CITIES.get('seattle')!;
      expect(await service.get(city)).toMatchObject({ source: 'pollenprov', stale: false });
      clock.now = T0 + 7 * HOUR;
      outage.fault(kind, /\/calls\/|prefix=calls/);
      for (let i = 0; i < 3; i++) {
        const stale = await service.get(city);
        expect(stale).toMatchObject({ source: 'cache', stale: true, fetchedAt: new Date(T0).toISOString() });
        expect(stale.quotaExhausted).toBeUndefined();
      }
      expect(state.calls).toBe(1);
      await outage.up();
      expect(await service.get(city)).toMatchObject({ source: 'pollenprov', stale: false });
      expect(state.calls).toBe(2);
    },
  );

  it('its entries failing but its counter not, makes the counted refresh: a failed read counts as no cache, failed writes are reported', async () => {
    const { state, logged, service } = over(10, { pauseMs: 0 });
    outage.fault('fail', /forecast-hours|forecast-issued/);
    expect(await service.get(DEFAULT_CITIES.get('austin')!)).toMatchObject({ source: 'pollenprov', stale: false });
    expect(state.calls).toBe(1);
    expect(logged).toEqual(['forecast cache read failed', 'forecast cache write failed', 'forecast keep failed']);
  });
});

describe("a deploy of another provider sharing the site's Blobs", () => {
  const austin = DEFAULT_CITIES.get('austin')!;
  const shared = () => getStore({ name: `shared-${Math.random()}`, siteID: 'site', token: 'token', edgeURL: blobsUrl });

  it("neither overwrites the site's cached forecast nor makes it call again", async () => {
    const blobs = shared();
    const clock = { now: T0 };
    const { state, provider } = scripted();
    const site = new ForecastService({
      providers: [provider],
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => clock.now,
      timeoutMs: 50,
    });
    const preview = new ForecastService({
      providers: [sample],
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => clock.now,
    });
    await site.get(austin);
    clock.now = T0 + HOUR;
    expect(await preview.get(austin)).toMatchObject({ source: 'sample', stale: false });
    clock.now = T0 + 2 * HOUR;
    expect(await site.get(austin)).toMatchObject({ source: 'cache', stale: false, fetchedAt: '2026-05-01T10:20:00.000Z' });
    expect(await preview.get(austin)).toMatchObject({ source: 'cache', stale: false, fetchedAt: '2026-05-01T11:20:00.000Z' });
    expect(state.calls).toBe(1);
  });

  it("never reads a city's entry of the layout without the provider, and deletes it when the city's entry is written", async () => {
    const blobs = shared();
    const theirs = await sample.pollenForecast(austin, T0);
    await blobs.setJSON('forecast-hours/austin', {
      source: 'pollenprov',
      fetchedAt: T0,
      timezone: theirs.timezone,
      hours: theirs.hours.map(normalizeHour),
    });
    const { state, provider } = scripted();
    const service = new ForecastService({
      providers: [provider],
      cache: new BlobsForecastCache(blobs),
      dailyBudget: null,
      now: () => T0 + HOUR,
      timeoutMs: 50,
    });
    expect(await service.get(austin)).toMatchObject({ source: 'pollenprov', stale: false });
    expect(state.calls).toBe(1);
    expect((await blobs.list({ prefix: 'forecast-hours/' })).blobs.map((b) => b.key)).toEqual(['forecast-hours/pollenprov/austin']);
  });
});
