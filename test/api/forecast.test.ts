import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, vi } from 'vitest';
import { respond } from '../../src/api/http/respond.js';
import { siteFilePath, writeSiteFile } from '../../src/deploy-data/site-file.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayOf } from '../../src/domain/dates.js';
import { handleMcp } from '../../src/mcp/streamable-http.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { environmentContext } from '../../src/wiring/contexts.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const site = useSite();

describe('GET /api/forecast', () => {
  it('refreshes a cold city from the provider, then answers from the cache', async () => {
    const res = await site.get('/api/forecast?city=richmond');
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expectMatchesOpenApi('/api/forecast', 200, body);
    expect(body).toMatchObject({ city: 'richmond', source: 'sample', stale: false });
    // The hours the sample model has from the hour of the refresh (it leaves one out now and then).
    const sent = await new SampleProvider().pollenForecast(DEFAULT_CITIES.get('richmond')!, Date.parse(body.fetchedAt));
    expect(body.rows.map((r: { ts: string }) => r.ts)).toEqual(sent.hours.map((h) => new Date(h.time).toISOString()));
    expect(body.rows[0].tz).toBe('America/New_York');

    const again = (await (await site.get('/api/forecast?city=richmond')).json()) as Record<string, any>;
    expect(again).toMatchObject({ source: 'cache', stale: false, fetchedAt: body.fetchedAt });
  });

  it.each([
    [
      '/api/forecast',
      400,
      { error: "Invalid parameter 'city': expected a city slug from GET /api/cities", code: 'INVALID_PARAMETER', parameter: 'city' },
    ],
    [
      '/api/forecast?city=',
      400,
      { error: "Invalid parameter 'city': expected a city slug from GET /api/cities", code: 'INVALID_PARAMETER', parameter: 'city' },
    ],
    [
      '/api/forecast?city=atlantis',
      404,
      {
        error:
          "Unsupported city 'atlantis'. Did you mean 'atlanta'? Supported cities are listed by GET /api/cities and by the MCP tool list_cities.",
        closest: 'atlanta',
        code: 'UNSUPPORTED_CITY',
        city: 'atlantis',
        supportedCities: '/api/cities',
        mcpTool: 'list_cities',
      },
    ],
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
    const { environmentContext } = await import('../../src/wiring/contexts.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const ctx = environmentContext({
      POLLEN_DB: site.db,
      FORECAST_CACHE_DB: join(mkdtempSync(join(tmpdir(), 'fc-')), 'cache.db'),
      FORECAST_DAILY_BUDGET: '',
    });
    expect(await ctx.forecast.get(DEFAULT_CITIES.get('boise')!)).toMatchObject({ source: 'sample', stale: false });
  });
});

