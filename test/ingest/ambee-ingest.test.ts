import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayOf, HOUR_MS } from '../../src/domain/dates.js';
import { SqliteForecastCache } from '../../src/forecast/cache.js';
import { ForecastService } from '../../src/forecast/service.js';
import { parseIngestArgs } from '../../src/ingest/args.js';
import { ingestExitCode, runIngest } from '../../src/ingest/run.js';
import { createProviders } from '../../src/providers/registry.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { sink } from '../helpers/sink.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'ambee-v3-key-5d2e';
const NOW = Date.parse('2026-03-10T06:30:00Z');
const TODAY = dayOf(NOW);
const CITIES = 'austin,honolulu,scranton';
let replay: ReplayServer;
beforeAll(async () => (replay = await startReplayServer(KEY)));
afterAll(async () => replay.close());
beforeEach(() => {
  replay.options = { now: () => NOW };
  replay.fault = () => undefined;
  replay.served.length = 0;
});

/** `ingest --provider ambee --weather sample --json ...` in this process, on the replay server's clock. */
async function ambeeIngest(db: string, args: Record<string, string> = {}, env: Record<string, string> = {}) {
  const environment = { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url, HTTP_RETRIES: '0', ...env };
  const parsed = parseIngestArgs({ provider: 'ambee', weather: 'sample', days: '3', cities: CITIES, db, ...args }, TODAY, db, environment);
  const [out, log] = [sink(), sink()];
  const summary = await runIngest(parsed, log.stream, out.stream, { json: true, env: environment, now: () => NOW });
  return { summary: summary!, json: JSON.parse(out.text()) as Record<string, any>, code: ingestExitCode(summary) };
}
const asked = () => replay.served.filter((s) => s.url.startsWith('/v3/pollen/history')).map((s) => new URL(s.url, 'http://x').searchParams);

