/**
 * `smoke`: conformance of any deployment, local or real, from the outside. This machine reaches
 * no Netlify site, so this is the check a deployer (and the scheduled rebuild, against its draft
 * deploy) runs: every endpoint and mode, the errors, CORS and cache headers present exactly once,
 * extra parameters harmless, placeholder traversal refused, health on the expected Node major, a
 * store-backed function answering, nearest (and its ZIP table), MCP, and at most one forecast
 * request (alerts read the forecast's cache).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DAY_MS } from '../domain/dates.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeOptions {
  /** The Node.js major the functions must run on (from /api/health). */
  expectNode?: number;
  timeoutMs?: number;
}

interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: () => Json;
}

/** A JSON body whose fields the checks read and test one by one. */
// biome-ignore lint/suspicious/noExplicitAny: the checks probe bodies of any shape, each field tested before use
type Json = Record<string, any>;

/** A check failed for this reason. */
class Failure extends Error {}
const must = (condition: unknown, why: string): void => {
  if (!condition) throw new Failure(why);
};

/** Runs every check against `base` (an http or https URL without a path). */
export async function smoke(base: string, options: SmokeOptions = {}): Promise<Check[]> {
  const checks: Check[] = [];
  const timeout = options.timeoutMs ?? 20_000;
  const get = async (path: string, init: RequestInit = {}): Promise<Got> => {
    const res = await fetch(new URL(path, base), { redirect: 'manual', ...init, signal: AbortSignal.timeout(timeout) });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: () => {
        try {
          return JSON.parse(text) as Json;
        } catch {
          throw new Failure(`${path}: HTTP ${res.status} is not JSON (${text.slice(0, 80).replace(/\s+/g, ' ')})`);
        }
      },
    };
  };
  const check = async (name: string, run: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await run() });
    } catch (error) {
      const detail = error instanceof Failure ? error.message : `${error instanceof Error ? error.message : String(error)}`;
      checks.push({ name, ok: false, detail });
    }
  };
  /** A data answer: 200, JSON of this type, CORS `*` once, a cache policy given once. */
  const data = async (path: string, type = 'application/json'): Promise<Json> => {
    const r = await get(path);
    must(r.status === 200, `${path}: HTTP ${r.status} ${r.text.slice(0, 120)}`);
    must(
      (r.headers.get('content-type') ?? '').startsWith(type),
      `${path}: Content-Type ${r.headers.get('content-type')}, expected ${type}`,
    );
    headersOnce(path, r.headers);
    return r.json();
  };
  /** An error answer: this status, a JSON body with `error`, CORS once, never cached. */
  const problem = async (path: string, status: number, init?: RequestInit): Promise<Json> => {
    const r = await get(path, init);
    must(r.status === status, `${path}: HTTP ${r.status}, expected ${status}`);
    const body = r.json();
    must(typeof body.error === 'string', `${path}: no error message in ${r.text.slice(0, 120)}`);
    must(
      r.headers.get('access-control-allow-origin') === '*',
      `${path}: Access-Control-Allow-Origin ${JSON.stringify(r.headers.get('access-control-allow-origin'))}`,
    );
    must(
      r.headers.get('cache-control') === 'no-store',
      `${path}: Cache-Control ${JSON.stringify(r.headers.get('cache-control'))}, expected no-store`,
    );
    return body;
  };

  let city = '';
  let date = '';
  await check('health: fresh data, on the expected Node.js', async () => {
    const r = await get('/api/health');
    const h = r.json();
    must(
      r.headers.get('cache-control') === 'no-store',
      `Cache-Control ${JSON.stringify(r.headers.get('cache-control'))}, expected no-store`,
    );
    must(
      r.status === 200 && h.status === 'ok',
      `HTTP ${r.status}, status ${JSON.stringify(h.status)}: newest hour ${h.latestHour}, ${h.dataAgeHours} hours old`,
    );
    const major = Number(/^v(\d+)\./.exec(String(h.node))?.[1]);
    if (options.expectNode !== undefined)
      must(major === options.expectNode, `functions run Node ${h.node}, expected ${options.expectNode}`);
    return `${h.status}, ${h.dataAgeHours} h old, ${h.cities} cities, provider ${h.provider}, Node ${h.node}`;
  });
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  await check('latest date and available dates', async () => {
    date = String((await data('/api/latest-date')).date);
    const { dates } = await data('/api/available-dates');
    must(Array.isArray(dates) && dates[0] === date, `available-dates starts ${dates?.[0]}, latest-date is ${date}`);
    return `${date}, ${dates.length} dates`;
  });
  await check('cities', async () => {
    const body = await data('/api/cities');
    must(Array.isArray(body.cities) && body.cities.length > 0, 'no cities');
    // The checks read a city with data on the latest date.
    const withData = (await data(`/api/pollen?${q({ date })}`)).rows?.[0]?.city;
    must(typeof withData === 'string' && body.cities.some((c: Json) => c.slug === withData), `no listed city has data on ${date}`);
    city = withData;
    return `${body.cities.length} cities; checking ${city}`;
  });

  await check('nearest: a city from its own position, a ZIP code (the table ships), a point at sea, a bad ZIP', async () => {
    const listed = ((await data('/api/cities')).cities as Json[]).find((c) => c.slug === city);
    must(listed && typeof listed.lat === 'number' && typeof listed.lon === 'number', `/api/cities gives ${city} no lat and lon`);
    const here = await data(`/api/nearest?${q({ lat: String(listed!.lat), lon: String(listed!.lon) })}`);
    must(
      here.cities?.[0]?.slug === city && here.cities[0].distance_km === 0,
      `${city}'s own position gives ${JSON.stringify(here.cities?.[0])}`,
    );
    // Manhattan: any deployment has a city within 1,000 km of it or answers NO_CITY_NEARBY; UNKNOWN_ZIP means no ZIP table.
    const r = await get(`/api/nearest?${q({ zip: '10001', limit: '10', max_km: '1000' })}`);
    const byZip = r.json();
    must(
      (r.status === 200 && byZip.origin?.zip === '10001') || (r.status === 404 && byZip.code === 'NO_CITY_NEARBY'),
      `zip=10001: HTTP ${r.status} ${r.text.slice(0, 160)}`,
    );
    const sea = await problem(`/api/nearest?${q({ lat: '0', lon: '-140' })}`, 404);
    must(sea.code === 'NO_CITY_NEARBY' && typeof sea.nearest === 'string', `a point at sea: ${JSON.stringify(sea)}`);
    const bad = await problem(`/api/nearest?${q({ zip: '1234' })}`, 400);
    must(/'zip'/.test(bad.error), `400 names no parameter: ${bad.error}`);
    return `${city} at 0 km; zip 10001: ${
      r.status === 200
        ? byZip.cities
            .map((c: Json) => c.slug)
            .slice(0, 3)
            .join(', ')
        : 'none within 1000 km'
    }; at sea: ${sea.nearest} at ${sea.distance_km} km`;
  });
  await check('pollen: a city-day, a city, a date, and neither', async () => {
    const hourly = await data(`/api/pollen?${q({ city, date })}`);
    must(hourly.rows?.length > 0 && typeof hourly.rows[0].ts === 'string', 'no hourly rows');
    const daily = await data(`/api/pollen?${q({ city })}`);
    must(daily.rows?.length > 0 && daily.rows[0].date === date, `daily rows start ${daily.rows?.[0]?.date}`);
    const cross = await data(`/api/pollen?${q({ date })}`);
    must(cross.rows?.length > 0, 'no cross-city rows');
    const latest = await data('/api/pollen');
    must(JSON.stringify(latest) === JSON.stringify(cross), 'the parameterless answer is not the latest date');
    return `${hourly.rows.length} hours, ${daily.rows.length} days, ${cross.rows.length} cities`;
  });
  await check("season: a city's default answer, an earlier year and one category, a bad category", async () => {
    const latest = await data(`/api/season?${q({ city })}`);
    must(latest.city === city && Array.isArray(latest.categories) && latest.categories.length >= 4, 'no categories');
    // Each category has its own years (tree's from 1 October): grass's are the ones to ask grass for.
    const years = (latest.years as Json[]).filter((y) => y.category === 'grass').map((y) => y.year as number);
    const grass = await data(`/api/season?${q({ city, year: String(years[0]), category: 'grass' })}`);
    must(
      grass.year === years[0] && grass.categories.length === 1 && grass.categories[0].category === 'grass',
      'not the year and category asked',
    );
    const bad = await problem(`/api/season?${q({ city, category: 'Tree' })}`, 400);
    must(/'category'/.test(bad.error), `400 names no parameter: ${bad.error}`);
    const tree = (latest.categories as Json[]).find((c) => c.category === 'tree');
    return `${latest.year}: tree ${tree?.season ? `from ${tree.season.start}` : `none (${tree?.reason})`}; years ${years.join(', ')}`;
  });
  await check('map: a date and latest, as GeoJSON', async () => {
    const map = await data(`/api/map-data?${q({ date })}`, 'application/geo+json');
    must(map.type === 'FeatureCollection' && map.date === date, `not the map of ${date}`);
    const latest = await data('/api/map-data', 'application/geo+json');
    must(latest.date === date, `latest map is of ${latest.date}`);
    return `${map.features.length} features`;
  });
  await check('weather: a city, a city-day, a date, and neither', async () => {
    const byCity = await data(`/api/weather?${q({ city })}`);
    must(Array.isArray(byCity.rows), 'no rows');
    const day = byCity.rows[0]?.date as string | undefined;
    if (day) must((await data(`/api/weather?${q({ city, date: day })}`)).rows.length === 1, `no row for ${city} on ${day}`);
    const latest = await data('/api/weather');
    must(Array.isArray(latest.rows), 'no rows');
    if (latest.date) must(Array.isArray((await data(`/api/weather?${q({ date: latest.date })}`)).rows), 'no rows');
    return `${byCity.rows.length} days for ${city}, newest ${day ?? 'none'}`;
  });
  await check('pollen-range: hourly, daily, CSV (a store-backed function)', async () => {
    const to = new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    const hourly = await data(`/api/pollen-range?${q({ from: date, to, city })}`);
    must(hourly.rows?.length > 0, 'no rows');
    const daily = await data(`/api/pollen-range?${q({ from: date, to, city, aggregate: 'day' })}`);
    must(daily.rows?.length === 1, `${daily.rows?.length} daily rows`);
    const csv = await get(`/api/pollen-range?${q({ from: date, to, city, format: 'csv' })}`);
    must(
      csv.status === 200 && (csv.headers.get('content-type') ?? '').startsWith('text/csv'),
      `CSV: HTTP ${csv.status} ${csv.headers.get('content-type')}`,
    );
    return `${hourly.rows.length} hours, CSV ${csv.text.split('\n').length - 2} lines`;
  });
  await check('pollen-range repeated: CDN cache status', async () => {
    const path = `/api/pollen-range?${q({ from: date, to: `${date}T06:00:00Z`, city, aggregate: 'none' })}`;
    await get(path);
    const again = await get(path);
    must(again.status === 200, `HTTP ${again.status}`);
    return again.headers.get('cache-status') ?? 'the host sends no Cache-Status (a local server has no CDN)';
  });
  await check('bulk files: the manifest, and a byte range of a Parquet file', async () => {
    const manifest = await data('/data/bulk/index.json');
    const file = (manifest.files as Json[] | undefined)?.find((f) => f.format === 'parquet');
    must(file, 'the manifest lists no Parquet file');
    const head = await fetch(new URL(file!.path, base), {
      headers: { range: 'bytes=0-3', 'accept-encoding': 'identity' },
      signal: AbortSignal.timeout(timeout),
    });
    const bytes = Buffer.from(await head.arrayBuffer());
    must(
      head.status === 206,
      `${file!.path} with Range: bytes=0-3: HTTP ${head.status}, expected 206 (the CDN must serve byte ranges for HTTP Parquet readers)`,
    );
    must(bytes.toString('latin1') === 'PAR1', `${file!.path} bytes 0-3: ${JSON.stringify(bytes.toString('latin1'))}, expected "PAR1"`);
    must(
      head.headers.get('content-range') === `bytes 0-3/${file!.bytes}`,
      `Content-Range ${head.headers.get('content-range')}, expected bytes 0-3/${file!.bytes}`,
    );
    must(!head.headers.get('content-encoding'), `Content-Encoding ${head.headers.get('content-encoding')} on a Parquet file`);
    return `${manifest.files.length} files; ${file!.path}: 206, PAR1, of ${file!.bytes} bytes`;
  });
  await check('the fallback function: a day outside the snapshot is empty rows', async () => {
    const body = await data(`/api/pollen?${q({ city, date: '1999-01-01' })}`);
    must(Array.isArray(body.rows) && body.rows.length === 0, `rows: ${JSON.stringify(body.rows)?.slice(0, 80)}`);
    return '200 with empty rows';
  });
  await check('local days: every form, timezone=UTC as without it, and a bad value refused', async () => {
    const next = new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    const local = (body: Json, what: string) => must(body.timezone === 'local', `${what} does not say "timezone": "local"`);
    const hourly = await data(`/api/pollen?${q({ city, date, timezone: 'local' })}`);
    local(hourly, 'a local city-day');
    const daily = await data(`/api/pollen?${q({ city, timezone: 'local' })}`);
    local(daily, 'local daily rows');
    must(typeof daily.rows?.[0]?.hours === 'number', 'local daily rows carry no hours');
    local(await data(`/api/pollen?${q({ date, timezone: 'local' })}`), 'a local date across cities');
    local(await data(`/api/map-data?${q({ date, timezone: 'local' })}`, 'application/geo+json'), 'the local map');
    const latest = await data(`/api/pollen?${q({ timezone: 'local' })}`);
    must(typeof latest.date === 'string' && latest.date <= date, `the latest local day is ${latest.date}, after ${date}`);
    const range = await data(`/api/pollen-range?${q({ from: date, to: next, city, aggregate: 'day', timezone: 'local' })}`);
    must(
      range.from === date && range.timezone === 'local' && range.rows?.length === 1,
      `local range: from ${range.from}, ${range.rows?.length} rows`,
    );
    for (const path of [`/api/pollen?${q({ city, date })}`, `/api/pollen?${q({ city })}`]) {
      must(
        JSON.stringify(await data(`${path}&timezone=UTC`)) === JSON.stringify(await data(path)),
        `${path} answers differently with timezone=UTC`,
      );
    }
    const bad = await problem(`/api/pollen?${q({ city, timezone: 'EST' })}`, 400);
    must(/'timezone'/.test(bad.error), `400 names no parameter: ${bad.error}`);
    return `${hourly.rows.length} hours of ${city}'s local ${date}, ${daily.rows[0].hours} in its newest local day`;
  });
  await check('forecast (one upstream request at most; the day view reads the cache)', async () => {
    const body = await data(`/api/forecast?${q({ city })}`);
    must(Array.isArray(body.rows) && body.rows.length > 0, 'no rows');
    const days = await data(`/api/forecast?${q({ city, aggregate: 'day', timezone: 'local' })}`);
    must(
      days.aggregate === 'day' && days.rows?.every((r: Json) => typeof r.date === 'string' && typeof r.hours === 'number'),
      'aggregate=day gave no day rows',
    );
    return `${body.rows.length} hours from ${body.source}${body.stale ? ', stale' : ''}; ${days.rows.length} local days`;
  });
  await check("alerts: JSON, calendar and feeds from the forecast's cache, linking to this host", async () => {
    // min=Low: the forecast's days most likely to hold an alert, so the formats have entries to compare.
    const body = await data(`/api/alerts?${q({ city, min: 'Low' })}`);
    must(
      Array.isArray(body.alerts) && Array.isArray(body.dates) && body.dates.length > 0,
      `no alerts or dates: ${JSON.stringify(body).slice(0, 120)}`,
    );
    const form = async (format: string, type: string): Promise<string> => {
      const path = `/api/alerts?${q({ city, min: 'Low', format })}`;
      const r = await get(path);
      must(
        r.status === 200 && (r.headers.get('content-type') ?? '').startsWith(type),
        `${path}: HTTP ${r.status}, Content-Type ${r.headers.get('content-type')}`,
      );
      headersOnce(path, r.headers);
      return r.text;
    };
    const ics = await form('ics', 'text/calendar');
    must(
      ics.startsWith('BEGIN:VCALENDAR') && /\r\nREFRESH-INTERVAL;VALUE=DURATION:PT6H\r\n/.test(ics),
      'the calendar has no six-hour REFRESH-INTERVAL',
    );
    const uids = [...ics.matchAll(/\r\nUID:(\S+)\r\n/g)].map((m) => `urn:uuid:${m[1]}`);
    must(
      JSON.stringify(uids) === JSON.stringify(body.alerts.map((a: Json) => a.id)),
      `calendar UIDs ${uids.join(' ')} are not the alerts' ids`,
    );
    const atom = await form('atom', 'application/atom+xml');
    // The feed links to the host it was asked on: what Netlify passes a function as request.url.
    const self = /<link rel="self" href="([^"]+)"/.exec(atom)?.[1]?.replaceAll('&amp;', '&') ?? '';
    must(new URL(self).origin === new URL(base).origin, `the Atom feed's self link is ${self}, not on ${new URL(base).origin}`);
    const feed = JSON.parse(await form('jsonfeed', 'application/feed+json')) as Json;
    must(
      feed.version === 'https://jsonfeed.org/version/1.1' && feed.items.length === body.alerts.length,
      `JSON Feed ${feed.version} with ${feed.items?.length} items`,
    );
    return `${body.alerts.length} of ${body.dates.length} local days at Low or above${body.stale ? ', stale' : ''}; ics, atom and jsonfeed agree`;
  });
  await check('errors: 400 naming the parameter, 404 UNSUPPORTED_CITY, 405, unknown path', async () => {
    const bad = await problem(`/api/pollen?${q({ city, date: '2025-02-30' })}`, 400);
    must(/'date'/.test(bad.error), `400 names no parameter: ${bad.error}`);
    const unknown = await problem(`/api/pollen?${q({ city: 'atlantis-smoke' })}`, 404);
    must(unknown.code === 'UNSUPPORTED_CITY' && unknown.city === 'atlantis-smoke', `404 body ${JSON.stringify(unknown)}`);
    const post = await get('/api/cities', { method: 'POST' });
    must(post.status === 405 && post.headers.get('allow') !== null, `POST: HTTP ${post.status}, Allow ${post.headers.get('allow')}`);
    await problem('/api/no-such-endpoint', 404);
    return '400, 404, 405, 404';
  });
  await check('extra query parameters change nothing', async () => {
    for (const [path, type] of [
      [`/api/pollen?${q({ city, date })}`, 'application/json'],
      [`/api/pollen?${q({ city })}`, 'application/json'],
      [`/api/map-data?${q({ date })}`, 'application/geo+json'],
      [`/api/weather?${q({ city })}`, 'application/json'],
    ] as const) {
      const plain = JSON.stringify(await data(path, type));
      must(JSON.stringify(await data(`${path}&utm_source=smoke`, type)) === plain, `${path} answers differently with &utm_source=smoke`);
    }
    return '4 forms';
  });
  await check('placeholder traversal refused', async () => {
    const cities = (await get('/api/cities')).text;
    for (const path of [
      `/api/pollen?city=${city}&date=..%2F..%2Fcities`,
      `/api/pollen?city=..%2Fcities&date=${date}`,
      '/api/map-data?date=..%2Fcities',
    ]) {
      const r = await get(path);
      must(
        r.status >= 400 && r.status < 500 && r.text !== cities && typeof r.json().error === 'string',
        `${path}: HTTP ${r.status} ${r.text.slice(0, 80)}`,
      );
    }
    return 'each a JSON 4xx';
  });
  await check('discovery: OpenAPI, llms.txt, the landing page', async () => {
    const doc = await data('/openapi.json');
    must(doc.openapi === '3.1.0' && typeof doc.paths?.['/api/pollen'] === 'object', 'not the OpenAPI 3.1 document');
    const llms = await get('/llms.txt');
    must(llms.status === 200 && llms.text.includes('/api/pollen'), `llms.txt: HTTP ${llms.status}`);
    const page = await get('/');
    must(page.status === 200 && (page.headers.get('content-type') ?? '').startsWith('text/html'), `/: HTTP ${page.status}`);
    return `OpenAPI ${doc.info?.version}`;
  });
  await check('MCP: tools/list', async () => {
    const client = new Client({ name: 'pollen-api-smoke', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base)));
      const { tools } = await client.listTools();
      must(
        tools.some((t) => t.name === 'list_cities'),
        `tools: ${tools.map((t) => t.name).join(', ')}`,
      );
      return `${tools.length} tools`;
    } finally {
      await client.close();
    }
  });
  return checks;
}

