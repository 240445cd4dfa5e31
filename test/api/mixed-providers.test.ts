/**
 * Every value names its own provider. A store filled from the loopback Ambee (its recorded
 * format) has one day replaced by the sample through `ingest --replace-provider-days`; then every
 * answer that holds that day says so, over HTTP, in the rendered files, in the bulk files and
 * over MCP, and every answer that does not says Ambee and nothing of simulation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, dayString } from '../../src/domain/dates.js';
import { parseIngestArgs, type RawIngestArgs } from '../../src/ingest/args.js';
import { runIngest } from '../../src/ingest/run.js';
import { render } from '../../src/render/render.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ROOT } from '../helpers/cli.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';

type Json = Record<string, any>;

const KEY = 'ambee-v3-key-5d2e';
const NOW = Date.parse('2026-03-10T06:30:00Z');
const TODAY = dayOf(NOW);
const CITIES = 'austin,scranton,tulsa';
/** The day the sample replaced, in the middle of Ambee's six. */
const D = TODAY - 4;
const [dBefore, dAfter, dNext] = [dayString(D - 1), dayString(D + 1), dayString(D + 2)];

let replay: ReplayServer;
let dir: string;
let store: Store;
let server: RunningServer;
let client: Client;
const get = async (path: string): Promise<Json> => {
  const res = await fetch(server.url + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
};

async function ingestWith(db: string, raw: RawIngestArgs): Promise<void> {
  const env = { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url, AMBEE_HISTORY_HOURS: String(24 * 6), HTTP_RETRIES: '0' };
  const args = parseIngestArgs({ cities: CITIES, db, ...raw }, TODAY, db, env);
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  await runIngest(args, quiet, quiet, { env, now: () => NOW });
}

beforeAll(async () => {
  replay = await startReplayServer(KEY);
  replay.options = { now: () => NOW, ambeeHistoryHours: 24 * 6 };
  dir = mkdtempSync(join(tmpdir(), 'pollen-mixed-'));
  const db = join(dir, 'pollen.db');
  await ingestWith(db, { provider: 'ambee', weather: 'sample', days: '6' });
  await ingestWith(db, { provider: 'sample', weather: 'sample', from: dayString(D), to: dayString(D), replaceProviderDays: true });
  store = openStore(db, { readonly: true });
  await render(store, join(dir, 'publish'));
  process.env.POLLEN_DB = db;
  process.env.FORECAST_CACHE_DB = join(dir, 'forecast-cache.db');
  server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
  client = new Client({ name: 'mixed-providers-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  store?.close();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an answer whose values come from two providers', () => {
  it("names the store's provider where it names one: health", async () => {
    // (Its status says how fresh the data is, on this machine's clock: the provider is the point here.)
    const body = (await (await fetch(`${server.url}/api/health`)).json()) as Json;
    expect(body.provider).toBe('ambee');
  });

  it("says sample and simulated for the replaced day's hours, and Ambee alone for the days around it", async () => {
    expect(await get(`/api/pollen?city=austin&date=${dayString(D)}`)).toMatchObject({ provider: 'sample', simulated: true });
    for (const date of [dBefore, dAfter]) {
      const body = await get(`/api/pollen?city=austin&date=${date}`);
      expect([body.provider, 'simulated' in body, 'providers' in body], date).toEqual(['ambee', false, false]);
      expect(body.rows.every((r: Json) => !('providers' in r))).toBe(true);
    }
  });

  it("lists both at the top of a city's daily rows, each row naming its own, as the rendered file says", async () => {
    const body = await get('/api/pollen?city=austin');
    expect(body).toMatchObject({ provider: null, providers: ['ambee', 'sample'], simulated: true });
    const byDate = Object.fromEntries(body.rows.map((r: Json) => [r.date, [r.providers, r.simulated]]));
    expect(byDate[dayString(D)]).toEqual([['sample'], true]);
    expect(byDate[dBefore]).toEqual([['ambee'], undefined]);
    expect(byDate[dAfter]).toEqual([['ambee'], undefined]);
    const file = JSON.parse(readFileSync(join(dir, 'publish', 'data/pollen/austin.json'), 'utf8'));
    expect(file).toEqual(body);
  });

  it('names both providers on a local day made of the replaced day and the next', async () => {
    const body = await get('/api/pollen?city=austin&timezone=local');
    expect(body.providers).toEqual(expect.arrayContaining(['ambee', 'sample']));
    // Austin's local day D runs from 06:00Z on D (sample) to 06:00Z on D+1 (Ambee).
    const local = body.rows.find((r: Json) => r.date === dayString(D));
    expect(local.providers).toEqual(['sample', 'ambee']);
    expect(local.simulated).toBe(true);
  });

  it('says so across cities, on the map and in the range, and in every CSV row', async () => {
    const across = await get(`/api/pollen?date=${dayString(D)}`);
    expect(across).toMatchObject({ provider: 'sample', simulated: true });
    const map = await get(`/api/map-data?date=${dAfter}`);
    // Each feature's series holds D: every one mixes.
    expect(map).toMatchObject({ provider: null, providers: ['ambee', 'sample'], simulated: true });
    for (const f of map.features) expect([...f.properties.providers].sort()).toEqual(['ambee', 'sample']);
    const range = await get(`/api/pollen-range?city=tulsa&from=${dBefore}&to=${dNext}&aggregate=day`);
    expect(range).toMatchObject({ provider: null, providers: ['ambee', 'sample'], simulated: true });
    expect(range.rows.map((r: Json) => [r.periodStart.slice(0, 10), r.providers])).toEqual([
      [dBefore, ['ambee']],
      [dayString(D), ['sample']],
      [dAfter, ['ambee']],
    ]);
    const csv = await (
      await fetch(`${server.url}/api/pollen-range?city=tulsa&from=${dBefore}&to=${dNext}&aggregate=day&format=csv`)
    ).text();
    const [head, ...lines] = csv.trimEnd().split('\n');
    const at = head!.split(',').indexOf('provider');
    expect(lines.map((l) => l.split(',')[at])).toEqual(['ambee', 'sample', 'ambee']);
  });

  it("writes each bulk row's provider", () => {
    const month = dayString(D).slice(0, 7);
    const text = gunzipSync(readFileSync(join(dir, 'publish', `data/bulk/pollen-daily-${month}.csv.gz`))).toString('utf8');
    const [head, ...lines] = text.trimEnd().split('\n');
    const columns = head!.split(',');
    const [city, date, provider] = ['city', 'date', 'provider'].map((c) => columns.indexOf(c));
    const austin = lines.map((l) => l.split(',')).filter((f) => f[city!] === 'austin');
    const labelled = Object.fromEntries(austin.map((f) => [f[date!], f[provider!]]));
    expect(labelled[dayString(D)]).toBe('sample');
    expect(labelled[dBefore]).toBe('ambee');
    expect(labelled[dAfter]).toBe('ambee');
  });

  it("scores each day with its own provider's forecasts, and says so per provider in the skill and its pairs files", async () => {
    const skill = await get('/api/forecast-skill?city=austin');
    expect(skill).toMatchObject({ provider: null, providers: ['ambee', 'sample'], simulated: true });
    // The sample's past made again for its day alone: the four forecasts reaching it, and the outlook reading it.
    expect(skill.archive.by_provider).toContainEqual({ provider: 'sample', forecasts: 4 });
    expect(skill.archive.by.made_again).toBe(4);
    expect(skill.archive.outlooks.made_again).toBe(1);
    for (const c of skill.categories)
      for (const l of c.leads) {
        const split = l.window.by_provider as Array<{ provider: string; days: number }>;
        expect(
          split.reduce((n, p) => n + p.days, 0),
          `${c.category} ${l.lead}`,
        ).toBe(l.window.days);
      }
    // DuckDB reads the Parquet: each day's rows name its provider, and no Ambee day holds a sample forecast.
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      const file = join(dir, 'publish', `data/bulk/forecast-pairs-${dayString(D).slice(0, 7)}.parquet`).replaceAll("'", "''");
      const rows = async (sql: string) => (await (await db.run(sql)).getRowObjectsJson()) as Json[];
      const days = await rows(
        `SELECT DISTINCT date::VARCHAR AS date, provider FROM read_parquet('${file}') WHERE city = 'austin' AND date BETWEEN '${dBefore}' AND '${dAfter}' ORDER BY date`,
      );
      expect(days).toEqual([
        { date: dBefore, provider: 'ambee' },
        { date: dayString(D), provider: 'sample' },
        { date: dAfter, provider: 'ambee' },
      ]);
      // Ambee's one forecast (the build's, today) reaches no stored day: every pair with a forecast is the sample's, on its day, in each city.
      const paired = await rows(
        `SELECT DISTINCT city, provider, date::VARCHAR AS date FROM read_parquet('${file}') WHERE ${[0, 1, 2].map((l) => `forecast_sample_issued_${l} IS NOT NULL`).join(' OR ')} ORDER BY city`,
      );
      expect(paired).toEqual(['austin', 'scranton', 'tulsa'].map((city) => ({ city, provider: 'sample', date: dayString(D) })));
      // Ambee's columns, as many leads as its forecast reaches, are empty on every row (DuckDB ANDs the columns a pattern expands to).
      const count = async (where: string) => (await rows(`SELECT count(*)::INTEGER AS n FROM read_parquet('${file}')${where}`))[0]!.n;
      expect(await count(" WHERE COLUMNS('^forecast_ambee_issued_[0-9]+$') IS NULL")).toBe(await count(''));
    } finally {
      db.closeSync();
    }
  });

  it('says so over MCP', async () => {
    const call = async (name: string, args: Json) =>
      ((await client.callTool({ name, arguments: args })) as { structuredContent: Json }).structuredContent;
    expect(await call('get_pollen', { city: 'austin', date: dayString(D) })).toMatchObject({ provider: 'sample', simulated: true });
    const daily = await call('get_pollen', { city: 'austin' });
    expect(daily).toMatchObject({ provider: null, providers: ['ambee', 'sample'], simulated: true });
    expect(daily.rows.find((r: Json) => r.date === dayString(D))).toMatchObject({ providers: ['sample'], simulated: true });
    expect(await call('get_pollen', { city: 'austin', date: dAfter })).toMatchObject({ provider: 'ambee' });
  });
});
