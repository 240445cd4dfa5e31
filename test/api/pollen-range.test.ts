import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { withSettings } from '../../src/api/contract/context.js';
import { rowBound } from '../../src/api/endpoints/pollen-range.js';
import { parseRangeQuery } from '../../src/api/endpoints/range-params.js';
import { DATA_CACHE, ERROR_CACHE, respond } from '../../src/api/http/respond.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { dailyMeans } from '../../src/domain/pollen-rows.js';
import { serve } from '../../src/server/server.js';
import { MAX_BODY_BYTES } from '../../src/settings.js';
import { storeContext } from '../../src/wiring/contexts.js';
import { ROOT } from '../helpers/cli.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { buildStore, useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const site = useSite();
type Json = Record<string, any>;
const H = (iso: string) => Date.parse(iso) / 3_600_000;

async function range(query: string, init?: RequestInit) {
  const res = await site.get(`/api/pollen-range?${query}`, init);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('cache-control')).toBe(res.status === 200 ? DATA_CACHE : ERROR_CACHE);
  return res;
}
async function rangeJson(query: string) {
  const res = await range(query);
  const body = (await res.json()) as Json;
  expectMatchesOpenApi('/api/pollen-range', res.status, body);
  return { res, body };
}

describe('GET /api/pollen-range', () => {
  it('returns the stored hours of each city in slug order, and echoes the window in UTC', async () => {
    const { res, body } = await rangeJson('city=wichita,austin&from=2025-04-02&to=2025-04-04');
    expect(res.headers.get('netlify-cdn-cache-control')).toBe('public, durable, s-maxage=300, stale-while-revalidate=600');
    expect(body).toMatchObject({
      from: '2025-04-02T00:00:00.000Z',
      to: '2025-04-04T00:00:00.000Z',
      cities: ['austin', 'wichita'],
      aggregate: 'none',
      truncated: false,
    });
    const expected = ['austin', 'wichita'].flatMap((c) =>
      site.store.pollen.hours(c, H('2025-04-02T00:00:00Z'), H('2025-04-04T00:00:00Z')).map((h) => [c, h.hour, h.tree, h.species]),
    );
    expect(body.rows.map((r: Json) => [r.city, Date.parse(r.periodStart) / 3_600_000, r.tree, r.species])).toEqual(expected);
  });

  it('takes RFC 3339 offsets, starting at the first whole hour inside the window', async () => {
    const { body } = await rangeJson('city=austin&from=2025-04-02T00:30:00-05:00&to=2025-04-02T08:00:00%2B02:00');
    expect(body.from).toBe('2025-04-02T05:30:00.000Z');
    expect(body.to).toBe('2025-04-02T06:00:00.000Z');
    expect(body.rows.map((r: Json) => r.periodStart)).toEqual([]); // 05:30 .. 06:00 holds no hour start
    const wider = (await rangeJson('city=austin&from=2025-04-02T00:30:00-05:00&to=2025-04-02T09:00:00%2B02:00')).body;
    expect(wider.rows.map((r: Json) => r.periodStart)).toEqual(['2025-04-02T06:00:00.000Z']);
  });

  it('aggregates by UTC day only the hours inside the window', async () => {
    const { body } = await rangeJson('city=scranton&aggregate=day&from=2025-04-02T12:00:00Z&to=2025-04-04T06:00:00Z');
    expect(body.rows.map((r: Json) => r.periodStart)).toEqual([
      '2025-04-02T00:00:00.000Z',
      '2025-04-03T00:00:00.000Z',
      '2025-04-04T00:00:00.000Z',
    ]);
    const windows = [
      ['2025-04-02T12:00:00Z', '2025-04-03T00:00:00Z'],
      ['2025-04-03T00:00:00Z', '2025-04-04T00:00:00Z'],
      ['2025-04-04T00:00:00Z', '2025-04-04T06:00:00Z'],
    ];
    body.rows.forEach((row: Json, i: number) => {
      const hours = site.store.pollen.hours('scranton', H(windows[i]![0]!), H(windows[i]![1]!));
      const sum = hours.reduce((a, h) => a + (h.tree ?? 0), 0);
      const n = hours.filter((h) => h.tree !== null).length;
      expect(row.tree).toBe(Math.round(sum / n));
      expect(row).toEqual({ city: 'scranton', periodStart: row.periodStart, ...pickRange(dailyMeans(hours)) });
      expect(row).not.toHaveProperty('peak_tree');
    });
  });

  it('cuts at the limit and says so', async () => {
    const { res, body } = await rangeJson('from=2025-04-01&to=2025-04-11&limit=5');
    expect(body.rows).toHaveLength(5);
    expect(body.truncated).toBe(true);
    expect(res.headers.get('x-truncated')).toBe('true');
    expect(body.rows.every((r: Json) => r.city === 'austin')).toBe(true);
    const all = (await rangeJson('from=2025-04-01&to=2025-04-11&limit=50000')).body;
    expect(all.truncated).toBe(false);
    expect(all.rows).toHaveLength(site.store.checks.counts().hours!);
    expect(all.cities).toEqual(DEFAULT_CITIES.list.map((c) => c.slug).sort());
  });

  it('returns the same rows as CSV, species omitted', async () => {
    const res = await range('city=honolulu&from=2025-04-03&to=2025-04-03T03:00:00Z&format=csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const json = (await rangeJson('city=honolulu&from=2025-04-03&to=2025-04-03T03:00:00Z')).body;
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('city,periodStart,tree,grass,weed,total,timezone,risk_tree,risk_grass,risk_weed,provider');
    expect(lines.slice(1)).toEqual(
      json.rows.map((r: Json) =>
        [
          r.city,
          r.periodStart,
          r.tree ?? '',
          r.grass ?? '',
          r.weed ?? '',
          r.total ?? '',
          r.timezone ?? '',
          r.risk_tree ?? '',
          r.risk_grass ?? '',
          r.risk_weed ?? '',
          // Every CSV row names its provider; the JSON names it once when all rows share it.
          json.provider,
        ].join(','),
      ),
    );
  });

  it.each(['gzip', 'br'])('compresses with %s when the client accepts it, to the same rows', async (encoding) => {
    const plain = await (await range('from=2025-04-01&to=2025-04-05')).text();
    const res = await range('from=2025-04-01&to=2025-04-05', { headers: { 'accept-encoding': encoding } });
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe(plain); // fetch decodes it
  });

  const invalid = (name: string, expected: string) => ({
    error: `Invalid parameter '${name}': expected ${expected}`,
    code: 'INVALID_PARAMETER',
    parameter: name,
  });
  const AFTER_TEXT = "the last row received, as 'city,periodStart' (the next link of a truncated answer)";
  const TIME = 'a date (YYYY-MM-DD) or an RFC 3339 date-time with offset, such as 2025-04-01T06:00:00-05:00';
  it.each([
    ['to=2025-04-02', 400, invalid('from', TIME)],
    ['from=2025-04-02', 400, invalid('to', TIME)],
    ['from=2025-04-02&to=2025-04-02', 400, invalid('to', "a time later than 'from'")],
    ['from=2025-04-03&to=2025-04-02', 400, invalid('to', "a time later than 'from'")],
    ['from=2025-04-02T10:00:00&to=2025-04-03', 400, invalid('from', TIME)],
    ['from=2025-04-02T24:00:00Z&to=2025-04-03', 400, invalid('from', TIME)],
    ['from=2025-02-30&to=2025-04-03', 400, invalid('from', TIME)],
    ['from=2025-04-01&from=2025-04-02&to=2025-04-03', 400, invalid('from', `${TIME}, given once`)],
    [
      'from=2025-04-01&to=2025-04-03&city=austin,atlantis,nowhere',
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
    ['from=2025-04-01&to=2025-04-03&city=austin,,tulsa', 400, invalid('city', 'comma-separated city slugs from GET /api/cities')],
    ['from=2025-04-01&to=2025-04-03&aggregate=week', 400, invalid('aggregate', "'none' or 'day'")],
    ['from=2025-04-01&to=2025-04-03&limit=0', 400, invalid('limit', 'an integer from 1 to 50000')],
    ['from=2025-04-01&to=2025-04-03&limit=50001', 400, invalid('limit', 'an integer from 1 to 50000')],
    ['from=2025-04-01&to=2025-04-03&limit=2.5', 400, invalid('limit', 'an integer from 1 to 50000')],
    ['from=2025-04-01&to=2025-04-03&limit=', 400, invalid('limit', 'an integer from 1 to 50000')],
    ['from=2025-04-01&to=2025-04-03&format=xml', 400, invalid('format', "'json' or 'csv'")],
    ['from=2025-04-01&to=2025-04-03&after=austin', 400, invalid('after', AFTER_TEXT)],
    ['from=2025-04-01&to=2025-04-03&after=austin,yesterday', 400, invalid('after', AFTER_TEXT)],
    ['from=2025-04-01&to=2025-04-03&city=austin&after=tulsa,2025-04-01T05:00:00.000Z', 400, invalid('after', AFTER_TEXT)],
    [
      'from=2025-04-01&to=2025-04-03&after=austin,2025-04-01T05:00:00.000Z&after=austin,2025-04-01T06:00:00.000Z',
      400,
      invalid('after', `${AFTER_TEXT}, given once`),
    ],
  ])('answers %s with %i', async (query, status, expected) => {
    const { res, body } = await rangeJson(query);
    expect(res.status).toBe(status);
    expect(body).toEqual(expected);
  });
});

/** The in-process answer to a range query within `maxBytes`, its body whole. */
async function answer(query: string, maxBytes: number) {
  const r = await respond(
    { method: 'GET', path: '/api/pollen-range', query: new URLSearchParams(query) },
    withSettings(storeContext(site.store), { maxBodyBytes: maxBytes }),
  );
  return { headers: r.headers, text: [...r.body].join('') };
}

describe('a byte budget for every encoding', () => {
  /** Every row, following `next` from the first page. */
  const pages = async (query: string, maxBytes: number) => {
    const rows: Json[] = [];
    const sizes: number[] = [];
    for (let q: string | undefined = query, n = 0; q !== undefined; n++) {
      expect(n).toBeLessThan(500);
      const { text, headers } = await answer(q, maxBytes);
      sizes.push(Buffer.byteLength(text));
      const body = JSON.parse(text) as Json;
      expectMatchesOpenApi('/api/pollen-range', 200, body);
      expect(headers['X-Total-Rows']).toBe(String(body.rows.length));
      expect(body.truncated).toBe(body.next !== undefined);
      rows.push(...body.rows);
      q = body.next === undefined ? undefined : new URL(body.next, 'http://x').search.slice(1);
    }
    return { rows, sizes };
  };

  it.each([
    ['hourly rows', 'from=2025-04-01&to=2025-04-11&limit=50000'],
    ['hourly rows of some cities from an instant', 'city=wichita,austin,honolulu&from=2025-04-02T07:00:00-05:00&to=2025-04-09&limit=50000'],
    ['UTC days', 'from=2025-04-01&to=2025-04-11&aggregate=day&limit=50000'],
    ['local days', 'from=2025-04-01&to=2025-04-11&aggregate=day&timezone=local&limit=50000'],
    ['hourly rows cut by a limit too', 'from=2025-04-01&to=2025-04-11&limit=7'],
  ])('stops whole JSON before the budget, says truncated, and next continues to exactly the same %s', async (_, query) => {
    const whole = JSON.parse((await answer(query.replace(/limit=\d+/, 'limit=50000'), 1e9)).text) as Json;
    const { rows, sizes } = await pages(query, 6_000);
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(6_000);
    expect(rows).toEqual(whole.rows);
  });

  it('keeps CSV within the budget too', async () => {
    const { text, headers } = await answer('from=2025-04-01&to=2025-04-11&format=csv&limit=50000', 2_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(1_500);
    expect(headers['X-Truncated']).toBe('true');
    expect(text.trimEnd().split('\n')).toHaveLength(Number(headers['X-Total-Rows']) + 1);
  });

  it('sizes no row past the bound that lets small answers skip the sizing pass', async () => {
    const query = new URLSearchParams('from=2025-04-01&to=2025-04-11&limit=50000');
    const bound = rowBound(site.store, parseRangeQuery(query, site.store.cities.set()));
    const body = JSON.parse((await answer(query.toString(), 1e9)).text) as Json;
    const longest = Math.max(...body.rows.map((r: Json) => Buffer.byteLength(JSON.stringify(r))));
    expect(longest).toBeGreaterThan(200);
    expect(longest).toBeLessThan(bound);
    expect(bound).toBeLessThan(4_000); // so a range of up to 5,000 rows is streamed in one pass
  });

  it('answers an untruncated window whole, with no next', async () => {
    const body = JSON.parse((await answer('city=austin&from=2025-04-01&to=2025-04-02', 20_000_000)).text) as Json;
    expect(body.truncated).toBe(false);
    expect(body).not.toHaveProperty('next');
  });

  it('lets other work run while it sizes the rows against the budget, however many there are', async () => {
    // Each turn of the event loop the sizing pass yields runs one of these; a pass that held the
    // process would end before any did.
    let turns = 0;
    let stop = false;
    const tick = () => {
      if (stop) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const query = 'from=2025-04-01&to=2025-04-11&limit=50000';
    const all = Number((await answer(query, 1e9)).headers['X-Total-Rows']);
    // Room for every row but not for as many rows of the bound: the pass sizes them all.
    const room = all * rowBound(site.store, parseRangeQuery(new URLSearchParams(query), site.store.cities.set())) - 1;
    turns = 0;
    const { headers } = await answer(query, room);
    stop = true;
    expect(Number(headers['X-Total-Rows'])).toBe(all);
    expect(all).toBeGreaterThan(500);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(all / 500));
  });
});

describe('the largest range answer', () => {
  it('answers 50,000 hourly rows of many cities with species within 20,000,000 bytes, whole JSON without compression, the same rows gzip-compressed under 6 MB', async () => {
    const dir = tempDir();
    // Twelve cities over two whole quarters: the rows of 23 city-quarters (the most one answer reads) pass 20,000,000 bytes.
    const cities = [
      'austin',
      'dallas',
      'houston',
      'las-vegas',
      'los-angeles',
      'mcallen',
      'miami',
      'new-orleans',
      'phoenix',
      'san-antonio',
      'san-francisco',
      'tulsa',
    ];
    const db = await buildStore(dir, cities, { from: dayNumber('2025-01-01'), to: dayNumber('2025-06-30') });
    process.env.POLLEN_DB = db;
    const server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
    try {
      const url = `${server.url}/api/pollen-range?from=2025-01-01&to=2025-07-01&limit=50000`;
      const raw = (encoding: string) =>
        new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
          request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          })
            .on('error', reject)
            .end();
        });
      const gzip = await raw('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['x-truncated']).toBe('true');
      expect(gzip.bytes.length).toBeLessThan(6 * 1024 * 1024);
      const identity = await raw('identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.bytes.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
      expect(identity.bytes.equals(gunzipSync(gzip.bytes))).toBe(true);
      // 11 cities and a half of 181 days with species is about 20.4 MB: the bytes cut it, before the limit and the shards' bound.
      const body = JSON.parse(identity.bytes.toString()) as Json;
      expect(body.truncated).toBe(true);
      expect(body.rows.length).toBeGreaterThan(45_000);
      expect(body.rows.length).toBeLessThan(50_000);
      expect(identity.headers['x-total-rows']).toBe(String(body.rows.length));
      expect(body.rows[0].species).not.toBeNull();
      const last = body.rows.at(-1);
      expect(new URL(body.next, 'http://x').searchParams.get('after')).toBe(`${last.city},${last.periodStart}`);
      console.log(`largest range answer: ${identity.bytes.length} bytes identity, ${gzip.bytes.length} bytes gzip`);
    } finally {
      await server.close();
      process.env.POLLEN_DB = site.db;
    }
  });
});

function pickRange(m: ReturnType<typeof dailyMeans>) {
  const { tree, grass, weed, total, timezone, species, risk_tree, risk_grass, risk_weed } = m;
  return { tree, grass, weed, total, timezone, species, risk_tree, risk_grass, risk_weed };
}
