import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server whose answers a test scripts, one per expected request, in the formats
 * the real providers send (test/fixtures). Provider clients are tested against it over real HTTP.
 */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (a client timeout ends it first). */
  delayMs?: number;
  /** Drop the connection instead of answering. */
  reset?: boolean;
}

export interface SeenRequest {
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
}

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  /** Answers the next `times` requests whose path matches. */
  on: (match: (url: URL) => boolean, reply: Reply | ((req: SeenRequest) => Reply), times?: number) => void;
  /** Requests that matched no script (they got a 599). */
  unexpected: string[];
  close: () => Promise<void>;
}

export async function scriptedServer(): Promise<ScriptedServer> {
  const scripts: Array<{ match: (url: URL) => boolean; reply: Reply | ((req: SeenRequest) => Reply); left: number }> = [];
  const seen: SeenRequest[] = [];
  const unexpected: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const request = { path: url.pathname + url.search, url, headers: req.headers };
    seen.push(request);
    const script = scripts.find((s) => s.left > 0 && s.match(url));
    if (!script) {
      unexpected.push(request.path);
      res.writeHead(599);
      return res.end();
    }
    script.left--;
    const reply = typeof script.reply === 'function' ? script.reply(request) : script.reply;
    const answer = () => {
      if (reply.reset) return req.socket.destroy();
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    };
    if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    unexpected,
    on: (match, reply, times = 1) => void scripts.push({ match, reply, left: times }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
