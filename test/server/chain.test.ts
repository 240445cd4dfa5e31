import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { headersFor, pathPattern, readNetlifyConfig } from '../../src/server/netlify-config.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

describe("the local server follows Netlify's request chain", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // A site of its own: an echo function on /data/* (preferStatic), one file, and two rules.
    const root = tempDir();
    mkdirSync(join(root, 'functions'));
    mkdirSync(join(root, 'publish', 'data'), { recursive: true });
    writeFileSync(
      join(root, 'netlify.toml'),
      '[build]\n  publish = "publish"\n  functions = "functions"\n\n[[redirects]]\n  from = "/data/*"\n  to = "/elsewhere.json"\n  status = 200\n',
    );
    writeFileSync(join(root, 'publish', '_redirects'), '/api/thing q=:q /data/thing/:q.json 200\n');
    writeFileSync(join(root, 'publish', 'data', 'here.json'), '{"file":true}');
    writeFileSync(join(root, 'publish', 'elsewhere.json'), '{"rule":true}');
    writeFileSync(
      join(root, 'functions', 'echo.mjs'),
      "export default (request) => Response.json({ url: request.url });\nexport const config = { path: '/data/*', preferStatic: true };\n",
    );
    // An answer that never ends, which says when it is cancelled.
    writeFileSync(
      join(root, 'functions', 'endless.mjs'),
      [
        'export default () => new Response(new ReadableStream({',
        "  pull: (c) => c.enqueue(new TextEncoder().encode('x'.repeat(65536))),",
        '  cancel: () => { globalThis.endlessCancelled = (globalThis.endlessCancelled ?? 0) + 1; },',
        '}));',
        "export const config = { path: '/endless' };",
        '',
      ].join('\n'),
    );
    chainRoot = root;
    server = await serve({ root, port: 0 });
  });
  afterAll(async () => server.close());
  let chainRoot = '';
  const get = async (path: string) => (await fetch(server.url + path)).json() as Promise<Record<string, unknown>>;

  it('hands a function reached through a rewrite the original URL and query, as Netlify does', async () => {
    expect(await get('/api/thing?q=7&extra=1')).toEqual({ url: `${server.url}/api/thing?q=7&extra=1` });
  });

  it("gives a function this server's own address, whatever Host the client sent", async () => {
    const { request } = await import('node:http');
    const ask = (host: string) =>
      new Promise<unknown>((resolve, reject) => {
        const { port } = new URL(server.url);
        request({ host: '127.0.0.1', port, path: '/data/missing.json', headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString())).on('end', () => resolve(JSON.parse(body)));
        })
          .on('error', reject)
          .end();
      });
    for (const host of ['pollen.localtest:8888', 'evil.example/path?x', `localhost:${new URL(server.url).port}`])
      expect(await ask(host), host).toEqual({ url: `${server.url}/data/missing.json` });
  });

  it('answers a path with no file, rule or function with a JSON 404 that has CORS, no-store and nosniff', async () => {
    const res = await fetch(`${server.url}/nothing/here.html`);
    expect(res.status).toBe(404);
    expect(
      Object.fromEntries(
        ['content-type', 'access-control-allow-origin', 'cache-control', 'x-content-type-options'].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(await res.json()).toEqual({ error: 'Nothing at /nothing/here.html: the endpoints are listed in /openapi.json' });
  });

  it('drops a client that stops reading once the connection is idle, cancels its answer, and logs no failure', async () => {
    const idle = await serve({ root: chainRoot, port: 0, idleTimeoutMs: 200 });
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      const closed = new Promise<void>((resolve) => idle.server.once('connection', (socket) => socket.once('close', () => resolve())));
      const { port } = new URL(idle.url);
      const client = connect(Number(port), '127.0.0.1');
      client.pause(); // reads nothing: the answer backs up until nothing moves
      client.write('GET /endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await closed;
      client.destroy();
      // The cancel runs once the server has torn its side down.
      for (let i = 0; i < 100 && !(globalThis as { endlessCancelled?: number }).endlessCancelled; i++)
        await new Promise((r) => setImmediate(r));
      expect((globalThis as { endlessCancelled?: number }).endlessCancelled).toBe(1);
      expect(logged).toEqual([]);
    } finally {
      spy.mockRestore();
      await idle.close();
    }
  });

  it('runs a function whose path matches before the redirects, an existing file winning with preferStatic', async () => {
    expect(await get('/data/here.json')).toEqual({ file: true });
    expect(await get('/data/missing.json')).toEqual({ url: `${server.url}/data/missing.json` }); // not the /data/* rule's file
  });
});

