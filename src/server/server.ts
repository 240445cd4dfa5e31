/**
 * The local server: Netlify's request chain on 127.0.0.1. A file at the path; else the first
 * rule of `_redirects` then netlify.toml, matched by netlify-redirector (Netlify's own engine);
 * else the function whose `path` matches, respecting `preferStatic`; netlify.toml headers on
 * static files. Functions run in-process on web Request/Response.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import redirector, { type RedirectMatcher } from 'netlify-redirector';
import { functionFor, loadFunctions, type LoadedFunction } from './functions.js';
import { headersFor, readNetlifyConfig, type NetlifyConfig } from './netlify-config.js';
import { byteRange, staticFile } from './static.js';

export interface ServeOptions {
  /** Folder of netlify.toml and the functions folder. */
  root: string;
  /** The publish folder; defaults to netlify.toml's. */
  publishDir?: string;
  host?: string;
  port?: number;
  /** A client must send its headers within this time, its whole request within `requestTimeoutMs`. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * How a rule with query conditions matches: `lenient` as the rules engine does (extra parameters
   * are ignored), or `exact` as Netlify's guidance reads (only URLs with exactly those parameters).
   * The routes must give the same answers under both; tests switch to `exact` to prove it.
   */
  queryMatching?: 'lenient' | 'exact';
}

export interface RunningServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

/** Starts the server; port 0 picks a free one. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const config = readNetlifyConfig(join(options.root, 'netlify.toml'));
  const publishDir = options.publishDir ?? join(options.root, config.publishDir);
  const functions = await loadFunctions(join(options.root, config.functionsDir));
  const rules = rulesLoader(publishDir, config, options.queryMatching ?? 'lenient');

  // Slow clients are dropped: checked every second rather than node's default 30 s.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout + 1);
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res, { publishDir, config, functions, rules }).catch((error: unknown) => {
      console.error('local server failure', error);
      if (!res.headersSent)
        res.writeHead(500, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ error: 'Internal server error' }));
    });
  });
  // Requests node refuses before routing (oversized URL or headers, malformed HTTP) still get JSON and CORS.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({
      error:
        status === 431 ? 'Request URL or headers too large' : status === 408 ? 'Request not received in time' : 'Malformed HTTP request',
    });
    // Closed for good once written: a client still sending would otherwise keep it half open.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\n` +
        `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8888, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Site {
  publishDir: string;
  config: NetlifyConfig;
  functions: LoadedFunction[];
  /** The matcher for a request with these query parameter names. */
  rules: (queryNames: readonly string[]) => Promise<RedirectMatcher>;
}

/**
 * The matcher for the current `_redirects` plus netlify.toml, rebuilt when a render replaces the
 * file. In `exact` mode a rule with query conditions is kept only for requests whose parameter
 * names are exactly its own.
 */
function rulesLoader(publishDir: string, config: NetlifyConfig, queryMatching: 'lenient' | 'exact'): Site['rules'] {
  let cached: { key: string; lines: string[]; matchers: Map<string, Promise<RedirectMatcher>> } | undefined;
  return (queryNames) => {
    const file = join(publishDir, '_redirects');
    const key = existsSync(file) ? `${statSync(file).ino}:${statSync(file).mtimeMs}` : 'none';
    if (cached?.key !== key) {
      const generated = existsSync(file) ? readFileSync(file, 'utf8') : '';
      cached = { key, lines: [...generated.split('\n'), ...config.redirects], matchers: new Map() };
    }
    const names = queryMatching === 'exact' ? [...new Set(queryNames)].sort().join('&') : '*';
    let matcher = cached.matchers.get(names);
    if (!matcher) {
      const lines = queryMatching === 'exact' ? cached.lines.filter((line) => exactly(line, names)) : cached.lines;
      cached.matchers.set(names, (matcher = redirector.parsePlain(lines.join('\n'), {})));
    }
    return matcher;
  };
}

/** Whether a `_redirects` line applies to a request with these parameter names under the exact reading. */
function exactly(line: string, names: string): boolean {
  const tokens = line.trim().split(/\s+/);
  if (tokens.length < 3 || tokens[0]!.startsWith('#')) return true;
  const conditions = tokens.slice(1, -2).filter((t) => t.includes('='));
  return (
    conditions.length === 0 ||
    conditions
      .map((c) => c.slice(0, c.indexOf('=')))
      .sort()
      .join('&') === names
  );
}

