import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/server/server.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';
import { count } from './counters.js';

const site = useSite();
const CANARY = 'canary-outside-publish-5d1e';
// Fake keys planted in the environment: no response, header or log line may ever show them.
const SECRETS = {
  AMBEE_API_KEY: 'sk-planted-ambee-9c2f61',
  OPENWEATHER_API_KEY: 'sk-planted-owm-47ab0e',
  NETLIFY_AUTH_TOKEN: 'nfp-planted-token-11aa',
};
const seen: string[] = []; // every status line, header and body this suite receives
let sent = 0;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path goes on the wire exactly as written, with no normalising. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  server: RunningServer = site.server,
): Promise<Raw> {
  const url = new URL(server.url);
  sent++;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => {
        seen.push(`${res.statusCode} ${JSON.stringify(res.headers)} ${text}`);
        resolve({ status: res.statusCode!, headers: res.headers, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(() => {
  writeFileSync(join(site.dir, 'secret.json'), JSON.stringify({ canary: CANARY }));
  writeFileSync(join(site.dir, 'publish.secret'), CANARY);
});
afterAll(() => count({ requests: sent }));

describe('abuse of the local server', () => {
  it.each([
    '/../secret.json',
    '/../../../../etc/passwd',
    '/%2e%2e/secret.json',
    '/%2e%2e%2fsecret.json',
    '/data/../../secret.json',
    '/data/..%2f..%2fsecret.json',
    '/data/pollen/%2e%2e/%2e%2e/%2e%2e/secret.json',
    '/data/pollen/austin/..%252f..%252f..%252fsecret.json',
    '/api/../secret.json',
    '/.well-known/../../secret.json',
    '/..\\..\\secret.json',
    '/data/%00/secret.json',
    '//etc/passwd',
    '/_redirects',
  ])('never serves a file outside the publish folder: %s', async (path) => {
    const res = await raw('GET', path);
    expect(res.status).not.toBe(200);
    expect(res.body).not.toContain(CANARY);
    expect(res.body).not.toContain('root:');
  });

  it.each([
    ['/api/pollen', ['city', 'date']],
    ['/api/weather', ['city', 'date']],
    ['/api/map-data', ['date']],
    ['/api/pollen-range', ['from', 'to', 'city', 'aggregate', 'limit', 'format']],
    ['/api/forecast', ['city']],
  ] as const)('answers path-like values of every parameter of %s with a 4xx JSON error', async (endpoint, names) => {
    for (const name of names) {
      for (const value of ['../secret', '../../../secret.json', '..%2f..%2fsecret', '/etc/passwd', '....//....//secret', '%00']) {
        const res = await raw('GET', `${endpoint}?${name}=${encodeURIComponent(value)}&from=2025-04-01&to=2025-04-02`);
        expect(res.body).not.toContain(CANARY);
        if (res.status !== 200) {
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(JSON.parse(res.body)).toHaveProperty('error');
        }
      }
    }
  });

  it('never lets a parameter inject a header', async () => {
    for (const path of [
      '/api/pollen?city=austin%0d%0aSet-Cookie:%20hacked=1',
      '/api/forecast?city=%0d%0aX-Injected:%201',
      '/api/pollen-range?from=2025-04-01%0d%0aX-Injected:1&to=2025-04-02',
    ]) {
      const res = await raw('GET', path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['x-injected']).toBeUndefined();
    }
  });

  it('answers a malformed Host header without a 5xx', async () => {
    for (const path of [
      '/api/pollen-range?from=2025-04-01&to=2025-04-02&city=austin',
      '/api/forecast?city=tulsa',
      '/api/nope',
      '/api/cities',
    ]) {
      const res = await raw('GET', path, { host: 'a b' });
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('refuses huge query strings and bodies with a 4xx and CORS', async () => {
    const longQuery = await raw('GET', `/api/pollen?city=${'a'.repeat(100_000)}`);
    expect(longQuery.status).toBe(431);
    expect(longQuery.headers['access-control-allow-origin']).toBe('*');
    const bigMcp = await raw(
      'POST',
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(5_000_000) } }),
    );
    expect(bigMcp.status).toBe(413);
    const bigPost = await raw('POST', '/api/cities', { 'content-type': 'application/octet-stream' }, Buffer.alloc(5_000_000, 1));
    expect(bigPost.status).toBe(405);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND'])('refuses %s everywhere with 405 JSON', async (method) => {
    for (const path of [
      '/api/cities',
      '/api/pollen?city=austin',
      '/api/pollen-range?from=2025-04-01&to=2025-04-02',
      '/api/forecast?city=tulsa',
      '/data/cities.json',
    ]) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(JSON.parse(res.body)).toHaveProperty('error');
    }
  });

  it('drops a slow client that never finishes its headers, and keeps serving others', async () => {
    const server = await serve({ root: ROOT, publishDir: site.publish, port: 0, headersTimeoutMs: 1_500, requestTimeoutMs: 3_000 });
    try {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname);
      socket.on('error', () => {}); // writes after the server hangs up fail with EPIPE, as expected
      const started = Date.now();
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
      socket.write('GET /api/cities HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
      const other = await raw('GET', '/api/cities', {}, undefined, server);
      expect(other.status).toBe(200);
      const after = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 8_000))]);
      clearInterval(drip);
      socket.destroy();
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThan(8_000);
    } finally {
      await server.close();
    }
  });

  it.each([
    [{ host: 'evil.example' }],
    [{ host: 'evil.example:8888' }],
    [{ origin: 'https://evil.example' }],
    [{ origin: 'http://127.0.0.1.evil.example' }],
  ])('refuses MCP requests with a foreign Host or Origin: %j', async (headers) => {
    const res = await raw(
      'POST',
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(res.status).toBe(403);
  });
});

