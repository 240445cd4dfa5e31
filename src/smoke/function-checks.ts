/**
 * smoke's checks of the functions that compute on request: that each has what it needs in its
 * environment (the forecast's provider key and Netlify Blobs, for the forecast function and MCP),
 * that their answers have one URL and one cache entry, and that MCP takes one message per POST.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { allergensOf } from '../domain/species/allergens.js';
import { type Species, shapeOf } from '../domain/species/payload.js';
import { type Got, headersOnce, type Json, must, type Probe, q } from './probe.js';

/** A forecast comes from the cache or from the provider that filled the store, never another. */
function fromTheStoresProvider(p: Probe, source: unknown, where: string): void {
  must(
    source === 'cache' || source === p.found.provider,
    `${where} came from ${JSON.stringify(source)}, but the store from ${p.found.provider}: forecasts must come from the store's provider`,
  );
}

/** A 503 naming what the function lacks (a provider's key, a Blobs context) fails with its message. */
function available(r: Got, path: string): Json {
  const body = r.json();
  must(
    r.status === 200,
    `${path}: HTTP ${r.status} ${String(body.error ?? '')} (the forecast function's environment: see docs/deploying.md, "What each function needs")`,
  );
  return body;
}

/** The forecast map holds the city the forecast check just asked for, marked forecast, with its day view's levels; it asks no provider. */
export async function forecastMap(p: Probe): Promise<string> {
  const { city } = p.found;
  const path = '/api/forecast-map';
  const r = await p.get(path);
  const map = available(r, path);
  headersOnce(path, r.headers);
  must(map.type === 'FeatureCollection' && map.forecast === true && map.day === 'today', 'not the forecast map of today');
  const feature = (map.features as Json[]).find((f) => f.properties?.city === city);
  must(feature !== undefined, `${city}, whose forecast was just asked for, is not on the forecast map`);
  const days = await p.data(`/api/forecast?${q({ city, aggregate: 'day', timezone: 'local' })}`);
  const today = (days.rows as Json[]).find((r) => r.date === feature!.properties.date);
  must(
    today !== undefined &&
      today.peak_risk_tree === feature!.properties.risk_tree &&
      today.peak_risk_grass === feature!.properties.risk_grass,
    `${city}'s forecast map levels are not its forecast's of ${feature!.properties.date}`,
  );
  return `${map.features.length} cities with a cached forecast; ${city} agrees with its forecast`;
}

export async function forecast(p: Probe): Promise<string> {
  const { city } = p.found;
  const path = `/api/forecast?${q({ city })}`;
  const r = await p.get(path);
  const body = available(r, path);
  headersOnce(path, r.headers);
  must(Array.isArray(body.rows) && body.rows.length > 0, 'no rows');
  fromTheStoresProvider(p, body.source, 'the forecast');
  const days = await p.data(`/api/forecast?${q({ city, aggregate: 'day', timezone: 'local' })}`);
  must(
    days.aggregate === 'day' && days.rows?.every((r: Json) => typeof r.date === 'string' && typeof r.hours === 'number'),
    'aggregate=day gave no day rows',
  );
  return `${body.rows.length} hours from ${body.source}${body.stale ? ', stale' : ''}; ${days.rows.length} local days`;
}

