import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestForFile } from '../../src/api/http/file-requests.js';
import { dayNumber } from '../../src/domain/dates.js';
import { listFiles, render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { startReplayServer } from '../helpers/replay-server.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'replay-key-93b1';
const ARGS = ['--from', '2025-04-01', '--to', '2025-04-09', '--cities', 'austin,anchorage,richmond'];
// A plan whose history reaches back far enough for these fixed dates (Ambee's free plan serves 48 hours).
const HISTORY_HOURS = 24 * 4000;
let replay: Awaited<ReturnType<typeof startReplayServer>>;
beforeAll(async () => (replay = await startReplayServer(KEY, { ambeeHistoryHours: HISTORY_HOURS })));
afterAll(async () => replay.close());

const env = () => ({
  AMBEE_API_KEY: KEY,
  AMBEE_BASE_URL: replay.url,
  AMBEE_HISTORY_HOURS: String(HISTORY_HOURS),
  OPEN_METEO_ARCHIVE_URL: replay.url,
  OPEN_METEO_AIR_QUALITY_URL: replay.url,
  HTTP_RETRIES: '0',
});

describe('ingest through the real clients against recorded-format responses on loopback', () => {
  it('fills the store as the sample provider does, and renders an API valid against the OpenAPI document', async () => {
    const dir = tempDir();
    const [real, sample] = [join(dir, 'real.db'), join(dir, 'sample.db')];
    const run = await runCli(['ingest', '--provider', 'ambee', '--weather', 'open-meteo', ...ARGS, '--db', real], { env: env() });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stderr).toContain('ingest: ambee pollen, open-meteo weather');
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect((await runCli(['ingest', ...ARGS, '--db', sample])).code).toBe(0);

    const [a, b] = [openStore(real, { readonly: true }), openStore(sample, { readonly: true })];
    for (const city of ['austin', 'anchorage', 'richmond']) {
      const strip = (store: typeof a) => store.pollen.hours(city, 0, 1e9).map(({ source: _s, ...h }) => h);
      const hours = strip(a);
      expect(hours.length).toBeGreaterThan(200);
      expect(hours).toEqual(strip(b));
      expect(a.pollen.hours(city, 0, 1e9)[0]!.source).toBe('ambee');
    }
    expect(a.checks.counts().weather_day).toBe(27);
    expect(a.weather.cityDay('austin', dayNumber('2025-04-01'))?.source).toBe('open-meteo');
    // 3 cities x 5 requests of at most 48 hours, and the forecast the build keeps of each city.
    expect(a.ledger.callsOn('ambee', new Date().toISOString().slice(0, 10)).ingest).toBe(18);
    expect(a.issued.count()).toBe(3);

    const publish = join(dir, 'publish');
    await render(a, publish);
    for (const file of listFiles(publish).filter((f) => f.startsWith('data/') && !f.startsWith('data/bulk/'))) {
      const request = requestForFile(`/${file}`, new URLSearchParams())!;
      expectMatchesOpenApi(request.path, 200, JSON.parse(readFileSync(join(publish, file), 'utf8')));
    }
    a.close();
    b.close();
  });

  it('names the missing key and exits 2 before writing anything', async () => {
    const db = join(tempDir(), 'none.db');
    const run = await runCli(['ingest', '--provider', 'ambee', ...ARGS, '--db', db], { env: { AMBEE_API_KEY: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('AMBEE_API_KEY is not set: the ambee pollen provider needs an API key (see .env.example)');
  });

  it('reports every city-day of a refused provider and keeps the rest', async () => {
    const db = join(tempDir(), 'refused.db');
    const run = await runCli(['ingest', '--provider', 'ambee', '--weather', 'open-meteo', ...ARGS, '--db', db], {
      env: { ...env(), AMBEE_API_KEY: 'wrong-key' },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed: austin 2025-04-01 pollen: unauthorized: ambee: HTTP 401/);
    expect(run.stdout.match(/^failed: /gm)).toHaveLength(27);
    expect(run.stdout).not.toContain('wrong-key');
    const store = openStore(db, { readonly: true });
    expect(store.checks.counts()).toMatchObject({ pollen_day: 0, weather_day: 27 });
    store.close();
  });

  it('stops calling a provider when its daily budget is spent, says so, and defers the rest (exit 0)', async () => {
    const db = join(tempDir(), 'budget.db');
    const run = await runCli(['ingest', '--provider', 'ambee', '--weather', 'open-meteo', ...ARGS, '--db', db], {
      env: { ...env(), AMBEE_DAILY_BUDGET: '3', AMBEE_FORECAST_RESERVE: '1' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopped calling ambee: ambee: daily budget spent: 2 of 3 calls used.*deferred to the next run/);
    expect(run.stdout).toMatch(/ 23 deferred, /);
    const store = openStore(db, { readonly: true });
    // Two requests of two days each, the newest: 2025-04-08 and -09 of the first two cities.
    expect(store.checks.counts().pollen_day).toBe(4);
    expect(store.pollen.statuses('austin', 0, 1e6).has(dayNumber('2025-04-09'))).toBe(true);
    store.close();
  });
});
