/** A function's answer as Netlify gives it: the request as asked, and the CDN's compression of a text answer. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { clientWentAway } from '../api/http/netlify.js';
import { acceptedCoding, type Coding, compressible, compressor, encodedEtag, forbidsTransform, varyOnEncoding } from './compress.js';
import type { Exchange } from './exchange.js';
import type { LoadedFunction } from './functions.js';

/**
 * Calls a function with the original request: on Netlify a function reached through a rewrite
 * sees the URL and query that were asked for, not the rewrite's target. A client that goes away
 * while the answer streams ends the stream; that is not a failure of the server.
 */
export async function callFunction({ req, res, url, method, site }: Exchange, fn: LoadedFunction): Promise<true> {
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // The URL a function sees is on this server's own address, never the Host a client sent:
  // answers link to it (feeds, calendars), and anyone can send any Host.
  const request = new Request(new URL(url.pathname + url.search, site.origin), {
    method,
    headers: toHeaders(req),
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await fn.handler(request, {});
  const headers = Object.fromEntries(response.headers);
  // Decided from the headers alone, so that a HEAD, whose answer has no body, gets those of its GET.
  const coding = encodeAnswer(headers, response.status, req.headers['accept-encoding']);
  res.writeHead(response.status, headers);
  if (method === 'HEAD' || (!response.body && !coding)) {
    res.end();
    return true;
  }
  const body = response.body ? Readable.fromWeb(response.body as NodeReadableStream) : Readable.from([]);
  try {
    await (coding ? pipeline(body, compressor(coding), res) : pipeline(body, res));
  } catch (error) {
    if (!clientWentAway(error)) throw error;
  }
  return true;
}

/**
 * What the CDN does to a function's answer (src/server/compress.ts): a text answer the function
 * did not encode itself is compressed when the client accepts it, with no Content-Length (it
 * streams) and Netlify's `-df` ETag; every text answer varies with Accept-Encoding. Changes
 * `headers` (lower-case names, as a web Response gives them); the coding to apply, if any.
 */
function encodeAnswer(headers: Record<string, string>, status: number, acceptEncoding: string | string[] | undefined): Coding | undefined {
  if (!compressible(headers['content-type']) || forbidsTransform(headers['cache-control'])) return undefined;
  headers.vary = varyOnEncoding(headers.vary);
  const encoded = (headers['content-encoding'] ?? 'identity').toLowerCase() !== 'identity';
  // No body (204, 304), or a part of one (206): nothing to compress.
  const whole = status >= 200 && status !== 204 && status !== 206 && status !== 304 && !headers['content-range'];
  const coding = !encoded && whole ? acceptedCoding(acceptEncoding) : undefined;
  if (!coding) return undefined;
  headers['content-encoding'] = coding;
  delete headers['content-length'];
  if (headers.etag) headers.etag = encodedEtag(headers.etag);
  return coding;
}

/** A Node request's headers as a web Request's. */
function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
  }
  return headers;
}