/** CORS `*` and the cache policy each given once: a CDN joining two rules' values would show `*, *`. */
function headersOnce(path: string, headers: Headers): void {
  const origin = headers.get('access-control-allow-origin');
  must(origin === '*', `${path}: Access-Control-Allow-Origin ${JSON.stringify(origin)}, expected exactly *`);
  const cache = headers.get('cache-control') ?? '';
  must(cache !== '', `${path}: no Cache-Control`);
  const directives = cache.split(',').map((d) => d.trim().split('=')[0]);
  must(new Set(directives).size === directives.length, `${path}: Cache-Control given twice: ${cache}`);
}

/** The checks as a table. */
export function formatSmoke(base: string, checks: readonly Check[]): string {
  const failed = checks.filter((c) => !c.ok).length;
  const rows = checks.map((c) => `| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail.replace(/\|/g, '\\|')} |`);
  return [
    `smoke: ${base}`,
    '',
    '| check | result | detail |',
    '|---|---|---|',
    ...rows,
    '',
    `smoke: ${checks.length - failed} of ${checks.length} checks passed`,
    '',
  ].join('\n');
}

/** The base URL of a deployment, or an error saying why this is not one. */
export function parseBase(text: string | undefined): URL {
  if (!text) throw new RangeError('a deployment URL is required, such as https://your-site.netlify.app');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`not an http(s) URL: ${JSON.stringify(text)}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new RangeError(`give the site's root, without a path or query: ${JSON.stringify(text)}`);
  return url;
}
