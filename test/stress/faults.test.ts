import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { HOUR_MS } from '../../src/domain/dates.js';
import { normalizeHour } from '../../src/domain/hours.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { serve } from '../../src/server/server.js';
import { openStore } from '../../src/store/store.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { type Fault, type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { tempDir } from '../helpers/tmp.js';
import { count } from './counters.js';

const KEY = 'fault-test-key';
const CITIES = ['austin', 'anchorage', 'richmond', 'tulsa', 'boise', 'miami'];
const ARGS = ['--from', '2025-03-01', '--to', '2025-04-30', '--cities', CITIES.join(','), '--weather', 'open-meteo'];
const RETRYABLE: Fault[] = ['timeout', 'reset', '5xx', 'truncated', '429'];
// A plan whose history reaches back to these fixed dates (the free plan serves 48 hours).
const HISTORY_HOURS = 24 * 4000;

let replay: ReplayServer;
beforeAll(async () => (replay = await startReplayServer(KEY, { ambeeHistoryHours: HISTORY_HOURS })));
afterAll(async () => replay.close());

/** A reproducible stream of faults: about a third of requests meet one. */
function seeded(seed: number, kinds: Fault[], share: number): () => Fault | undefined {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return () => (next() < share ? kinds[Math.floor(next() * kinds.length)] : undefined);
}

const env = (extra: Record<string, string> = {}) => ({
  AMBEE_API_KEY: KEY,
  AMBEE_BASE_URL: replay.url,
  AMBEE_HISTORY_HOURS: String(HISTORY_HOURS),
  OPEN_METEO_ARCHIVE_URL: replay.url,
  OPEN_METEO_AIR_QUALITY_URL: replay.url,
  HTTP_RETRIES: '2',
  HTTP_TIMEOUT_MS: '400',
  AMBEE_DAILY_BUDGET: '1000',
  ...extra,
});

describe('provider faults during ingest', () => {
  it('retries what is retryable, writes nothing from a bad payload, and converges once the faults stop', async () => {
    const dir = tempDir();
    const [db, reference] = [join(dir, 'faulty.db'), join(dir, 'reference.db')];
    expect((await runCli(['ingest', ...ARGS, '--weather', 'sample', '--db', reference])).code).toBe(0);

    replay.served.length = 0;
    const faults = seeded(7, [...RETRYABLE, 'malformed'], 0.35);
    replay.fault = () => faults();
    const run = await runCli(['ingest', '--provider', 'ambee', ...ARGS, '--json', '--db', db], { env: env() });
    replay.fault = () => undefined;
    const injected = replay.served.filter((s) => s.fault).length;
    count({ faults: injected, requests: replay.served.length });
    expect(injected).toBeGreaterThan(20);

    // Each request URL was tried at most retries + 1 times, and never again after a bad payload.
    // An answer the client gave up on before it was written whole (a slow machine) is a timeout to it, as an injected one is.
    const byUrl = new Map<string, Array<Fault | undefined>>();
    for (const s of replay.served) byUrl.set(s.url, [...(byUrl.get(s.url) ?? []), s.fault ?? (s.gone ? 'timeout' : undefined)]);
    for (const [url, outcomes] of byUrl) {
      expect(outcomes.length, url).toBeLessThanOrEqual(3);
      const bad = outcomes.indexOf('malformed');
      if (bad >= 0) expect(outcomes.length, url).toBe(bad + 1);
      for (const [i, o] of outcomes.entries()) if (i < outcomes.length - 1) expect(o, `${url} was retried after ${o}`).toBeDefined();
    }

    // What was written is exactly what the provider meant; what failed is named.
    const [a, ref] = [openStore(db), openStore(reference, { readonly: true })];
    expect(a.checks.integrity()).toBe('ok');
    for (const city of CITIES) {
      const strip = (hs: ReturnType<typeof a.pollen.hours>) => hs.map(({ source: _s, ...h }) => h);
      const stored = new Set(a.pollen.statuses(city, 0, 1e6).keys());
      const expected = strip(ref.pollen.hours(city, 0, 1e9)).filter((h) => stored.has(Math.floor(h.hour / 24)));
      expect(strip(a.pollen.hours(city, 0, 1e9))).toEqual(expected);
    }
    // Every city-day of pollen and of weather ends with one status: stored (complete, partial or
    // empty), or named as failed; a throttle that outlasted the retries defers what is left.
    const { counts, failed } = JSON.parse(run.stdout) as { counts: Record<string, number>; failed: unknown[] };
    expect(failed).toHaveLength(counts.failed!);
    expect(counts.complete! + counts.partial! + counts.empty!).toBe(a.checks.counts().pollen_day! + a.checks.counts().weather_day!);
    expect(Object.values(counts).reduce((x, y) => x + y, 0)).toBe(2 * CITIES.length * 61);
    a.close();

    expect((await runCli(['ingest', '--provider', 'ambee', ...ARGS, '--db', db], { env: env() })).code).toBe(0);
    const b = openStore(db, { readonly: true });
    for (const city of CITIES)
      expect(b.pollen.hours(city, 0, 1e9).map((h) => h.tree)).toEqual(ref.pollen.hours(city, 0, 1e9).map((h) => h.tree));
    b.close();
    ref.close();
  });

  it('stops at a quota refusal and keeps within the daily budget', async () => {
    const dir = tempDir();
    replay.served.length = 0;
    const budgeted = await runCli(['ingest', '--provider', 'ambee', ...ARGS, '--db', join(dir, 'budget.db')], {
      env: env({ AMBEE_DAILY_BUDGET: '12', AMBEE_FORECAST_RESERVE: '4' }),
    });
    const ambeeCalls = replay.served.filter((s) => s.url.startsWith('/v3/')).length;
    expect(ambeeCalls).toBe(8);
    expect(budgeted.code).toBe(0); // deferred, not failed
    expect(budgeted.stdout).toMatch(/stopped calling ambee: ambee: daily budget spent: 8 of 12 calls used/);

    replay.served.length = 0;
    replay.fault = (url) => (url.pathname.startsWith('/v3/') ? '422' : undefined);
    const refused = await runCli(['ingest', '--provider', 'ambee', ...ARGS, '--db', join(dir, 'quota.db')], {
      env: env({ HTTP_RETRIES: '3' }),
    });
    replay.fault = () => undefined;
    const asked = replay.served.filter((s) => s.url.startsWith('/v3/')).length;
    count({ faults: asked, requests: replay.served.length });
    expect(asked).toBeLessThanOrEqual(4); // the requests already in flight when the first refusal came back
    expect(refused.code).toBe(0);
    expect(refused.stdout).toMatch(/stopped calling ambee: ambee: HTTP 422/);
  });
});