describe('the forecast provider', () => {
  /** A rendered store whose newest day came from `source`: the site file says so, beside it. */
  const storeFrom = (source: string) => {
    const dir = tempDir();
    const db = join(dir, 'store.db');
    const store = openStore(db);
    const day = dayOf(Date.now()) - 1;
    store.writeCityDay({
      city: 'tulsa',
      day,
      pollen: {
        source,
        timezone: 'America/Chicago',
        fetchedAt: 1,
        hours: [{ hour: day * 24, tree: 1, grass: 1, weed: 1, total: 3, species: null }],
      },
    });
    // As a render leaves it, in the folder of the files beside the store.
    mkdirSync(dirname(siteFilePath(db)), { recursive: true });
    writeSiteFile(siteFilePath(db), {
      provider: store.pollen.latestSource(),
      cities: DEFAULT_CITIES.list.map(({ region: _r, ...entry }) => entry),
    });
    store.close();
    return { db, cache: join(dir, 'cache.db') };
  };
  const ask = (env: NodeJS.ProcessEnv) =>
    respond({ method: 'GET', path: '/api/forecast', query: new URLSearchParams('city=tulsa') }, environmentContext(env));

  it('defaults to the provider that filled the store, and without its key answers 503 naming the variable', async () => {
    const { db, cache } = storeFrom('ambee');
    rmSync(db); // the forecast function carries the site file, never the store
    const r = await ask({ POLLEN_DB: db, FORECAST_CACHE_DB: cache });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body as string)).toEqual({
      error:
        "The forecast is unavailable: this deployment's data comes from ambee, and AMBEE_API_KEY is not set: the ambee pollen provider needs an API key (see .env.example)",
      code: 'FORECAST_UNAVAILABLE',
    });
    expect(r.headers['Retry-After']).toBe('3600');
  });

  it.each([
    [
      'a path under a file',
      (dir: string) => {
        writeFileSync(join(dir, 'file'), '');
        return join(dir, 'file', 'cache.db');
      },
    ],
    [
      'a folder that is a file',
      (dir: string) => {
        writeFileSync(join(dir, 'cache.db'), 'not a database');
        return dir;
      },
    ],
  ])(
    'answers 503 with Retry-After, never 500, when the cache cannot be opened (%s), over HTTP and MCP, and logs why',
    async (_, cachePath) => {
      const { db } = storeFrom('sample');
      const FORECAST_CACHE_DB = cachePath(tempDir());
      const logged: string[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
      try {
        const r = await ask({ POLLEN_DB: db, FORECAST_CACHE_DB });
        expect(r.status).toBe(503);
        expect(r.headers['Retry-After']).toBe('3600');
        expect(r.headers['Cache-Control']).toBe('no-store');
        expect(JSON.parse(r.body as string)).toEqual({
          error: 'The forecast is unavailable: its cache cannot be opened on this deployment; retry later',
          code: 'FORECAST_UNAVAILABLE',
        });
        expectMatchesOpenApi('/api/forecast', 503, JSON.parse(r.body as string));
        expect(logged.join('\n')).toContain(`forecast unavailable: the forecast cache at ${FORECAST_CACHE_DB} cannot be opened: `);

        const client = new Client({ name: 'test', version: '1.0.0' });
        const ctx = environmentContext({ POLLEN_DB: db, FORECAST_CACHE_DB });
        await client.connect(
          new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
            fetch: (url, init) => handleMcp(new Request(url, init), ctx),
          }),
        );
        const tool = (await client.callTool({ name: 'get_forecast', arguments: { city: 'tulsa' } })) as {
          isError?: boolean;
          content: Array<{ text: string }>;
        };
        expect(tool.isError).toBe(true);
        expect(tool.content[0]!.text).toContain('The forecast is unavailable: its cache cannot be opened on this deployment; retry later');
        await client.close();
      } finally {
        spy.mockRestore();
      }
    },
  );

  it('is known from the served store where the function carries one, without the site file', async () => {
    const { db, cache } = storeFrom('ambee');
    rmSync(siteFilePath(db));
    const r = await ask({ POLLEN_DB: db, FORECAST_CACHE_DB: cache });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body as string).error).toMatch(
      /^The forecast is unavailable: this deployment's data comes from ambee, and AMBEE_API_KEY is not set/,
    );
  });

  it('refuses every refresh when POLLEN_PROVIDER names another provider than the one that filled the store', async () => {
    const { db, cache } = storeFrom('ambee');
    const r = await ask({ POLLEN_DB: db, FORECAST_CACHE_DB: cache, POLLEN_PROVIDER: 'sample' });
    expect(r.status).toBe(503);
    expect(r.headers['Retry-After']).toBe('3600');
    expect(JSON.parse(r.body as string)).toEqual({
      error:
        "The forecast is unavailable: this deployment's data comes from ambee, and POLLEN_PROVIDER names sample: unset it, or set it to ambee",
      code: 'FORECAST_UNAVAILABLE',
    });
  });

  it('takes a POLLEN_PROVIDER that names the provider that filled the store', async () => {
    const { db, cache } = storeFrom('sample');
    const r = await ask({ POLLEN_DB: db, FORECAST_CACHE_DB: cache, POLLEN_PROVIDER: 'sample' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body as string)).toMatchObject({ source: 'sample' });
  });

  it('has no provider, and refuses, where nothing has been stored yet', async () => {
    const dir = tempDir();
    const r = await ask({ POLLEN_DB: join(dir, 'none.db'), FORECAST_CACHE_DB: join(dir, 'cache.db'), POLLEN_PROVIDER: 'sample' });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body as string)).toEqual({
      error: 'The forecast is unavailable: this deployment has no pollen data yet, so no provider to forecast from',
      code: 'FORECAST_UNAVAILABLE',
    });
  });
});
