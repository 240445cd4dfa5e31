import { describe, expect, it } from 'vitest';
import { jsonGetter } from '../helpers/api-get.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

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
