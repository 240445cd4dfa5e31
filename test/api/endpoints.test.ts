import { describe, expect, it } from 'vitest';
import { DATA_CACHE, ERROR_CACHE } from '../../src/api/http/respond.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { THRESHOLDS } from '../../src/domain/species/risk.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { SITE_CITIES, useSite } from '../helpers/site.js';

const site = useSite();
type Json = Record<string, any>;

/** GETs over HTTP and checks what every response must have: CORS, the cache policy, a body the OpenAPI document allows. */
async function getJson(pathAndQuery: string): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await site.get(pathAndQuery);
  const body = (await res.json()) as Json;
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('cache-control')).toBe(res.status === 200 ? DATA_CACHE : ERROR_CACHE);
  const path = new URL(pathAndQuery, 'http://x').pathname;
  if ((path.startsWith('/api/') && res.status !== 404) || body.code === 'UNSUPPORTED_CITY') expectMatchesOpenApi(path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

const D = (date: string) => dayNumber(date);
/** What every answer that carries values says of them on the sample provider. */
const SIMULATED = { provider: 'sample', simulated: true };
const mean = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.round(v.reduce((a, b) => a + b, 0) / v.length) : null;
};
const max = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.max(...v) : null;
};

describe('GET /api/cities', () => {
  it('lists every supported city by name', async () => {
    const { status, body } = await getJson('/api/cities');
    expect(status).toBe(200);
    expect(body.cities).toEqual(
      DEFAULT_CITIES.list.map((c) => ({ name: c.name, slug: c.slug, state: c.state, lat: c.lat, lon: c.lon, timezone: c.timezone })),
    );
  });
});

describe('GET /api/available-dates and /api/latest-date', () => {
  it('lists the dates with data newest first, and the latest', async () => {
    const dates = Array.from({ length: 10 }, (_, i) => dayString(D('2025-04-10') - i));
    expect((await getJson('/api/available-dates')).body).toEqual({ dates });
    expect((await getJson('/api/latest-date')).body).toEqual({ date: '2025-04-10' });
  });
});

describe('GET /api/pollen', () => {
  it('returns the hourly rows of a city-day as stored, graded by the highest allergen', async () => {
    const { body } = await getJson('/api/pollen?city=austin&date=2025-04-03');
    const stored = site.store.pollen.hours('austin', D('2025-04-03') * 24, D('2025-04-04') * 24);
    expect(body.city).toBe('austin');
    expect(body.date).toBe('2025-04-03');
    expect(body.rows).toHaveLength(stored.length);
    body.rows.forEach((row: Json, i: number) => {
      const h = stored[i]!;
      expect(row.ts).toBe(new Date(h.hour * 3_600_000).toISOString());
      expect([row.tree, row.grass, row.weed, row.total, row.species]).toEqual([h.tree, h.grass, h.weed, h.total, h.species]);
      const oak = Math.max(...Object.values(h.species!.Tree as Record<string, number>));
      const [t1, t2, t3] = THRESHOLDS.tree;
      expect(row.risk_tree).toBe(oak === 0 ? 'None' : oak < t1 ? 'Low' : oak < t2 ? 'Moderate' : oak < t3 ? 'High' : 'Very High');
      expect(row.timezone).toBe('America/Chicago');
    });
  });

  it('returns daily rows of a city newest first, with means and peaks of the stored hours', async () => {
    const { body } = await getJson('/api/pollen?city=wichita');
    expect(body.rows.map((r: Json) => r.date)).toEqual(Array.from({ length: 10 }, (_, i) => dayString(D('2025-04-10') - i)));
    for (const row of body.rows) {
      const hours = site.store.pollen.hours('wichita', D(row.date) * 24, D(row.date) * 24 + 24);
      expect(row.tree).toBe(mean(hours.map((h) => h.tree)));
      expect(row.weed).toBe(mean(hours.map((h) => h.weed)));
      expect(row.peak_tree).toBe(max(hours.map((h) => h.tree)));
      expect(row.peak_total).toBe(max(hours.map((h) => h.total)));
    }
  });

  it('returns one cross-city row per city with data, by slug, for a date and for no parameters', async () => {
    const { body } = await getJson('/api/pollen?date=2025-04-05');
    expect(body.rows.map((r: Json) => r.city)).toEqual([...SITE_CITIES].sort());
    for (const row of body.rows) {
      const hours = site.store.pollen.hours(row.city, D('2025-04-05') * 24, D('2025-04-06') * 24);
      expect(row.count).toBe(
        (max(hours.map((h) => h.tree)) ?? 0) + (max(hours.map((h) => h.grass)) ?? 0) + (max(hours.map((h) => h.weed)) ?? 0),
      );
      expect(row).toMatchObject({ date: '2025-04-05', source: 'sample', is_forecast: false, max_weed: max(hours.map((h) => h.weed)) ?? 0 });
    }
    expect((await getJson('/api/pollen')).body).toEqual((await getJson('/api/pollen?date=2025-04-10')).body);
  });

  it.each([
    ['/api/pollen?city=austin&date=2024-01-01', { city: 'austin', date: '2024-01-01', ...SIMULATED, rows: [] }],
    ['/api/pollen?date=2024-01-01', { date: '2024-01-01', ...SIMULATED, rows: [] }],
    ['/api/weather?city=austin&date=2024-01-01', { city: 'austin', date: '2024-01-01', ...SIMULATED, rows: [] }],
  ])('answers a valid date without data with empty rows: %s', async (url, expected) => {
    const { status, body } = await getJson(url);
    expect(status).toBe(200);
    expect(body).toEqual(expected);
  });
});