describe('abuse of what costs work', () => {
  const range = '/api/pollen-range?from=2025-04-01&to=2025-04-11&limit=50000';

  it('answers 20 MCP batches of 100 range calls each with a 400 that ran none of them, and keeps serving', async () => {
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_pollen_range', arguments: { from: '2025-04-01', to: '2025-04-11' } },
    });
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1)));
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw('POST', '/mcp', headers, batch)));
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body).error.code).toBe(-32600);
      expect(a.body.length).toBeLessThan(1_000); // no rows: no tool ran
    }
    expect((await raw('GET', `${range}&city=austin`)).status).toBe(200);
  });

  it('gives 20 ranges with random junk parameters one answer and one cache key', async () => {
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await raw('GET', `${range}&x=${Math.random().toString(36).slice(2)}`));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(new Set(answers.map((a) => a.headers['netlify-vary']))).toEqual(
      new Set(['query=from|to|city|aggregate|limit|format|after|timezone']),
    );
  });

  it('answers no computed endpoint under /data/fallback/, however asked', async () => {
    for (const path of [
      '/data/fallback/pollen-range?from=2025-04-01&to=2025-04-11',
      '/data/fallback/forecast?city=austin',
      '/data/fallback/alerts?city=austin&format=ics',
      '/data/fallback/health',
      '/data/fallback/nearest?zip=78701',
    ]) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
  });

  it('closes 20 connections that stop reading a large range once they are idle, and keeps serving others meanwhile', async () => {
    const server = await serve({ root: ROOT, publishDir: site.publish, port: 0, idleTimeoutMs: 1_000 });
    try {
      const url = new URL(server.url);
      // The server's side of each stalled connection, known by the client's port.
      const ends = new Map<number, Promise<void>>();
      server.server.on('connection', (socket) => {
        ends.set(socket.remotePort!, new Promise<void>((resolve) => socket.once('close', () => resolve())));
      });
      const stalled = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<Socket>((resolve) => {
              const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
              socket.on('error', () => {}); // the server's hang-up, as expected
              socket.pause(); // never reads the answer
              socket.write(`GET ${range} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n\r\n`);
            }),
        ),
      );
      sent += 20;
      const other = await raw('GET', '/api/cities', {}, undefined, server);
      expect(other.status).toBe(200);
      // Accepted before the request after them was answered; each then closed by the server, not by the client.
      expect(stalled.every((socket) => ends.has(socket.localPort!))).toBe(true);
      for (const socket of stalled) await ends.get(socket.localPort!);
      for (const socket of stalled) socket.destroy();
    } finally {
      await server.close();
    }
  });
});

describe('secrets', () => {
  let replay: ReplayServer;
  beforeAll(async () => (replay = await startReplayServer('the-real-key-is-different')));
  afterAll(async () => replay.close());

  it('never show a planted key in any response, header or log line', async () => {
    // Failing provider calls (a wrong key) make the clients build error messages around the key.
    const db = join(tempDir(), 'secrets.db');
    // A plan whose history reaches these fixed dates, so that Ambee is asked (and refuses the key).
    const env = {
      ...SECRETS,
      AMBEE_HISTORY_HOURS: String(24 * 4000),
      AMBEE_BASE_URL: replay.url,
      OPENWEATHER_BASE_URL: replay.url,
      OPEN_METEO_ARCHIVE_URL: replay.url,
      HTTP_RETRIES: '0',
    };
    const logs: string[] = [];
    for (const weather of ['openweathermap', 'open-meteo']) {
      const run = await runCli(
        [
          'ingest',
          '--provider',
          'ambee',
          '--weather',
          weather,
          '--from',
          '2025-04-01',
          '--to',
          '2025-04-02',
          '--cities',
          'austin',
          '--db',
          db,
        ],
        { env },
      );
      logs.push(run.stdout, run.stderr);
      expect(run.code).toBe(1);
    }
    const help = await runCli(['ingest', '--help'], { env });
    logs.push(help.stdout, help.stderr);
    Object.assign(process.env, SECRETS);
    for (const path of ['/api/cities', '/api/forecast?city=tulsa', '/api/nope', '/openapi.json', '/llms.txt', '/']) await raw('GET', path);
    const everything = [...logs, ...seen].join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(replay.served.some((s) => s.url.includes(SECRETS.OPENWEATHER_API_KEY))).toBe(true); // the key was really used
  });
});

describe('dependencies', () => {
  it('have no known high or critical vulnerability in production (when the registry answers)', () => {
    let report: string;
    try {
      report = execFileSync('npm', ['audit', '--omit=dev', '--json', '--audit=true'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 60_000,
      });
    } catch (error) {
      report = (error as { stdout?: string }).stdout ?? '';
    }
    let parsed: { metadata?: { vulnerabilities?: Record<string, number> } };
    try {
      parsed = JSON.parse(report) as typeof parsed;
    } catch {
      console.warn('npm audit skipped: the registry did not answer');
      return;
    }
    if (!parsed.metadata?.vulnerabilities) {
      console.warn(`npm audit skipped: no report (${report.slice(0, 200)})`);
      return;
    }
    const v = parsed.metadata.vulnerabilities;
    console.log(`npm audit --omit=dev: ${JSON.stringify(v)}`);
    expect((v.high ?? 0) + (v.critical ?? 0)).toBe(0);
  });
});
