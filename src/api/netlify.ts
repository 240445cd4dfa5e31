/** The Netlify Functions adapter: a web Request in, the shared `respond` out, as a web Response. */
import { pipeline, Readable } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { environmentContext } from './context.js';
import type { ApiContext } from './context.js';
import { respond, type ApiResponse, type ErrorLog } from './http.js';
import { requestForFile } from './file-requests.js';

/**
 * Answers a request: an `/api/...` URL as it is, or a publish-folder path (`/data/...`, where
 * rewrites land) as the API request that path stands for.
 */
export async function answer(request: Request, ctx: ApiContext = environmentContext()): Promise<Response> {
  const url = new URL(request.url);
  const mapped = url.pathname.startsWith('/api/') ? undefined : requestForFile(url.pathname, url.searchParams);
  const r = await respond({ method: request.method, path: url.pathname, query: url.searchParams, origin: url.origin, ...mapped }, ctx);
  return toResponse(r, request.headers.get('accept-encoding') ?? '');
}

/** A web Response; a streamed body is compressed with brotli or gzip when the client accepts it. */
export function toResponse(r: ApiResponse, acceptEncoding: string, log: ErrorLog = (m, e) => console.error(m, e)): Response {
  if (typeof r.body === 'string') return new Response(r.body === '' ? null : r.body, { status: r.status, headers: r.headers });
  const encoding = pickEncoding(acceptEncoding);
  const source = Readable.from(r.body, { objectMode: false });
  const headers: Record<string, string> = { ...r.headers, Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  const compressor =
    encoding === 'br'
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : encoding === 'gzip'
        ? createGzip({ level: 6 })
        : undefined;
  // pipeline, not pipe: a failing row errors the response, and a client that goes away closes
  // the row generator instead of leaving it suspended (and is no failure to log).
  const failed = (error: Error | null | undefined) => error && !clientWentAway(error) && log('streamed response failed', error);
  const stream = compressor ? pipeline(source, compressor, failed) : source.on('error', failed);
  return new Response(Readable.toWeb(stream) as ReadableStream, { status: r.status, headers });
}

/**
 * Whether a stream ended because its reader went away: the web body cancelled (an `AbortError`,
 * as Node's `Readable.toWeb` destroys the stream it reads on cancel), the socket closed before the
 * end (`ERR_STREAM_PREMATURE_CLOSE`), reset or broken. Not a failure of the server.
 */
export function clientWentAway(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return name === 'AbortError' || ['ABORT_ERR', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE'].includes(String(code));
}

/** `br` or `gzip` when accepted (q > 0), brotli first; undefined for identity. */
export function pickEncoding(acceptEncoding: string): 'br' | 'gzip' | undefined {
  const accepted = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return [name!, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  if ((accepted.get('br') ?? 0) > 0) return 'br';
  if ((accepted.get('gzip') ?? 0) > 0) return 'gzip';
  return undefined;
}
