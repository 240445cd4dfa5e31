/**
 * What Netlify's edge is told about each answer: the cache key takes a route's own parameters, the
 * fallback answers only routes with static forms, and the functions that compute on request are
 * rate limited per client as the route list says.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FALLBACK_RATE_LIMIT, RATE_LIMIT, rateLimitFor } from '../../src/api/http/cdn.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

const site = useSite({ cities: ['austin', 'tulsa'] });

/**
 * The key Netlify's CDN files a function's answer under, as its docs describe `Netlify-Vary:
 * query=a|b`: the path and the values of the named parameters only (netlify.com/blog/netlify-cache-key-variations).
 */
function cacheKey(url: string, netlifyVary: string | null): string {
  const u = new URL(url, 'http://x');
  const named = netlifyVary?.match(/(?:^|,)\s*query=([^,]*)/)?.[1]?.split('|');
  const kept = [...u.searchParams].filter(([name]) => named === undefined || named.includes(name)).sort(([a], [b]) => (a < b ? -1 : 1));
  return `${u.pathname}?${new URLSearchParams(kept)}`;
}

describe("the CDN's cache key", () => {
  it('takes only the parameters a route knows: a range with junk parameters hits one entry', async () => {
    const range = '/api/pollen-range?from=2025-04-02&to=2025-04-03&city=austin';
    const answers = await Promise.all(
      [`${range}&x=${Math.random()}`, `${range}&x=${Math.random()}&utm_source=mail`, range].map((path) => site.get(path)),
    );
    const vary = answers.map((r) => r.headers.get('netlify-vary'));
    expect(vary).toEqual(Array(3).fill('query=from|to|city|aggregate|limit|format|after|timezone'));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    const keys = [`${range}&x=1`, `${range}&x=2&utm_source=mail`, range].map((path) => cacheKey(path, vary[0]!));
    expect(new Set(keys).size).toBe(1);
    // A parameter the route knows is a key of its own.
    expect(cacheKey(`${range}&aggregate=day`, vary[0]!)).not.toBe(keys[0]);
    // Without the header, every junk value would be an entry of its own.
    expect(cacheKey(`${range}&x=1`, null)).not.toBe(cacheKey(`${range}&x=2`, null));
  });

  it("names each answering route's own parameters, on the fallback's answers and the forecast's too", async () => {
    const cases: Array<[string, string]> = [
      ['/api/pollen?city=austin&date=1999-01-01&x=1', 'query=city|date|timezone'],
      ['/api/forecast?city=tulsa&x=1', 'query=city|aggregate|timezone|days'],
      ['/api/nearest?lat=30.3&lon=-97.7&x=1', 'query=lat|lon|zip|limit|max_km'],
    ];
    for (const [path, vary] of cases) {
      const res = await site.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('netlify-vary'), path).toBe(vary);
    }
    // An error is never cached, so it keys on nothing.
    const bad = await site.get('/api/pollen-range?from=nope&to=2025-04-03');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('cache-control')).toBe('no-store');
    expect(bad.headers.get('netlify-vary')).toBeNull();
  });
});

describe('the fallback', () => {
  it.each([
    '/data/fallback/pollen-range?from=2025-04-02&to=2025-04-03',
    '/data/fallback/forecast?city=austin',
    '/data/fallback/alerts?city=austin',
    '/data/fallback/health',
  ])('does not answer a route computed on request under a second URL: %s is a 404', async (path) => {
    const res = await site.get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error: `No endpoint at ${new URL(path, 'http://x').pathname}; the endpoints are listed in /openapi.json`,
      code: 'NO_ENDPOINT',
    });
  });

  it('answers a route with static forms under /data/fallback/ as under /api/', async () => {
    const query = 'city=austin&date=2025-04-02';
    const [fallback, api] = await Promise.all([site.get(`/data/fallback/pollen?${query}`), site.get(`/api/pollen?${query}`)]);
    expect(fallback.status).toBe(200);
    expect(await fallback.text()).toBe(await api.text());
  });
});

describe('rate limits', () => {
  it("are each function's config as the route list says: per client on every function, the fallback's with room for the static files its path covers", async () => {
    const dir = join(ROOT, 'functions');
    const limits: Record<string, unknown> = {};
    for (const file of readdirSync(dir).sort()) {
      const { config } = (await import(pathToFileURL(join(dir, file)).href)) as {
        config: { path: string | string[]; rateLimit?: unknown };
      };
      expect(config.rateLimit, file).toEqual(rateLimitFor([config.path].flat()));
      limits[file] = config.rateLimit;
    }
    expect(limits).toEqual({
      'fallback.ts': FALLBACK_RATE_LIMIT,
      'forecast.ts': RATE_LIMIT,
      'health.ts': RATE_LIMIT,
      'mcp.ts': RATE_LIMIT,
      'nearest.ts': RATE_LIMIT,
      'pollen-range.ts': RATE_LIMIT,
    });
    // zip-it-and-ship-it aggregates by domain alone otherwise
    for (const limit of [RATE_LIMIT, FALLBACK_RATE_LIMIT]) expect(limit.aggregateBy).toEqual(['ip', 'domain']);
  });
});
