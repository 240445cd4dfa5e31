import { describe, expect, it } from 'vitest';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

const site = useSite();

describe('GET /api/forecast', () => {
  it('refreshes a cold city from the provider, then answers from the cache', async () => {
    const res = await site.get('/api/forecast?city=richmond');
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expectMatchesOpenApi('/api/forecast', 200, body);
    expect(body).toMatchObject({ city: 'richmond', source: 'sample', stale: false });
    expect(body.rows).toHaveLength(48);
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    expect(body.rows[0].ts).toBe(hour);
    expect(body.rows[0].tz).toBe('America/New_York');

    const again = (await (await site.get('/api/forecast?city=richmond')).json()) as Record<string, any>;
    expect(again).toMatchObject({ source: 'cache', stale: false, fetchedAt: body.fetchedAt });
  });

  it.each([
    ['/api/forecast', 400, { error: "Invalid parameter 'city': expected a city slug from GET /api/cities" }],
    ['/api/forecast?city=', 400, { error: "Invalid parameter 'city': expected a city slug from GET /api/cities" }],
    ['/api/forecast?city=atlantis', 404, { error: "Unsupported city 'atlantis'. Supported cities are listed by GET /api/cities and by the MCP tool list_cities.", code: 'UNSUPPORTED_CITY', city: 'atlantis', supportedCities: '/api/cities', mcpTool: 'list_cities' }],
  ])('answers %s with %i', async (url, status, expected) => {
    const res = await site.get(url);
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expectMatchesOpenApi('/api/forecast', status, body);
    expect(body).toEqual(expected);
  });
});

describe('forecast configuration', () => {
  it('treats an empty FORECAST_DAILY_BUDGET as unset, not as a budget of zero', async () => {
    const { environmentContext } = await import('../../src/api/context.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const ctx = environmentContext({ POLLEN_DB: site.db, FORECAST_CACHE_DB: join(mkdtempSync(join(tmpdir(), 'fc-')), 'cache.db'), FORECAST_DAILY_BUDGET: '' });
    expect(await ctx.forecast.get('boise')).toMatchObject({ source: 'sample', stale: false });
  });
});