async function handle(req: IncomingMessage, res: ServerResponse, site: Site): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const readOnly = method === 'GET' || method === 'HEAD';

  // Methods a web Request cannot carry (so no function can see them): refused here, as the CDN does.
  if (method === 'TRACE' || method === 'TRACK' || method === 'CONNECT') {
    res.writeHead(405, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
      Allow: 'GET, HEAD, OPTIONS',
    });
    res.end(JSON.stringify({ error: `Method ${method} is not allowed: this API is read-only (use GET)` }));
    return;
  }

  const serveFile = (paths: string[]): boolean => {
    const file = readOnly ? staticFile(site.publishDir, paths.at(-1)!) : undefined;
    if (!file) return false;
    const size = file.body.length;
    const headers = { 'Content-Type': file.contentType, 'Accept-Ranges': 'bytes', ...headersFor(site.config.headers, paths) };
    // Byte ranges, so that Parquet readers fetch only the parts they need (HEAD answers as GET would).
    const range = byteRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' });
      res.end();
    } else if (range) {
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
        'Content-Length': String(range.end - range.start + 1),
      });
      res.end(method === 'HEAD' ? undefined : file.body.subarray(range.start, range.end + 1));
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(size) });
      res.end(method === 'HEAD' ? undefined : file.body);
    }
    return true;
  };
  /**
   * Calls a function with the original request: on Netlify a function reached through a rewrite
   * sees the URL and query that were asked for, not the rewrite's target.
   */
  const callFunction = async (fn: LoadedFunction): Promise<void> => {
    const hasBody = method !== 'GET' && method !== 'HEAD';
    // The URL a function sees has this server's host, as on Netlify (links in feeds use it).
    const request = new Request(new URL(url.pathname + url.search, originOf(req.headers.host)), {
      method,
      headers: toHeaders(req),
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit);
    const response = await fn.handler(request, {});
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (method === 'HEAD' || !response.body) res.end();
    else await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res);
  };

  // 0. On this machine, MCP answers only pages and clients of this machine (DNS rebinding).
  if (url.pathname === '/mcp' && !isLocalRequest(req)) {
    res.writeHead(403, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Forbidden: Host and Origin must be this local server' },
        id: null,
      }),
    );
    return;
  }

  // 1. Functions whose path matches come before redirects: without preferStatic a function shadows
  //    files; with it an existing file wins, and a missing one reaches the function.
  const direct = functionFor(site.functions, url.pathname);
  if (direct && !direct.preferStatic) return callFunction(direct);
  if (serveFile([url.pathname])) return;
  if (direct) return callFunction(direct);

  // 2. The first matching rule. A rewrite to a function's path runs it by the same logic, once.
  const match = (await site.rules([...url.searchParams.keys()])).match({
    scheme: 'http',
    host: url.hostname,
    path: url.pathname,
    query: url.search.slice(1),
    headers: {},
    cookieValues: {},
    getHeader: (name) => String(req.headers[name.toLowerCase()] ?? ''),
    getCookie: () => '',
  });
  if (match && match.status >= 300 && match.status < 400) {
    res.writeHead(match.status, { Location: match.to });
    res.end();
    return;
  }
  if (match && match.status === 200) {
    const rawTarget = match.to.split('?')[0]!;
    const target = new URL(match.to, 'http://localhost');
    const fn = functionFor(site.functions, target.pathname);
    if (fn && !fn.preferStatic) return callFunction(fn);
    // A placeholder value such as `../../cities` must not walk the rewrite to another file: such a
    // target goes to the function, which rejects the value of the original request itself.
    if (!hasDotSegment(rawTarget) && serveFile([url.pathname, target.pathname])) return;
    if (fn) return callFunction(fn);
  }
  notFound(res);
}

/** `http://` and the Host header when it is a plain host and port; a malformed one must not break the URL. */
function originOf(host: string | undefined): string {
  try {
    const u = new URL(`http://${host}`);
    if (host && u.host === host.toLowerCase()) return u.origin;
  } catch {
    // below
  }
  return 'http://localhost';
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Host names a loopback address, and Origin, when sent, is a page served from loopback. */
function isLocalRequest(req: IncomingMessage): boolean {
  const hostname = (host: string) => {
    try {
      return new URL(`http://${host}`).hostname;
    } catch {
      return '';
    }
  };
  if (!LOOPBACK_NAMES.has(hostname(req.headers.host ?? ''))) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const o = new URL(origin);
    return (o.protocol === 'http:' || o.protocol === 'https:') && LOOPBACK_NAMES.has(o.hostname);
  } catch {
    return false;
  }
}

/** True when a path, raw or percent-decoded, has a `.` or `..` segment. */
function hasDotSegment(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return /(^|\/)\.{1,2}(\/|$)/.test(path) || /(^|\/)\.{1,2}(\/|$)/.test(decoded);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Not Found</title><h1>Page not found</h1>');
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
  }
  return headers;
}