describe('GET /api/map-data', () => {
  it('is GeoJSON of the latest date by default, with the daily maxima of the stored hours', async () => {
    const { body, headers } = await getJson('/api/map-data');
    expect(headers.get('content-type')).toBe('application/geo+json');
    expect(body).toMatchObject({ type: 'FeatureCollection', date: '2025-04-10', aggregation: 'daily-category-maxima' });
    expect(body.features.map((f: Json) => f.properties.city)).toEqual([...SITE_CITIES].sort());
    for (const f of body.features) {
      const hours = site.store.pollen.hours(f.properties.city, D('2025-04-10') * 24, D('2025-04-11') * 24);
      expect(f.properties.tree).toBe(max(hours.map((h) => h.tree)));
      expect(f.properties.series.map((d: Json) => d.date)).toEqual(['2025-04-08', '2025-04-09', '2025-04-10']);
    }
    expect((await getJson('/api/map-data?date=latest')).body).toEqual(body);
  });

  it('gives null series days before the data starts, and no features on a date without data', async () => {
    const first = (await getJson('/api/map-data?date=2025-04-01')).body;
    expect(first.features[0].properties.series[0]).toMatchObject({ date: '2025-03-30', tree: null, risk_tree: null });
    expect((await getJson('/api/map-data?date=2024-01-01')).body).toEqual({
      type: 'FeatureCollection',
      features: [],
      date: '2024-01-01',
      aggregation: 'daily-category-maxima',
      ...SIMULATED,
    });
  });
});

describe('GET /api/weather', () => {
  it('returns a city newest first, a city-day, and the compact snapshot of a date', async () => {
    const city = (await getJson('/api/weather?city=scranton')).body;
    expect(city.rows).toHaveLength(10);
    expect(city.rows[0].date).toBe('2025-04-10');
    expect(city.rows[0].temp_day_c).toBe(site.store.weather.cityDay('scranton', D('2025-04-10'))!.values.temp_day_c);

    const one = (await getJson('/api/weather?city=scranton&date=2025-04-02')).body;
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0]).toMatchObject({
      city_slug: 'scranton',
      date: '2025-04-02',
      timezone: 'America/New_York',
      tz: '-04:00',
      source: 'sample',
    });

    const snapshot = (await getJson('/api/weather?date=2025-04-02')).body;
    expect(snapshot.rows.map((r: Json) => r.city_slug)).toEqual([...SITE_CITIES].sort());
    for (const r of snapshot.rows)
      expect(Object.keys(r).every((k) => ['city_slug', 'date', 'temp_day_c', 'humidity', 'wind_speed_ms', 'aqi'].includes(k))).toBe(true);
    expect((await getJson('/api/weather')).body).toEqual((await getJson('/api/weather?date=2025-04-10')).body);
  });
});

