/** The Netlify Functions adapter: a web Request in, the shared `respond` out, as a web Response. */
import { pipeline, Readable } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { ApiContext } from '../contract/context.js';
import { requestForFile } from './file-requests.js';
import { type ApiResponse, type ErrorLog, respondFetched } from './respond.js';

/**
 * Answers a request: an `/api/...` URL as it is, or a publish-folder path (`/data/...`, where
 * rewrites land) as the API request that path stands for. Links in answers are on `siteOrigin`.
 */
export async function respondToRequest(request: Request, ctx: ApiContext, env: NodeJS.ProcessEnv = process.env): Promise<Response> {
  const url = new URL(request.url);
  const mapped = url.pathname.startsWith('/api/') ? undefined : requestForFile(url.pathname, url.searchParams);
  // A HEAD is answered as its GET, whose body is then left unread: whether the body streams decides
  // Vary and Content-Encoding, and respond() empties a HEAD's body before that can be seen.
  const head = request.method.toUpperCase() === 'HEAD';
  const r = await respondFetched(
    { method: head ? 'GET' : request.method, path: url.pathname, query: url.searchParams, origin: siteOrigin(url, env), ...mapped },
    ctx,
  );
  return toResponse(r, request.headers.get('accept-encoding') ?? '', undefined, head);
}

/**
 * The origin answers link to (a feed's own URL, a calendar's events): the site's, never one a
 * request names, since the Host a request came with is whatever its client wrote. Deployed, it is
 * `URL`, the site's main address (one of the three variables Netlify gives functions at run time),
 * unless the request came to one of this site's own Netlify addresses: `SITE_NAME.netlify.app`, or
 * `<deploy or branch>--SITE_NAME.netlify.app` (a draft, a preview), whose links stay on it. Without
 * `URL` (the local server, which builds the request's URL from its own address), the request's.
 */
export function siteOrigin(url: URL, env: NodeJS.ProcessEnv = process.env): string {
  const main = httpOrigin(env.URL);
  if (!main) return url.origin;
  const name = env.SITE_NAME?.toLowerCase();
  const own =
    url.protocol === 'https:' &&
    url.port === '' &&
    name !== undefined &&
    /^[a-z0-9-]+$/.test(name) &&
    (url.hostname === `${name}.netlify.app` || new RegExp(`^[a-z0-9-]+--${name}\\.netlify\\.app$`).test(url.hostname));
  return own ? url.origin : main;
}

/** The origin of an http(s) URL; undefined for anything else. */
function httpOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A web Response; a streamed body is compressed with brotli or gzip when the client accepts it.
 * `head`: the same status and headers with no body (RFC 9110, section 9.3.2), nothing read.
 */
export function toResponse(r: ApiResponse, acceptEncoding: string, log: ErrorLog = (m, e) => console.error(m, e), head = false): Response {
  if (typeof r.body === 'string') return new Response(head || r.body === '' ? null : r.body, { status: r.status, headers: r.headers });
  const encoding = pickEncoding(acceptEncoding);
  const headers: Record<string, string> = { ...r.headers, Vary: 'Accept-Encoding' };
  if (encoding) headers['Content-Encoding'] = encoding;
  if (head) {
    // Never started, so closing it reads nothing and releases whatever it would have opened.
    (r.body as Partial<Iterator<string>>).return?.();
    return new Response(null, { status: r.status, headers });
  }
  const source = Readable.from(r.body, { objectMode: false });
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
