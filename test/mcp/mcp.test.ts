import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSettings } from '../../src/api/contract/context.js';
import { BATCH_REFUSED, handleMcp } from '../../src/mcp/streamable-http.js';
import { MCP_RANGE_CAP } from '../../src/mcp/tools.js';
import { lazyContext, storeContext } from '../../src/wiring/contexts.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
type Json = Record<string, any>;
const TOOLS = [
  'find_city',
  'get_bulk_files',
  'list_cities',
  'get_latest_date',
  'get_pollen',
  'get_pollen_range',
  'get_season',
  'get_pollen_map',
  'get_forecast',
  'get_forecast_map',
  'get_forecast_skill',
  'get_alerts',
  'get_weather',
  'explain_risk',
];

let client: Client;
beforeAll(async () => {
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${site.server.url}/mcp`)));
});
afterAll(async () => client?.close());

const api = async (path: string) => (await (await site.get(path)).json()) as Json;
async function call(name: string, args: Json = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    structuredContent?: Json;
    content: Array<{ type: string; text: string }>;
    isError?: boolean;
  };
  if (!result.isError) expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result;
}

describe('MCP over streamable HTTP at /mcp', () => {
  it('lists every tool, read-only and idempotent, with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.idempotentHint, tool.name).toBe(true);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
    }
  });

  it.each([
    ['list_cities', {}, '/api/cities'],
    ['get_latest_date', {}, '/api/latest-date'],
    ['get_pollen', { city: 'austin', date: '2025-04-03' }, '/api/pollen?city=austin&date=2025-04-03'],
    ['get_pollen', { city: 'wichita' }, '/api/pollen?city=wichita'],
    ['get_pollen', { date: '2025-04-05' }, '/api/pollen?date=2025-04-05'],
    [
      'get_pollen_range',
      { from: '2025-04-02', to: '2025-04-03', cities: ['scranton', 'austin'], aggregate: 'day' },
      '/api/pollen-range?from=2025-04-02&to=2025-04-03&city=scranton,austin&aggregate=day&limit=2000',
    ],
    [
      'get_pollen',
      { city: 'anchorage', date: '2025-04-03', timezone: 'local' },
      '/api/pollen?city=anchorage&date=2025-04-03&timezone=local',
    ],
    ['get_pollen', { date: '2025-04-05', timezone: 'local' }, '/api/pollen?date=2025-04-05&timezone=local'],
    ['get_pollen', { city: 'wichita', timezone: 'UTC' }, '/api/pollen?city=wichita'],
    [
      'get_pollen_range',
      { from: '2025-04-02', to: '2025-04-04', cities: ['honolulu'], aggregate: 'day', timezone: 'local' },
      '/api/pollen-range?from=2025-04-02&to=2025-04-04&city=honolulu&aggregate=day&timezone=local&limit=2000',
    ],
    ['get_pollen_map', { date: '2025-04-05' }, '/api/map-data?date=2025-04-05'],
    ['get_pollen_map', { date: '2025-04-05', timezone: 'local' }, '/api/map-data?date=2025-04-05&timezone=local'],
    ['get_pollen_map', {}, '/api/map-data'],
    ['get_weather', { city: 'honolulu', date: '2025-04-06' }, '/api/weather?city=honolulu&date=2025-04-06'],
    ['get_weather', { date: '2025-04-06' }, '/api/weather?date=2025-04-06'],
    ['find_city', { lat: 30.2672, lon: -97.7431 }, '/api/nearest?lat=30.2672&lon=-97.7431'],
    ['find_city', { lat: 40, lon: -100, limit: 5, max_km: 1000 }, '/api/nearest?lat=40&lon=-100&limit=5&max_km=1000'],
    ['find_city', { zip: '78701', limit: 3 }, '/api/nearest?zip=78701&limit=3'],
    ['find_city', { zip: '96813' }, '/api/nearest?zip=96813'],
    ['get_season', { city: 'austin' }, '/api/season?city=austin'],
    [
      'get_season',
      { city: 'honolulu', year: 2025, category: 'grass', timezone: 'local' },
      '/api/season?city=honolulu&year=2025&category=grass&timezone=local',
    ],
  ])('%s %j answers what %s answers', async (name, args, path) => {
    const result = await call(name, args);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await api(path));
  });

  it('caps a range call and says how to narrow it', async () => {
    const result = await call('get_pollen_range', { from: '2025-04-01', to: '2025-04-11', limit: 30 });
    expect(result.structuredContent!.rows).toHaveLength(30);
    expect(result.structuredContent!.truncated).toBe(true);
    const last = result.structuredContent!.rows.at(-1);
    expect(result.structuredContent!.hint).toBe(
      `More rows than this call returns (30): call again with after "${last.city},${last.periodStart}", narrow from/to or cities, use aggregate "day", or fetch /api/pollen-range over HTTP (up to 50000 rows).`,
    );
    const { hint: _hint, ...rest } = result.structuredContent!;
    expect(rest).toEqual(await api('/api/pollen-range?from=2025-04-01&to=2025-04-11&limit=30'));
    const more = await call('get_pollen_range', {
      from: '2025-04-01',
      to: '2025-04-11',
      limit: 30,
      after: `${last.city},${last.periodStart}`,
    });
    expect([...result.structuredContent!.rows, ...more.structuredContent!.rows]).toEqual(
      (await api('/api/pollen-range?from=2025-04-01&to=2025-04-11&limit=60')).rows,
    );
  });

  it('gives the forecast the HTTP endpoint gives', async () => {
    const result = await call('get_forecast', { city: 'tulsa' });
    expect(result.structuredContent).toMatchObject({ city: 'tulsa', stale: false });
    expect(result.structuredContent!.rows).toEqual((await api('/api/forecast?city=tulsa')).rows);
  });

  it('gives the forecast by local day as the HTTP endpoint does', async () => {
    const result = await call('get_forecast', { city: 'honolulu', aggregate: 'day', timezone: 'local' });
    const http = await api('/api/forecast?city=honolulu&aggregate=day&timezone=local');
    expect(result.structuredContent).toMatchObject({ city: 'honolulu', aggregate: 'day', timezone: 'local' });
    expect(result.structuredContent!.rows).toEqual(http.rows);
    // Every forecast hour in one local day (the sample model leaves out an hour now and then).
    const hourly = (await api('/api/forecast?city=honolulu')).rows as unknown[];
    expect(hourly.length).toBeGreaterThan(40);
    expect((http.rows as Array<{ hours: number }>).reduce((n, r) => n + r.hours, 0)).toBe(hourly.length);
  });

  it('gives the alerts the HTTP endpoint gives, and names a bad argument', async () => {
    const result = await call('get_alerts', { city: 'tulsa', min: 'Low', categories: ['ragweed', 'tree'] });
    expect(result.structuredContent).toEqual(await api('/api/alerts?city=tulsa&min=low&categories=tree,ragweed'));
    expect(result.structuredContent).toMatchObject({ city: 'tulsa', min: 'Low', categories: ['tree', 'ragweed'] });
    const unknown = await call('get_alerts', { city: 'atlantis' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/Did you mean 'atlanta'\?.*\(argument 'city': call list_cities/);
    // The error's body, whose fields say more than its message.
    expect(JSON.parse(unknown.content[1]!.text)).toMatchObject({ code: 'UNSUPPORTED_CITY', closest: 'atlanta' });
    expect((await call('get_alerts', { city: 'tulsa', min: 'Extreme' })).isError).toBe(true);
    // The plants a person reacts to, as a list; an unknown one is an error that lists those the data holds.
    const plants = await call('get_alerts', { city: 'tulsa', min: 'Low', species: ['cedar', 'Oak'] });
    expect(plants.structuredContent).toEqual(await api('/api/alerts?city=tulsa&min=low&species=cedar,oak'));
    expect(plants.structuredContent).toMatchObject({ categories: [], species: [{ slug: 'cypress-juniper-cedar' }, { slug: 'oak' }] });
    const sagebrush = await call('get_alerts', { city: 'tulsa', species: ['sagebrush'] });
    expect(sagebrush.isError).toBe(true);
    expect(sagebrush.content[0]!.text).toMatch(/allergens the data holds \(ash, birch, .*\), not 'sagebrush'/);
  });

  it('refuses a timezone other than UTC or local, naming the argument', async () => {
    const result = await call('get_pollen', { city: 'tulsa', timezone: 'America/Chicago' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/timezone/);
  });

  it('explains the risk scale', async () => {
    const result = await call('explain_risk');
    expect(result.structuredContent!.thresholds).toEqual({
      tree: [15, 90, 1500],
      grass: [5, 20, 200],
      weed: [10, 50, 500],
      ragweed: [10, 50, 500],
    });
  });

  it.each([
    ['get_pollen', { city: 'atlantis' }, /Unsupported city 'atlantis'.*argument 'city': call list_cities/],
    ['get_weather', { city: 'atlantis', date: '2025-04-01' }, /argument 'city': call list_cities/],
    [
      'get_pollen',
      { city: 'austin', date: '2025-13-01' },
      /Invalid arguments for tool get_pollen: expected a valid date in YYYY-MM-DD format at date$/,
    ],
    ['get_pollen_range', { from: '2025-04-02', to: '2025-04-03', cities: ['austin', 'atlantis'] }, /argument 'cities': call list_cities/],
    ['get_pollen_range', { from: '2025-04-03', to: '2025-04-02' }, /^Invalid argument 'to': expected a time later than 'from'$/],
    ['get_pollen_range', { from: '2025-04-02', to: '2025-04-03', limit: 5000 }, /: expected an integer from 1 to 2000 at limit$/],
    ['get_pollen_range', { from: '2025-04-02', to: '2025-04-03', limit: 0 }, /: expected an integer from 1 to 2000 at limit$/],
    ['get_pollen_range', { to: '2025-04-03' }, /from/],
    ['get_forecast', {}, /city/],
    ['get_pollen_map', { date: 'soon' }, /: expected a valid date in YYYY-MM-DD format or 'latest' at date$/],
    ['get_season', { city: 'austin', category: 'oak' }, /^Invalid argument 'category': expected all, tree, grass/],
    ['get_season', { city: 'austin', year: 2019 }, /No daily values for austin in 2019; the years held are 2025 \(listed in years\)/],
  ])('%s %j is a tool error naming the argument', async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(message);
  });
});

/** A raw HTTP request, so that Host and bodies can be anything. */
function raw(method: string, headers: Record<string, string>, body?: string | Buffer) {
  const url = new URL(`${site.server.url}/mcp`);
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const ACCEPT = 'application/json, text/event-stream';

describe('the /mcp endpoint over raw HTTP', () => {
  it.each([
    ['malformed JSON', 'POST', { 'content-type': 'application/json', accept: ACCEPT }, '{"jsonrpc": "2.0", "id": 1,', 400],
    ['a body that is not JSON-RPC', 'POST', { 'content-type': 'application/json', accept: ACCEPT }, '{"hello": "world"}', 400],
    ['a wrong Accept header', 'POST', { 'content-type': 'application/json', accept: 'text/html' }, RPC, 406],
    ['a wrong Content-Type', 'POST', { 'content-type': 'text/plain', accept: ACCEPT }, RPC, 415],
    [
      'an oversized body',
      'POST',
      { 'content-type': 'application/json', accept: ACCEPT },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(200_000) } }),
      413,
    ],
    ['GET', 'GET', { accept: 'text/event-stream' }, undefined, 405],
    ['DELETE', 'DELETE', {}, undefined, 405],
  ])('refuses %s with the right 4xx and CORS', async (_what, method, headers, body, status) => {
    const res = await raw(method, headers, body);
    expect(res.status).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('marks every answer nosniff, with CORS: a preflight, a refusal and a result', async () => {
    const answers = [
      await raw('OPTIONS', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }),
      await raw('GET', { accept: 'text/event-stream' }),
      await raw('POST', { 'content-type': 'application/json', accept: ACCEPT }, '{"jsonrpc": "2.0", "id": 1,'),
      await raw('POST', { 'content-type': 'application/json', accept: ACCEPT }, RPC),
    ];
    expect(answers.map((a) => a.status)).toEqual([204, 405, 400, 200]);
    for (const a of answers) {
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('refuses a JSON-RPC batch before any tool runs: a POST of 100 range calls costs no call', async () => {
    let opened = 0;
    const ctx = lazyContext({
      store: () => {
        opened++;
        return site.store;
      },
      cities: () => site.store.cities.set(),
      forecast: () => {
        throw new Error('no forecast here');
      },
    });
    const rangeCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_pollen_range', arguments: { from: '2025-04-01', to: '2025-04-11' } },
    });
    const post = (body: unknown) =>
      handleMcp(
        new Request('http://mcp.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify(body),
        }),
        ctx,
      );
    const batch = await post(Array.from({ length: 100 }, (_, i) => rangeCall(i + 1)));
    expect(batch.status).toBe(400);
    expect(batch.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await batch.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSED }, id: null });
    expect(opened).toBe(0);
    // One call alone is answered, and opens the store: the counter sees work when there is some.
    const one = await post(rangeCall(1));
    expect(one.status).toBe(200);
    expect(((await one.json()) as Json).result.structuredContent.rows.length).toBeGreaterThan(0);
    expect(opened).toBe(1);
  });

  it("cuts a range call's rows to the MCP byte budget before reading them, with a next link", async () => {
    const small = withSettings(storeContext(site.store), { maxBodyBytes: 20_000 });
    const direct = new Client({ name: 'test', version: '1.0.0' });
    await direct.connect(
      new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), { fetch: (url, init) => handleMcp(new Request(url, init), small) }),
    );
    try {
      const result = (await direct.callTool({ name: 'get_pollen_range', arguments: { from: '2025-04-01', to: '2025-04-11' } })) as {
        structuredContent: Json;
      };
      const { hint, ...body } = result.structuredContent;
      expect(body.truncated).toBe(true);
      expect(body.rows.length).toBeGreaterThan(0);
      expect(body.rows.length).toBeLessThan(MCP_RANGE_CAP);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(20_000);
      expect(body.next).toMatch(/&after=/);
      expect(hint).toMatch(/^More rows than this call returns/);
    } finally {
      await direct.close();
    }
  });

  it('answers a browser preflight, allowing mcp-protocol-version', async () => {
    const res = await raw('OPTIONS', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version',
    });
    expect(res.status).toBe(204);
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/Mcp-Protocol-Version/i);
  });

  it.each([
    ['a foreign Host', { host: 'attacker.example' }],
    ['a foreign Origin', { origin: 'https://attacker.example' }],
    ['a malformed Origin', { origin: 'null' }],
  ])('refuses %s on the local server', async (_what, headers) => {
    const res = await raw('POST', { 'content-type': 'application/json', accept: ACCEPT, ...headers }, RPC);
    expect(res.status).toBe(403);
  });

  it('accepts a page served from this machine', async () => {
    const res = await raw('POST', { 'content-type': 'application/json', accept: ACCEPT, origin: site.server.url }, RPC);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as Json).result.tools).toHaveLength(TOOLS.length);
  });
});

describe('MCP get_bulk_files', () => {
  it("gives the bulk files' manifest, as /data/bulk/index.json has it", async () => {
    const result = await call('get_bulk_files');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await api('/data/bulk/index.json'));
    expect((result.structuredContent!.files as Json[]).length).toBeGreaterThan(0);
  });
});

describe("MCP tool arguments, refused in the endpoint's words", () => {
  const range = { from: '2025-04-02', to: '2025-04-03' };

  it('refuses an argument the tool does not take, naming the one that stands for it, rather than answering every city', async () => {
    const result = await call('get_pollen_range', { ...range, city: 'nowhere' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/Unknown argument 'city' \(give it as 'cities'\): the arguments are 'from', 'to', 'cities'/);
    // The same slug where the tool takes it is the endpoint's 404, nearest slug and all.
    const unknown = await call('get_pollen_range', { ...range, cities: ['nowhere'] });
    expect(unknown.isError).toBe(true);
    const http = await api(`/api/pollen-range?from=${range.from}&to=${range.to}&city=nowhere`);
    expect(JSON.parse(unknown.content[1]!.text)).toEqual(http);
  });

  it("says what a list item expects as the 400 says it, not in the validator's words", async () => {
    const res = await site.get(`/api/pollen-range?from=${range.from}&to=${range.to}&city=austin,%20`);
    expect(res.status).toBe(400);
    const expected = ((await res.json()) as Json).error.replace("Invalid parameter 'city': ", '');
    const result = await call('get_pollen_range', { ...range, cities: ['austin', 'x'.repeat(65)] });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(new RegExp(`: ${expected} at cities\\[1\\]$`));
  });

  it("bounds find_city's name as the API bounds its text parameters, and does not say it back", async () => {
    const long = await call('find_city', { name: `${'Zeta'.repeat(16)}x` });
    expect(long.isError).toBe(true);
    expect(long.content[0]!.text).toMatch(/: expected a city name of at most 64 characters, such as "Columbus, OH" at name$/);
    const name = 'Zeta'.repeat(16);
    const none = await call('find_city', { name });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toEqual({
      cities: [],
      hint: expect.stringMatching(/^No served city is named like that: try lat and lon/),
    });
    expect(JSON.stringify(none)).not.toContain(name);
    expect((await call('find_city', { name: 'Austin', city: 'austin' })).content[0]!.text).toMatch(
      /Unknown argument 'city': the arguments are 'name', 'state'/,
    );
  });
});

describe('MCP find_city', () => {
  const cities = async () => ((await api('/api/cities')) as { cities: Json[] }).cities;

  it.each([
    [{ name: 'kansas city' }, ['kansas-city']],
    [{ name: 'KANSAS CITY, MO' }, ['kansas-city']],
    [{ name: 'Kansas City', state: 'ks' }, []],
    [{ name: 'st louis' }, ['st-louis']],
    [{ name: 'San' }, ['san-antonio', 'san-francisco']],
    [{ name: 'o', limit: 3 }, null],
  ])('finds %j by name, as /api/cities lists them, without distances', async (args, slugs) => {
    const result = await call('find_city', args);
    expect(result.isError).toBeFalsy();
    const found = result.structuredContent!.cities as Json[];
    const listed = await cities();
    for (const c of found) expect(c).toEqual(listed.find((l) => l.slug === c.slug));
    if (slugs) expect(found.map((c) => c.slug)).toEqual(slugs);
    else expect(found).toHaveLength(3);
    if (found.length === 0) expect(result.structuredContent!.hint).toMatch(/try lat and lon or zip/);
  });

  it.each([
    [{}, "Give argument 'name', arguments 'lat' and 'lon', or argument 'zip'."],
    [{ name: 'Austin', zip: '78701' }, "Argument 'zip' does not go with argument 'name'"],
    [{ state: 'TX' }, "Argument 'state' narrows a name"],
    [{ name: 'Columbus', state: 'Ohio' }, "Invalid argument 'state': expected the USPS code of a state or DC"],
    [{ name: '  ' }, "Invalid argument 'name'"],
    [{ lat: 30 }, "Invalid argument 'lon': expected lat and lon in decimal degrees, or zip"],
    [{ zip: '7870' }, 'Invalid arguments for tool find_city: expected a five-digit ZIP code, such as 78701 (not ZIP+4) at zip'],
    [{ zip: '10008' }, 'ZIP code 10008 has no area in the US Census Bureau 2021 Gazetteer ZCTA centroids'],
    [{ lat: 25, lon: -150 }, 'No served city within 150 km of 25, -150: the nearest is Honolulu, HI (honolulu)'],
    [{ zip: '78701', max_km: 5000 }, 'expected a distance in km above 0 and at most 1000 at max_km'],
    [{ lat: 91, lon: 0 }, 'lat'],
  ])('refuses %j with a tool error naming the argument', async (args, message) => {
    const result = await call('find_city', args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain(message);
  });

  it('takes numbers JavaScript prints with an exponent', async () => {
    const result = await call('find_city', { lat: 1e-7, lon: -1e-7 });
    expect(result.content[0]!.text).toMatch(/^No served city within 150 km of 1e-7, -1e-7: the nearest is /);
  });

  it('says which argument a ZIP code error is about', async () => {
    expect((await call('find_city', { zip: '10008' })).content[0]!.text).toMatch(/\(argument 'zip'\)$/);
  });
});

describe('MCP over stdio', () => {
  it('lists the tools and answers as HTTP does', async () => {
    const stdio = new Client({ name: 'desktop', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'build/cli.ts', 'mcp', '--stdio', '--db', site.db],
        cwd: ROOT,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await stdio.listTools()).tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      const result = (await stdio.callTool({ name: 'get_pollen', arguments: { city: 'scranton', date: '2025-04-07' } })) as {
        structuredContent: Json;
      };
      expect(result.structuredContent).toEqual(await api('/api/pollen?city=scranton&date=2025-04-07'));
      // The stdio server carries the ZIP table too.
      const found = (await stdio.callTool({ name: 'find_city', arguments: { zip: '74103' } })) as { structuredContent: Json };
      expect(found.structuredContent).toEqual(await api('/api/nearest?zip=74103'));
    } finally {
      await stdio.close();
    }
  });
});
