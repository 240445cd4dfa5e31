import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentContext } from '../../src/wiring/contexts.js';
import { respond } from '../../src/api/http/respond.js';
import { dayOf, dayString } from '../../src/domain/dates.js';
import { openStore } from '../../src/store/store.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { iso } from '../helpers/clock.js';
import { buildStore, useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

/** The clock the answers are read at (POLLEN_NOW), whatever the hour the test runs. */
const NOW = Date.parse('2026-05-25T15:00:00Z');

const health = async (env: NodeJS.ProcessEnv) => {
  const r = await respond(
    { method: 'GET', path: '/api/health', query: new URLSearchParams() },
    environmentContext({ POLLEN_NOW: iso(NOW), ...env }),
  );
  const body = JSON.parse(r.body as string) as Record<string, unknown>;
  expectMatchesOpenApi('/api/health', r.status, body);
  return { status: r.status, headers: r.headers, body };
};

describe('GET /api/health', () => {
  const site = useSite({ now: NOW }); // sample data of 2025-04: long stale at NOW

  it('is ok (200) while the newest stored hour is recent, and never cached', async () => {
    const today = dayOf(NOW);
    const db = await buildStore(tempDir(), ['tulsa'], { from: today - 1, to: today - 1 });
    const { status, headers, body } = await health({ POLLEN_DB: db });
    expect(status).toBe(200);
    expect(headers['Cache-Control']).toBe('no-store');
    expect(headers['Netlify-CDN-Cache-Control']).toBe('no-store');
    expect(headers['Access-Control-Allow-Origin']).toBe('*');
    const store = openStore(db, { readonly: true });
    const newest = store.pollen.hours('tulsa', (today - 1) * 24, today * 24).at(-1)!.hour;
    store.close();
    expect(body).toEqual({
      status: 'ok',
      latestDate: dayString(today - 1),
      latestHour: new Date(newest * 3_600_000).toISOString(),
      dataAgeHours: expect.any(Number),
      cities: 40,
      provider: 'sample',
      lastIngest: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      node: process.version,
    });
    expect(body.dataAgeHours as number).toBeGreaterThan(0);
    expect(body.dataAgeHours as number).toBeLessThanOrEqual(36);
  });

  it('is stale (503) when the newest day is old, unless HEALTH_MAX_AGE_HOURS allows it', async () => {
    const stale = await health({ POLLEN_DB: site.db });
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({ status: 'stale', latestDate: '2025-04-10', latestHour: '2025-04-10T23:00:00.000Z' });
    const lenient = await health({ POLLEN_DB: site.db, HEALTH_MAX_AGE_HOURS: '1000000' });
    expect(lenient).toMatchObject({ status: 200, body: { status: 'ok' } });
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
  });
});
