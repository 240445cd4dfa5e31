import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { doctor, formatDoctor } from '../../src/providers/doctor.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'doctor-key-71c0';
const NOW = Date.parse('2026-03-10T06:30:00Z');
let replay: ReplayServer;
beforeAll(async () => (replay = await startReplayServer(KEY)));
afterAll(async () => replay.close());
beforeEach(() => {
  replay.options = { now: () => NOW };
  replay.served.length = 0;
});
const env = (extra: Record<string, string> = {}) => ({
  AMBEE_API_KEY: KEY,
  AMBEE_BASE_URL: replay.url,
  OPEN_METEO_ARCHIVE_URL: replay.url,
  OPEN_METEO_AIR_QUALITY_URL: replay.url,
  HTTP_RETRIES: '0',
  ...extra,
});

async function check(extra: Record<string, string> = {}, cities?: number) {
  const store = openStore(join(tempDir(), 'doctor.db'));
  const checks = await doctor({
    store,
    city: DEFAULT_CITIES.get('wichita')!,
    cities,
    pollen: 'ambee',
    weather: 'open-meteo',
    env: env(extra),
    now: () => NOW,
  });
  const calls = store.ledger.callsOn('ambee', '2026-03-10');
  store.close();
  return { checks, calls, text: formatDoctor(checks, NOW) };
}
const facts = (c: { facts: Array<[string, string]> }) => Object.fromEntries(c.facts);

describe('doctor', () => {
  it('checks each provider with at most three requests, counted as ingest, and reports what it saw', async () => {
    const { checks, calls, text } = await check();
    const sent = (await new SampleProvider().pollenForecast(DEFAULT_CITIES.get('wichita')!, NOW)).hours.length; // the model leaves an hour out now and then
    const [ambee, weather] = checks;
    expect(ambee).toMatchObject({ provider: 'ambee', data: 'pollen', reachable: true, authorized: true, usable: true });
    expect(facts(ambee!)).toMatchObject({
      'item fields': 'Count, Risk, Species, timestamp, unixTs',
      species: 'Grass, Others, Tree, Weed',
      window: 'confirmed: 48 hours (an hour before it is refused as outside the window)',
      forecast: `${sent} hours (${sent} from the current hour)`,
      budget: '57 calls left today for ingest (after this check)',
    });
    expect(weather).toMatchObject({ provider: 'open-meteo', usable: true });
    expect(facts(weather!).history).toMatch(/^2026-03-09 for wichita: .*temp_day_c.*aqi/);
    expect(calls).toEqual({ ingest: 3, forecast: 0 });
    const byProvider = (prefix: string) => replay.served.filter((s) => s.url.startsWith(prefix)).length;
    expect(byProvider('/v3/')).toBe(3);
    expect(byProvider('/v1/')).toBeLessThanOrEqual(3);
    expect(text).toContain('ambee (pollen): usable');
    expect(text).not.toContain(KEY);
  });

  it.each([
    [30, {}, undefined, undefined],
    [
      31,
      {},
      '31 cities need 62 ambee calls a day, but its budget leaves ingest 60 (100 a day less 40 kept for forecasts): about 30 cities fit, the rest will be deferred',
      undefined,
    ],
    [200, { AMBEE_DAILY_BUDGET: '1000' }, undefined, undefined],
    [
      200,
      { AMBEE_DAILY_BUDGET: '1000', OPEN_METEO_DAILY_BUDGET: '300' },
      undefined,
      '200 cities need 400 open-meteo calls a day, but its budget leaves ingest 300 (300 a day less 0 kept for forecasts): about 150 cities fit, the rest will be deferred',
    ],
  ])('warns when %i cities a day exceed a budget less the forecast reserve (%j)', async (cities, extra, ambee, openMeteo) => {
    const { checks } = await check(extra, cities);
    expect(facts(checks[0]!).warning).toBe(ambee);
    expect(facts(checks[1]!).warning).toBe(openMeteo);
  });

  it('says when the plan serves more history than configured', async () => {
    replay.options = { now: () => NOW, ambeeHistoryHours: 96 };
    const { checks } = await check();
    expect(facts(checks[0]!).window).toMatch(
      /^wider than the 48 hours configured: .* answered 1 hours \(raise AMBEE_HISTORY_HOURS to use them\)$/,
    );
  });

  it('finds a key that is refused: reachable, not authorized, not usable, and asks nothing more', async () => {
    const { checks, text } = await check({ AMBEE_API_KEY: 'not-the-key-9' });
    expect(checks[0]).toMatchObject({ reachable: true, authorized: false, usable: false });
    expect(replay.served.filter((s) => s.url.startsWith('/v3/'))).toHaveLength(1);
    expect(text).toContain('ambee (pollen): NOT USABLE');
    expect(text).not.toContain('not-the-key-9');
  });

  it('finds a provider it cannot reach', async () => {
    const { checks } = await check({ AMBEE_BASE_URL: 'http://127.0.0.1:9', HTTP_TIMEOUT_MS: '500' });
    expect(checks[0]).toMatchObject({ reachable: false, usable: false });
  });
});

