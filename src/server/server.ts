/**
 * The local server: Netlify's request chain on 127.0.0.1. A file at the path; else the first
 * rule of `_redirects` then netlify.toml, matched by netlify-redirector (Netlify's own engine);
 * else the function whose `path` matches, respecting `preferStatic`; netlify.toml headers on
 * static files (file-answers.ts). Functions run in-process on web Request/Response (function-answers.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../store/store.js';
import { useSqlite } from '../wiring/contexts.js';
import { CompressedFiles } from './compress.js';
import type { Exchange, Site } from './exchange.js';
import { serveFile } from './file-answers.js';
import { callFunction } from './function-answers.js';
import { functionFor, loadFunctions } from './functions.js';
import { readNetlifyConfig } from './netlify-config.js';
import { rulesLoader } from './rules.js';

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
   * A connection on which nothing moves for this long is closed, a client that stops reading an
   * answer midway included (its stream is then cancelled and its memory freed).
   */
  idleTimeoutMs?: number;
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
  // The functions run in this process, which may open SQLite: the local forecast cache, a store never rendered.
  useSqlite(openStore);
  const config = readNetlifyConfig(join(options.root, 'netlify.toml'));
  const publishDir = options.publishDir ?? join(options.root, config.publishDir);
  const functions = await loadFunctions(join(options.root, config.functionsDir));
  const rules = rulesLoader(publishDir, config, options.queryMatching ?? 'lenient');

  // Slow clients are dropped: checked every second rather than node's default 30 s.
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout + 1);
  // Its origin is known once it listens, before any request.
  const site: Site = { publishDir, config, functions, rules, origin: '', compressed: new CompressedFiles() };
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res, site).catch((error: unknown) => {
      console.error('local server failure', error);
      if (res.headersSent) res.end();
      else sendJson(res, 500, { error: 'Internal server error' });
    });
  });
  dropIdleConnections(server, options.idleTimeoutMs ?? 30_000);
  // Requests node refuses before routing (oversized URL or headers, malformed HTTP) still get JSON and CORS.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({
      error:
        status === 431 ? 'Request URL or headers too large' : status === 408 ? 'Request not received in time' : 'Malformed HTTP request',
    });
    // Closed for good once written: a client still sending would otherwise keep it half open.
    const headers = Object.entries({ ...JSON_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`, () =>
      socket.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8888, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  site.origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url: site.origin,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Netlify's request chain, step by step: methods no function can see, MCP's local guard, the
 * function whose path matches (or the file at the path), the first matching rule, and JSON 404.
 */
async function handle(req: IncomingMessage, res: ServerResponse, site: Site): Promise<void> {
  const ex: Exchange = { req, res, site, url: new URL(req.url ?? '/', 'http://localhost'), method: req.method ?? 'GET' };
  if (refuseUncarriedMethod(ex) || refuseForeignMcp(ex)) return;
  if (await answerByPath(ex)) return;
  if (await answerByRule(ex)) return;
  sendJson(res, 404, { error: `Nothing at ${ex.url.pathname}: the endpoints are listed in /openapi.json` });
}

/** Methods a web Request cannot carry (so no function can see them): refused here, as the CDN does. */
function refuseUncarriedMethod({ method, res }: Exchange): boolean {
  if (method !== 'TRACE' && method !== 'TRACK' && method !== 'CONNECT') return false;
  sendJson(res, 405, { error: `Method ${method} is not allowed: this API is read-only (use GET)` }, { Allow: 'GET, HEAD, OPTIONS' });
  return true;
}

/** On this machine, MCP answers only pages and clients of this machine (DNS rebinding). */
function refuseForeignMcp({ url, req, res }: Exchange): boolean {
  if (url.pathname !== '/mcp' || isLocalRequest(req)) return false;
  sendJson(res, 403, {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Forbidden: Host and Origin must be this local server' },
    id: null,
  });
  return true;
}

/**
 * Functions whose path matches come before redirects: without preferStatic a function shadows
 * files; with it an existing file wins, and a missing one reaches the function.
 */
async function answerByPath(ex: Exchange): Promise<boolean> {
  const direct = functionFor(ex.site.functions, ex.url.pathname);
  if (direct && !direct.preferStatic) return callFunction(ex, direct);
  if (await serveFile(ex, [ex.url.pathname])) return true;
  return direct ? callFunction(ex, direct) : false;
}

/** The first matching rule: a redirect, or a rewrite to a function's path (run by the same logic, once) or to a file. */
async function answerByRule(ex: Exchange): Promise<boolean> {
  const { req, res, url, site } = ex;
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
    return true;
  }
  if (match?.status !== 200) return false;
  const rawTarget = match.to.split('?')[0]!;
  const target = new URL(match.to, 'http://localhost');
  const fn = functionFor(site.functions, target.pathname);
  if (fn && !fn.preferStatic) return callFunction(ex, fn);
  // A placeholder value such as `../../cities` must not walk the rewrite to another file: such a
  // target goes to the function, which rejects the value of the original request itself.
  if (!hasDotSegment(rawTarget) && (await serveFile(ex, [url.pathname, target.pathname]))) return true;
  return fn ? callFunction(ex, fn) : false;
}

/**
 * Closes every connection on which nothing has moved for `idleMs`: no byte read, none written,
 * none of those waiting taken by the client. Not Node's socket timeout (server.timeout): while a
 * write is under way, its first expiry is let pass if the client took any byte since that write
 * began (net.Socket's _onTimeout), so a client that stops reading midway was dropped only after
 * twice the limit. Checked ten times per limit: a connection goes between 1 and 1.2 limits after
 * its last movement.
 */
function dropIdleConnections(server: Server, idleMs: number): void {
  const watched = new Map<Socket, { seen: string; since: number }>();
  // Bytes waiting in the socket (writableLength) shrink as the client reads them; the totals grow
  // as the server reads and writes.
  const movement = (socket: Socket) => `${socket.bytesRead}/${socket.bytesWritten}/${socket.writableLength}`;
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { seen: movement(socket), since: performance.now() });
    socket.once('close', () => watched.delete(socket));
  });
  const check = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, state] of watched) {
        const seen = movement(socket);
        if (seen !== state.seen) Object.assign(state, { seen, since: now });
        else if (now - state.since >= idleMs) socket.destroy();
      }
    },
    Math.max(1, Math.floor(idleMs / 10)),
  );
  check.unref();
  server.once('close', () => clearInterval(check));
}

/** A JSON answer the server gives itself: CORS, never cached, never sniffed, as the API's errors. */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

const JSON_HEADERS = {
  'Content-Type': 'application/json',
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

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