describe('ingest from Ambee v3 (loopback, recorded format, 48-hour window)', () => {
  it('--days 3 exits 0, writes yesterday whole with species exactly as sent, and never asks before the window', async () => {
    const db = join(tempDir(), 'ambee.db');
    const { json, code } = await ambeeIngest(db);
    expect(code).toBe(0);
    expect(Object.keys(json)).toEqual(['counts', 'failed', 'stopped', 'providers']);
    // Ambee's requests: one history request per city (its 48 hours, two days), each of its days given.
    expect(json.providers).toEqual({ ambee: { cityDays: json.counts.complete + json.counts.partial - 3 * 3, calls: 3 } });
    // Per city: yesterday complete (or partial where the model leaves an hour out), the day
    // before partial (its first hours have left the window), the day before that outside it.
    expect(json.counts.outside_window).toBe(3);
    expect(json.counts.complete + json.counts.partial + json.counts.empty).toBe(3 * 2 + 3 * 3); // pollen, and sample weather of 3 days
    expect(json).toMatchObject({ failed: [], stopped: {} });
    for (const q of asked()) expect(Date.parse(`${q.get('from')!.replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(NOW - 48 * HOUR_MS);
    // One history request a city, and the forecast the build keeps of each.
    expect(asked()).toHaveLength(3);
    expect(replay.served.filter((s) => s.url.startsWith('/v3/'))).toHaveLength(6);

    const store = openStore(db, { readonly: true });
    const sample = new SampleProvider();
    for (const slug of CITIES.split(',')) {
      const sent = await sample.pollenHistory(DEFAULT_CITIES.get(slug)!, { from: (TODAY - 1) * 24, to: TODAY * 24 });
      const stored = store.pollen.hours(slug, (TODAY - 1) * 24, TODAY * 24);
      expect(stored.map((h) => h.hour * HOUR_MS)).toEqual(sent.hours.map((h) => h.time));
      expect(stored.map((h) => JSON.stringify(h.species))).toEqual(sent.hours.map((h) => JSON.stringify(h.species)));
      expect(stored[0]).toMatchObject({ source: 'ambee', timezone: DEFAULT_CITIES.get(slug)!.timezone });
      // The model has a rare day without data (honolulu here): asked, and empty.
      const inside = await sample.pollenHistory(DEFAULT_CITIES.get(slug)!, { from: (TODAY - 2) * 24 + 7, to: (TODAY - 1) * 24 });
      expect(store.pollen.statuses(slug, TODAY - 2, TODAY - 2).get(TODAY - 2)).toBe(inside.hours.length > 0 ? 'partial' : 'empty');
    }
    store.close();
  });

  it("defers the rest after a 422, with every city's newest days stored first (exit 0)", async () => {
    const db = join(tempDir(), 'quota.db');
    replay.options = { now: () => NOW, ambeeHistoryHours: 24 * 6 };
    let calls = 0;
    replay.fault = (url) => (url.pathname.startsWith('/v3/') && ++calls > 3 ? '422' : undefined);
    const { json, code } = await ambeeIngest(db, { days: '6' }, { AMBEE_HISTORY_HOURS: String(24 * 6), HTTP_CONCURRENCY: '1' });
    expect(code).toBe(0);
    expect(json.failed).toEqual([]);
    expect(json.stopped.ambee).toMatch(/HTTP 422/);
    expect(json.counts.deferred).toBeGreaterThan(0);
    const store = openStore(db, { readonly: true });
    for (const slug of CITIES.split(',')) {
      const pollen = store.pollen.statuses(slug, TODAY - 6, TODAY - 1);
      expect(pollen.has(TODAY - 1) && pollen.has(TODAY - 2), slug).toBe(true);
      expect(pollen.has(TODAY - 3), slug).toBe(false);
    }
    store.close();
  });

  it('writes nothing from a 206 (the quota ran out mid-answer) and defers', async () => {
    const db = join(tempDir(), 'partial.db');
    replay.fault = (url) => (url.pathname.startsWith('/v3/') ? '206' : undefined);
    const { json, code } = await ambeeIngest(db);
    expect(code).toBe(0);
    expect(json.counts.deferred).toBe(6);
    const store = openStore(db, { readonly: true });
    expect(store.checks.counts()).toMatchObject({ pollen_day: 0, hours: 0 });
    store.close();
  });

  it('stores a city Ambee has no data for (404) as empty, not failed', async () => {
    const db = join(tempDir(), 'uncovered.db');
    replay.options = { now: () => NOW, notCovered: ['honolulu'] };
    const { json, code } = await ambeeIngest(db);
    expect(code).toBe(0);
    expect(json.failed).toEqual([]);
    expect(json.counts.empty).toBe(2);
    const store = openStore(db, { readonly: true });
    expect([...store.pollen.statuses('honolulu', TODAY - 3, TODAY).values()]).toEqual(['empty', 'empty']);
    store.close();
  });

  it('refreshes the forecast from the v3 shape', async () => {
    const cache = openStore(join(tempDir(), 'cache.db'));
    const { chain } = createProviders({
      pollen: 'ambee',
      weather: 'sample',
      env: { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url, HTTP_RETRIES: '0' },
    });
    const service = new ForecastService({ providers: chain, cache: new SqliteForecastCache(cache), dailyBudget: null, now: () => NOW });
    const forecast = await service.get(DEFAULT_CITIES.get('tulsa')!);
    expect(forecast).toMatchObject({ city: 'tulsa', source: 'ambee', stale: false });
    expect(forecast.hours.length).toBeGreaterThanOrEqual(46);
    expect(forecast.hours[0]!.hour).toBe(Math.floor(NOW / HOUR_MS));
    expect(forecast.timezone).toBe('America/Chicago');
    cache.close();
  });
});

describe('ingest exit codes and --json (the CLI, real clock)', () => {
  it('prints {counts, failed, stopped} on stdout and exits 0 when nothing failed', async () => {
    replay.options = {};
    const db = join(tempDir(), 'cli.db');
    const run = await runCli(
      ['ingest', '--provider', 'ambee', '--weather', 'sample', '--days', '3', '--cities', 'austin', '--json', '--db', db],
      { env: { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url } },
    );
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, any>;
    expect(Object.keys(json.counts)).toEqual(['complete', 'partial', 'empty', 'deferred', 'outside_window', 'failed']);
    // Of the 3 days, the oldest is always before Ambee's 48 hours; the next one too in the last
    // hour of a UTC day (the window's first whole hour is then the next midnight): the real clock.
    expect([1, 2]).toContain(json.counts.outside_window);
    // The pollen days inside the window, and the sample's 3 weather days.
    expect(json.counts.complete + json.counts.partial + json.counts.empty).toBe(3 - json.counts.outside_window + 3);
    expect(run.stderr).toMatch(/ingest: 100%/);
  });

  it('exits 1 naming every failed city-day, and never shows the key', async () => {
    replay.options = {};
    const db = join(tempDir(), 'refused.db');
    const run = await runCli(
      ['ingest', '--provider', 'ambee', '--weather', 'sample', '--days', '3', '--cities', 'austin,tulsa', '--json', '--db', db],
      { env: { AMBEE_API_KEY: 'wrong-key-123', AMBEE_BASE_URL: replay.url } },
    );
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { failed: Array<Record<string, string>>; counts: Record<string, number> };
    // Every day inside the window failed, for both cities (1 or 2 of the 3 are outside it: see above).
    const inside = 3 - json.counts.outside_window! / 2;
    expect([1, 2]).toContain(inside);
    expect(json.failed.map((f) => `${f.city} ${f.data} ${f.failure}`).sort()).toEqual([
      ...Array(inside).fill('austin pollen unauthorized'),
      ...Array(inside).fill('tulsa pollen unauthorized'),
    ]);
    expect(json.failed[0]).toEqual({
      city: expect.any(String),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      data: 'pollen',
      failure: 'unauthorized',
      message: expect.stringContaining('HTTP 401'),
    });
    expect(run.stdout + run.stderr).not.toContain('wrong-key-123');
  });

  it.each([
    [['--provider', 'ambee', '--days', '3'], { AMBEE_API_KEY: '' }, /AMBEE_API_KEY is not set/],
    [['--provider', 'ambee', '--days', '3'], { AMBEE_API_KEY: 'k', AMBEE_HISTORY_HOURS: '0' }, /AMBEE_HISTORY_HOURS must be at least 1/],
    [
      ['--provider', 'ambee', '--days', '3'],
      { AMBEE_API_KEY: 'k', AMBEE_HISTORY_HOURS: 'two days' },
      /AMBEE_HISTORY_HOURS must be a whole number/,
    ],
  ])('exits 2 for %j with %j, writing nothing', async (args, env, message) => {
    const db = join(tempDir(), 'bad.db');
    const run = await runCli(['ingest', ...args, '--db', db], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