describe('errors', () => {
  const unsupported = (slug: string, closest?: string) => ({
    error: `Unsupported city '${slug}'.${closest ? ` Did you mean '${closest}'?` : ''} Supported cities are listed by GET /api/cities and by the MCP tool list_cities.`,
    code: 'UNSUPPORTED_CITY',
    city: slug,
    supportedCities: '/api/cities',
    mcpTool: 'list_cities',
    ...(closest ? { closest } : {}),
  });
  const invalid = (name: string, expected: string) => ({
    error: `Invalid parameter '${name}': expected ${expected}`,
    code: 'INVALID_PARAMETER',
    parameter: name,
  });
  const DATE = 'a valid date in YYYY-MM-DD format';

  it.each([
    ['/api/pollen?city=atlantis', 404, unsupported('atlantis', 'atlanta')],
    ['/api/pollen?city=atlantis&date=2025-04-03', 404, unsupported('atlantis', 'atlanta')],
    ['/api/weather?city=Austin', 404, unsupported('Austin', 'austin')],
    ['/api/weather?city=St.%20Louis', 404, unsupported('St. Louis', 'st-louis')],
    ['/api/weather?city=tusla', 404, unsupported('tusla', 'tulsa')],
    ['/api/weather?city=xanadu&date=2025-04-03', 404, unsupported('xanadu')],
    ['/api/pollen?city=austin&date=2025-02-30', 400, invalid('date', DATE)],
    ['/api/pollen?date=04%2F01%2F2025', 400, invalid('date', DATE)],
    ['/api/pollen?date=', 400, invalid('date', DATE)],
    ['/api/pollen?city=', 400, invalid('city', 'a city slug from GET /api/cities')],
    ['/api/weather?date=2025-4-1', 400, invalid('date', DATE)],
    ['/api/weather?city=austin&date=20250401', 400, invalid('date', DATE)],
    ['/api/map-data?date=yesterday', 400, invalid('date', "a valid date in YYYY-MM-DD format or 'latest'")],
    ['/api/nope', 404, { error: 'No endpoint at /api/nope; the endpoints are listed in /openapi.json', code: 'NO_ENDPOINT' }],
    [
      '/api/pollen/extra',
      404,
      { error: 'No endpoint at /api/pollen/extra; the endpoints are listed in /openapi.json', code: 'NO_ENDPOINT' },
    ],
  ])('GET %s answers %i with a JSON error', async (url, status, expected) => {
    const res = await getJson(url);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(expected);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405 JSON and Allow', async (method) => {
    for (const url of ['/api/cities', '/api/pollen?city=austin&date=2025-04-03', '/api/nope']) {
      const res = await site.get(url, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        error: `Method ${method} is not allowed: this API is read-only (use GET)`,
        code: 'METHOD_NOT_ALLOWED',
      });
    }
  });

  it('answers OPTIONS with 204 and the CORS preflight headers', async () => {
    const res = await site.get('/api/pollen?city=austin', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const url of ['/api/cities', '/api/pollen?city=austin&date=2024-01-01']) {
      const [head, get] = [await site.get(url, { method: 'HEAD' }), await site.get(url)];
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
  });
});

describe('rewrite rules', () => {
  it('ignore extra query parameters', async () => {
    const plain = await (await site.get('/api/pollen?city=austin&date=2025-04-03')).text();
    expect(await (await site.get('/api/pollen?utm_source=x&city=austin&date=2025-04-03&foo=1')).text()).toBe(plain);
    expect(await (await site.get('/api/pollen?foo=1')).text()).toBe(await (await site.get('/api/pollen')).text());
  });

  it('send an unsupported city with a date to the 404, not to the cross-city file', async () => {
    expect((await getJson('/api/pollen?date=2025-04-03&city=atlantis')).status).toBe(404);
  });

  it('take the last value of a repeated parameter, like the static files', async () => {
    expect((await getJson('/api/pollen?city=atlantis&city=austin')).body.city).toBe('austin');
    expect((await getJson('/api/pollen?city=austin&city=atlantis')).status).toBe(404);
    expect((await getJson('/api/weather?city=austin&date=2025-04-01&date=2025-04-02')).body.date).toBe('2025-04-02');
  });

  it('serve the discovery documents', async () => {
    const doc = (await getJson('/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.18.0');
    expect((await getJson('/.well-known/openapi.json')).body).toEqual(doc);
    const llms = await site.get('/llms.txt');
    expect(llms.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await llms.text()).toMatch(/\/api\/pollen\?city=SLUG&date=YYYY-MM-DD/);
  });

  it('never serve _redirects itself, and give the site 404 page outside the API', async () => {
    expect((await site.get('/_redirects')).status).toBe(404);
    expect((await site.get('/nothing-here')).status).toBe(404);
  });
});

describe('placeholder values that look like paths', () => {
  it.each([
    '/api/pollen?date=../../cities',
    '/api/pollen?date=..%2F..%2Fcities',
    '/api/pollen?city=austin&date=../../../cities',
    '/api/pollen?date=../latest',
    '/api/weather?date=../../latest-date',
  ])('never reach another file: %s is a 400', async (url) => {
    const res = await site.get(url);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Invalid parameter 'date'/);
  });
});
