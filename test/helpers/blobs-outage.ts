/**
 * A real BlobsServer behind a loopback proxy that counts the requests made to it, and that a test
 * (or a function it runs, through `downUrl` and `upUrl`) stops and starts again: stopped, the
 * server is gone, and the proxy answers 502 as the edge in front of an unreachable origin does.
 * It may also hang (`hangUrl`): the server running, the proxy then holds every request unanswered,
 * as an edge that accepts connections and never replies. `fault` does either for the requests of
 * some keys only (a failing counter beside readable entries).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlobsServer } from '@netlify/blobs/server';

export interface BlobsOutage {
  /** The edge URL to give the Blobs client. */
  url: string;
  /** Fetched, these stop and start the server (for a function in another process). */
  downUrl: string;
  upUrl: string;
  /** Fetched, this makes the proxy hold every request unanswered until `upUrl` is fetched. */
  hangUrl: string;
  /** Requests that reached the proxy for Blobs, and those it answered 502 (the server stopped), since the last reset. */
  requests: number;
  failed: number;
  down(): Promise<void>;
  /** Starts the server again, and ends every fault. */
  up(): Promise<void>;
  /** From now on, requests whose path and query match `keys` are answered 502 (`fail`) or held unanswered (`hang`), the rest passed on. */
  fault(kind: 'fail' | 'hang', keys?: RegExp): void;
  close(): Promise<void>;
}

/** A request's headers as a proxy passes them on: not those of the hop (fetch sets its own length and host, and undici refuses a length it did not count). */
export const passedOn = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)),
  ) as Record<string, string>;

export async function blobsBehindProxy(directory: string, token = 'token'): Promise<BlobsOutage> {
  let server: BlobsServer | undefined;
  let port: number | undefined;
  let fault: { kind: 'fail' | 'hang'; keys: RegExp } | undefined;
  const up = async () => {
    fault = undefined;
    if (server) return;
    server = new BlobsServer({ directory, token, logger: () => {}, port });
    port = (await server.start()).port;
  };
  const down = async () => {
    await server?.stop();
    server = undefined;
  };
  await up();
  const state = { requests: 0, failed: 0 };
  const bad = (res: ServerResponse) => {
    state.failed++;
    res.writeHead(502).end('bad gateway');
  };
  const proxy: Server = createServer((req, res) => {
    if (req.url === '/__outage/down' || req.url === '/__outage/up') {
      void (req.url.endsWith('down') ? down() : up()).then(() => res.end('ok'));
      return;
    }
    if (req.url === '/__outage/hang') {
      fault = { kind: 'hang', keys: /^/ };
      res.end('ok');
      return;
    }
    state.requests++;
    if (fault?.keys.test(req.url ?? '')) {
      // Held: the client's own timeout ends it, or `close` does.
      if (fault.kind === 'hang') return;
      return bad(res);
    }
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (!server) return bad(res);
      fetch(`http://127.0.0.1:${port}${req.url}`, {
        method: req.method,
        headers: passedOn(req.headers),
        body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : Buffer.concat(body),
      }).then(
        async (r) => res.writeHead(r.status, Object.fromEntries(r.headers)).end(Buffer.from(await r.arrayBuffer())),
        () => bad(res),
      );
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    downUrl: `${url}/__outage/down`,
    upUrl: `${url}/__outage/up`,
    hangUrl: `${url}/__outage/hang`,
    get requests() {
      return state.requests;
    },
    set requests(n: number) {
      state.requests = n;
    },
    get failed() {
      return state.failed;
    },
    set failed(n: number) {
      state.failed = n;
    },
    down,
    up,
    fault: (kind, keys = /^/) => {
      fault = { kind, keys };
    },
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await down();
    },
  };
}