describe('provider faults during forecasts', () => {
  it('serves the stale cache through every kind of fault, and 503 with Retry-After where there is none', async () => {
    const dir = tempDir();
    // A store Ambee filled: its forecasts come from Ambee (POLLEN_PROVIDER unset).
    const db = join(dir, 'pollen.db');
    const filled = [
      'ingest',
      '--provider',
      'ambee',
      '--from',
      '2025-04-29',
      '--to',
      '2025-04-30',
      '--cities',
      'tulsa',
      '--weather',
      'sample',
    ];
    expect((await runCli([...filled, '--db', db], { env: env() })).code).toBe(0);
    const cacheDb = join(dir, 'forecast-cache.db');
    const cache = openStore(cacheDb);
    const now = Date.now();
    const batch = await new SampleProvider().pollenForecast(DEFAULT_CITIES.get('tulsa')!, now - 7 * HOUR_MS);
    const hours = batch.hours.map(normalizeHour);
    cache.forecasts.put('tulsa', { source: 'ambee', fetchedAt: now - 7 * HOUR_MS, timezone: batch.timezone, hours });
    cache.close();
    Object.assign(process.env, env({ POLLEN_DB: db, FORECAST_CACHE_DB: cacheDb, HTTP_RETRIES: '1', HTTP_TIMEOUT_MS: '300' }));
    const server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
    try {
      let injected = 0;
      for (const fault of [...RETRYABLE, 'malformed', '422'] as Fault[]) {
        replay.fault = (url) => {
          if (!url.pathname.includes('forecast')) return undefined;
          injected++;
          return fault;
        };
        const res = await fetch(`${server.url}/api/forecast?city=tulsa`);
        const body = (await res.json()) as { stale: boolean; source: string; quotaExhausted?: boolean; rows: unknown[] };
        expect(res.status, fault).toBe(200);
        expect(body, fault).toMatchObject({ source: 'cache', stale: true });
        expect(body.quotaExhausted, fault).toBe(fault === '429' || fault === '422' ? true : undefined);
        expect(body.rows.length, fault).toBeGreaterThan(30);
      }
      replay.fault = (url) => {
        if (!url.pathname.includes('forecast')) return undefined;
        injected++;
        return '5xx';
      };
      const none = await fetch(`${server.url}/api/forecast?city=miami`);
      expect(none.status).toBe(503);
      expect(none.headers.get('retry-after')).toBe('300');
      replay.fault = () => undefined;
      const fresh = (await (await fetch(`${server.url}/api/forecast?city=tulsa`)).json()) as { stale: boolean; source: string };
      expect(fresh).toMatchObject({ source: 'ambee', stale: false });
      count({ faults: injected, requests: 9 });
    } finally {
      await server.close();
    }
  });
});