describe('pollen-api doctor (the CLI)', () => {
  it('exits 0 when every configured provider is usable, and 1 when one is not', async () => {
    replay.options = {};
    const db = join(tempDir(), 'cli.db');
    const ok = await runCli(['doctor', '--provider', 'ambee', '--weather', 'open-meteo', '--db', db], { env: env() });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ambee \(pollen\): usable/);
    const refused = await runCli(['doctor', '--provider', 'ambee', '--weather', 'open-meteo', '--db', db], {
      env: env({ AMBEE_API_KEY: 'other' }),
    });
    expect(refused.code).toBe(1);
  });

  it("lists every pollen provider, checks each of the chain, and says in plain words each one's refusal of a wrong key", async () => {
    replay.options = {};
    const atmospore = await scriptedServer();
    try {
      atmospore.on((url) => url.pathname === '/v1/pollen', { status: 403, body: { error: 'Invalid API key' } });
      const run = await runCli(['doctor', '--weather', 'open-meteo', '--db', join(tempDir(), 'chain.db')], {
        env: env({
          POLLEN_PROVIDERS: 'atmospore,ambee',
          ATMOSPORE_API_KEY: 'wrong-atmospore-key-3f',
          ATMOSPORE_BASE_URL: atmospore.url,
          AMBEE_API_KEY: 'wrong-ambee-key-8c',
          POLLEN_NOW: new Date(NOW).toISOString(),
        }),
      });
      expect(run.code, run.stderr).toBe(1);
      // Every provider this service speaks to, with whether its key is set.
      for (const line of [
        /sample {6}no key needed/,
        /ambee {7}AMBEE_API_KEY set/,
        /atmospore {3}ATMOSPORE_API_KEY set/,
        /weatherapi {2}WEATHERAPI_API_KEY not set/,
      ])
        expect(run.stdout).toMatch(line);
      // Each provider of the chain, in its order, refused in plain words: one request each.
      expect(run.stdout.indexOf('atmospore (pollen): NOT USABLE')).toBeLessThan(run.stdout.indexOf('ambee (pollen): NOT USABLE'));
      expect(run.stdout).toMatch(/key {10}refused: set ATMOSPORE_API_KEY to a key atmospore accepts/);
      expect(run.stdout).toMatch(/key {10}refused: set AMBEE_API_KEY to a key ambee accepts/);
      expect(run.stdout).toMatch(/free key {5}free, no card: 100 calls a day/);
      expect(atmospore.seen).toHaveLength(1);
      for (const key of ['wrong-atmospore-key-3f', 'wrong-ambee-key-8c']) expect(run.stdout + run.stderr).not.toContain(key);
    } finally {
      await atmospore.close();
    }
  });

  it.each([
    [['doctor', '--city', 'atlantis'], {}, /--city: unsupported city "atlantis"/],
    [['doctor', '--provider', 'ambee'], { AMBEE_API_KEY: '' }, /AMBEE_API_KEY is not set/],
    [['doctor', '--provider', 'nope'], {}, /--provider must be one of/],
  ])('exits 2 for %j', async (args, extra, message) => {
    const run = await runCli([...args, '--db', join(tempDir(), 'x.db')], { env: extra });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
