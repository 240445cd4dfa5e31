import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiContext } from '../../src/api/contract/context.js';
import { respond } from '../../src/api/http/respond.js';
import { dayOf, dayString, HOUR_MS } from '../../src/domain/dates.js';
import { parseIngestArgs } from '../../src/ingest/args.js';
import { runIngest } from '../../src/ingest/run.js';
import { openStore } from '../../src/store/store.js';
import { environmentContext, lazyContext } from '../../src/wiring/contexts.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { buildStore, useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'ambee-v3-key-health';
/** The fixed clock: the scheduled rebuild's hour on a day of the season. */
const NOW = Date.parse('2026-03-10T06:30:00Z');
const TODAY = dayOf(NOW);

const answer = async (ctx: ApiContext) => {
  const r = await respond({ method: 'GET', path: '/api/health', query: new URLSearchParams() }, ctx);
  const body = JSON.parse(r.body as string) as Record<string, unknown>;
  expectMatchesOpenApi('/api/health', r.status, body);
  return { status: r.status, headers: r.headers, body };
};
const health = (env: NodeJS.ProcessEnv) => answer(environmentContext(env));
/** Health of the store at `db` on the fixed clock `now`. */
async function healthAt(db: string, now: number, healthMaxAgeHours = 36) {
  const store = openStore(db, { readonly: true });
  try {
    const forecast = () => {
      throw new Error('health reads no forecast');
    };
    return await answer(
      lazyContext({ store: () => store, cities: () => store.cities.set(), forecast, settings: { now: () => now, healthMaxAgeHours } }),
    );
  } finally {
    store.close();
  }
}

let replay: ReplayServer;
let scratch: string;
/** A store Ambee filled (its client, from a loopback server in Ambee's recorded format), to yesterday. */
let ambee: string;
beforeAll(async () => {
  replay = await startReplayServer(KEY, { now: () => NOW });
  scratch = mkdtempSync(join(tmpdir(), 'pollen-health-'));
  ambee = join(scratch, 'ambee.db');
  const env = { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url, HTTP_RETRIES: '0' };
  const args = parseIngestArgs({ provider: 'ambee', weather: 'sample', cities: 'tulsa', days: '1', db: ambee }, TODAY, ambee, env);
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  await runIngest(args, quiet, quiet, { env, now: () => NOW });
}, 120_000);
afterAll(async () => {
  await replay?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('GET /api/health', () => {
  const site = useSite(); // sample data of 2025-04

  it("is ok (200) while a real provider's newest stored hour is recent, and never cached", async () => {
    const { status, headers, body } = await healthAt(ambee, NOW);
    expect(status).toBe(200);
    expect(headers['Cache-Control']).toBe('no-store');
    expect(headers['Netlify-CDN-Cache-Control']).toBe('no-store');
    expect(headers['Access-Control-Allow-Origin']).toBe('*');
    const store = openStore(ambee, { readonly: true });
    const newest = store.pollen.hours('tulsa', (TODAY - 1) * 24, TODAY * 24).at(-1)!.hour;
    store.close();
    expect(body).toEqual({
      status: 'ok',
      latestDate: dayString(TODAY - 1),
      latestHour: new Date(newest * HOUR_MS).toISOString(),
      dataAgeHours: Math.round(((NOW - newest * HOUR_MS) / HOUR_MS) * 10) / 10,
      cities: 40,
      provider: 'ambee',
      lastIngest: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      node: process.version,
    });
  });

  it('is stale (503) once the newest hour is older than HEALTH_MAX_AGE_HOURS, unless that allows it', async () => {
    const later = NOW + 48 * HOUR_MS;
    expect(await healthAt(ambee, later)).toMatchObject({ status: 503, body: { status: 'stale', provider: 'ambee' } });
    expect(await healthAt(ambee, later, 72)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const lenient = await health({ POLLEN_DB: ambee, HEALTH_MAX_AGE_HOURS: '1000000' });
    expect(lenient).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it("is simulated (503) when the newest data is the sample provider's, however fresh", async () => {
    const sample = await buildStore(tempDir(), ['tulsa'], { from: TODAY - 1, to: TODAY - 1 });
    const fresh = await healthAt(sample, NOW);
    expect(fresh).toMatchObject({ status: 503, body: { status: 'simulated', provider: 'sample', latestDate: dayString(TODAY - 1) } });
    expect(fresh.body.dataAgeHours as number).toBeLessThan(36);
    const old = await health({ POLLEN_DB: site.db, HEALTH_MAX_AGE_HOURS: '1000000' });
    expect(old).toMatchObject({
      status: 503,
      body: { status: 'simulated', latestDate: '2025-04-10', latestHour: '2025-04-10T23:00:00.000Z' },
    });
  });

  it('is stale (503) with nulls for an empty store', async () => {
    const db = join(tempDir(), 'empty.db');
    openStore(db).close();
    const { status, body } = await health({ POLLEN_DB: db });
    expect(status).toBe(503);
    expect(body).toEqual({
      status: 'stale',
      latestDate: null,
      latestHour: null,
      dataAgeHours: null,
      cities: 40,
      provider: null,
      lastIngest: null,
      node: process.version,
    });
  });

  it('is its own function on the local server, with CORS', async () => {
    const res = await site.get('/api/health');
    expect(res.status).toBe(503);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { status: string }).status).toBe('simulated');
  });
});