export async function alerts(p: Probe): Promise<string> {
  const { city } = p.found;
  // min=Low: the forecast's days most likely to hold an alert, so the formats have entries to compare.
  const body = await p.data(`/api/alerts?${q({ city, min: 'Low' })}`);
  must(
    Array.isArray(body.alerts) && Array.isArray(body.dates) && body.dates.length > 0,
    `no alerts or dates: ${JSON.stringify(body).slice(0, 120)}`,
  );
  const form = async (format: string, type: string): Promise<string> => {
    const path = `/api/alerts?${q({ city, min: 'Low', format })}`;
    const r = await p.get(path);
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
  must(new URL(self).origin === new URL(p.base).origin, `the Atom feed's self link is ${self}, not on ${new URL(p.base).origin}`);
  const feed = JSON.parse(await form('jsonfeed', 'application/feed+json')) as Json;
  must(
    feed.version === 'https://jsonfeed.org/version/1.1' && feed.items.length === body.alerts.length,
    `JSON Feed ${feed.version} with ${feed.items?.length} items`,
  );
  return `${body.alerts.length} of ${body.dates.length} local days at Low or above${body.stale ? ', stale' : ''}; ics, atom and jsonfeed agree; ${await watchesAllergen(p)}`;
}

/**
 * `species=` takes an allergen the city's data holds: the forecast function checks it against
 * the list a render leaves in the site file, so a deploy whose site file lacks it refuses every one.
 */
async function watchesAllergen(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const day = await p.data(`/api/pollen?${q({ city, date })}`);
  const held = allergensOf((day.rows as Json[]).flatMap((r) => (r.species ? [shapeOf(r.species as Species)] : [])));
  if (held.length === 0) return "no allergens in the city's data to watch";
  const slug = held[0]!.slug;
  const body = await p.data(`/api/alerts?${q({ city, min: 'Low', species: slug })}`);
  must(
    Array.isArray(body.species) && body.species.length === 1 && body.species[0].slug === slug,
    `species=${slug} was not watched: ${JSON.stringify(body.species ?? body).slice(0, 160)}`,
  );
  return `species=${slug} watched`;
}

export async function rangeCacheKey(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const path = `/api/pollen-range?${q({ from: date, to: `${date}T06:00:00Z`, city, aggregate: 'none' })}`;
  const first = await p.get(path);
  // An unknown parameter must share the entry of the request without it (Netlify-Vary names the route's own).
  const junk = await p.get(`${path}&smoke=${Math.random().toString(36).slice(2)}`);
  must(first.status === 200 && junk.status === 200, `HTTP ${first.status}, ${junk.status}`);
  must(junk.text === first.text, 'an unknown parameter changed the answer');
  return junk.headers.get('cache-status') ?? 'the host sends no Cache-Status (a local server has no CDN)';
}

export async function oneUrl(p: Probe): Promise<string> {
  const { city, date } = p.found;
  for (const path of [
    `/data/fallback/pollen-range?${q({ from: date, to: `${date}T06:00:00Z`, city })}`,
    `/data/fallback/forecast?${q({ city })}`,
  ])
    await p.problem(path, 404);
  return '/data/fallback/pollen-range and /data/fallback/forecast are 404s';
}

/** An MCP client of the deployment for the length of `use`. */
async function withMcp<T>(p: Probe, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'pollen-api-smoke', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', p.base)));
    return await use(client);
  } finally {
    await client.close();
  }
}

export async function mcpTools(p: Probe): Promise<string> {
  return withMcp(p, async (client) => {
    const { tools } = await client.listTools();
    must(
      tools.some((t) => t.name === 'list_cities'),
      `tools: ${tools.map((t) => t.name).join(', ')}`,
    );
    return `${tools.length} tools`;
  });
}

export async function mcpForecast(p: Probe): Promise<string> {
  return withMcp(p, async (client) => {
    const result = (await client.callTool({ name: 'get_forecast', arguments: { city: p.found.city } })) as {
      isError?: boolean;
      structuredContent?: Json;
      content: Array<{ text?: string }>;
    };
    must(!result.isError, `get_forecast: ${result.content[0]?.text ?? 'a tool error'} (the mcp function's environment)`);
    fromTheStoresProvider(p, result.structuredContent?.source, "MCP's forecast");
    return `${result.structuredContent?.rows?.length} hours from ${result.structuredContent?.source}`;
  });
}

export async function mcpBatch(p: Probe): Promise<string> {
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
  const r = await p.get('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify([call(1), call(2)]),
  });
  must(r.status === 400 && r.json().error?.code === -32600, `a batch of two: HTTP ${r.status} ${r.text.slice(0, 120)}`);
  must(r.headers.get('x-content-type-options') === 'nosniff', `X-Content-Type-Options ${r.headers.get('x-content-type-options')}`);
  must(r.headers.get('access-control-allow-origin') === '*', `Access-Control-Allow-Origin ${r.headers.get('access-control-allow-origin')}`);
  return '400 -32600, nosniff';
}