describe("query rules, read leniently (the rules engine) or exactly (Netlify's guidance)", () => {
  const lenient = useSite({ cities: ['tulsa'] });
  let exact: RunningServer;
  beforeAll(async () => (exact = await serve({ root: ROOT, publishDir: lenient.publish, port: 0, queryMatching: 'exact' })));
  afterAll(async () => exact?.close());

  // [path, whether the lenient reading answers it from a file]
  it.each([
    ['/api/pollen?city=tulsa&date=2025-04-03&utm_source=x', true],
    ['/api/pollen?utm_source=x&city=tulsa', true],
    ['/api/map-data?date=2025-04-03&utm_source=x', true],
    ['/api/weather?date=2025-04-03&utm_source=x', true],
    ['/api/pollen?utm_source=x', false],
    ['/api/pollen?city=tulsa&timezone=local&utm_source=x', true],
    ['/api/pollen?city=tulsa&date=2025-04-03&timezone=local&utm_source=x', false],
    ['/api/pollen?date=2025-04-03&timezone=local&utm_source=x', true],
    ['/api/map-data?timezone=local&date=2025-04-03&utm_source=x', true],
    ['/api/pollen?city=tulsa&timezone=UTC&utm_source=x', false],
  ] as const)('answer %s the same under both readings (the exact one always by the fallback function)', async (path, fileWhenLenient) => {
    const [a, b] = await Promise.all([fetch(lenient.server.url + path), fetch(exact.url + path)]);
    const plain = await fetch(
      lenient.server.url +
        path
          .replace(/&?utm_source=x/, '')
          .replace('?&', '?')
          .replace(/\?$/, ''),
    );
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const body = await plain.text();
    expect(await a.text()).toBe(body);
    expect(await b.text()).toBe(body);
    // A function's answer carries Netlify-CDN-Cache-Control; a file Netlify serves does not.
    expect(a.headers.get('netlify-cdn-cache-control') === null).toBe(fileWhenLenient);
    expect(b.headers.get('netlify-cdn-cache-control')).toMatch(/durable/);
  });

  it("never lets a cache keep a range a file cannot satisfy (416), whatever the path's rules say", async () => {
    const res = await fetch(`${lenient.server.url}/data/cities.json`, { headers: { range: 'bytes=99999999-' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('netlify.toml headers', () => {
  const { headers } = readNetlifyConfig(join(ROOT, 'netlify.toml'));
  const paths = [
    '/',
    '/index.html',
    '/assets/app.js',
    '/api-reference.html',
    '/openapi.json',
    '/.well-known/openapi.json',
    '/llms.txt',
    '/api/cities',
    '/api/pollen',
    '/api/map-data',
    '/api/weather',
    '/api/latest-date',
    '/data/cities.json',
    '/data/pollen/tulsa.json',
    '/data/pollen/tulsa/2025-04-01.json',
    '/data/pollen/by-date/2025-04-01.json',
    '/data/map-data/2025-04-01.json',
    '/data/weather/tulsa.json',
    '/data/pollen-local/tulsa.json',
    '/data/pollen-local/by-date/2025-04-01.json',
    '/data/map-data-local/2025-04-01.json',
  ];

  it.each(paths)('sets each header of %s by one rule only', (path) => {
    const setBy = new Map<string, string[]>();
    for (const rule of headers) {
      if (!pathPattern(rule.for).test(path)) continue;
      for (const name of Object.keys(rule.values)) setBy.set(name.toLowerCase(), [...(setBy.get(name.toLowerCase()) ?? []), rule.for]);
    }
    for (const [name, rules] of setBy) expect(rules, `${path} ${name}`).toHaveLength(1);
  });

  it('gives every API answer and data file CORS, nosniff and the cache policy, and the map GeoJSON', () => {
    for (const path of paths.filter((p) => p.startsWith('/api/') || p.startsWith('/data/'))) {
      expect(headersFor(headers, [path]), path).toMatchObject({
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=300, s-maxage=300, stale-while-revalidate=600',
      });
    }
    expect(headersFor(headers, ['/data/map-data/2025-04-01.json'])['Content-Type']).toBe('application/geo+json');
    expect(headersFor(headers, ['/data/map-data-local/2025-04-01.json'])['Content-Type']).toBe('application/geo+json');
    expect(headersFor(headers, ['/api/map-data'])['Content-Type']).toBe('application/geo+json');
    expect(headersFor(headers, ['/data/pollen/tulsa.json'])['Content-Type']).toBeUndefined(); // .json: Netlify's own application/json
  });
});
