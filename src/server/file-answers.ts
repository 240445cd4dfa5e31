/** A file of the publish folder answered as Netlify's CDN answers it: its header rules, byte ranges, and compression of whole text files. */
import { closeSync, createReadStream, fstatSync, openSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { JSON_TYPE } from '../api/contract/answer.js';
import { plainError } from '../api/contract/error.js';
import { clientWentAway } from '../api/http/netlify.js';
import { ERROR_CACHE } from '../api/http/respond.js';
import { acceptedCoding, compressible, forbidsTransform, varyOnEncoding } from './compress.js';
import type { Exchange } from './exchange.js';
import { headersFor } from './netlify-config.js';
import { byteRange, staticFile } from './static.js';

/**
 * The file of the last path, with the header rules of any of them; byte ranges answered, and a
 * whole text file compressed when the client accepts it (src/server/compress.ts). False when
 * there is none.
 */
export async function serveFile({ req, res, method, site }: Exchange, paths: string[]): Promise<boolean> {
  const file = method === 'GET' || method === 'HEAD' ? staticFile(site.publishDir, paths.at(-1)!) : undefined;
  if (!file) return false;
  // Opened once, and sized from what was opened: a render renaming a new folder in cannot change
  // the file between the headers and the bytes.
  let fd: number;
  try {
    fd = openSync(file.path, 'r');
  } catch {
    return false;
  }
  let sending = false;
  try {
    const stat = fstatSync(fd);
    const { size } = stat;
    const headers: Record<string, string> = {
      'Content-Type': file.contentType,
      'Accept-Ranges': 'bytes',
      ...headersFor(site.config.headers, paths),
    };
    const encodable = compressible(headers['Content-Type']) && !forbidsTransform(headers['Cache-Control']);
    // Every answer of a text file varies with Accept-Encoding, a range or identity one included:
    // a cache must not hand it to a client that asked otherwise.
    if (encodable) headers.Vary = varyOnEncoding(headers.Vary);
    // Byte ranges, so that Parquet readers fetch only the parts they need (HEAD answers as GET would).
    const range = byteRange(req.headers.range, size);
    if (range === 'unsatisfiable') return refuseRange(res, method, headers, size);
    // A range is of the file's own bytes, as its reader (a Parquet reader, a resumed download)
    // counts them: never of compressed ones.
    const coding = encodable && !range && size > 0 ? acceptedCoding(req.headers['accept-encoding']) : undefined;
    if (coding) {
      const body = site.compressed.get(file.path, stat, coding, () => readFileSync(fd));
      res.writeHead(200, { ...headers, 'Content-Encoding': coding, 'Content-Length': String(body.length) });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    if (range)
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) });
    else res.writeHead(200, { ...headers, 'Content-Length': String(size) });
    if (method === 'HEAD' || size === 0) {
      res.end();
      return true;
    }
    sending = true;
    try {
      await pipeline(createReadStream(file.path, { fd, start, end }), res);
    } catch (error) {
      if (!clientWentAway(error)) throw error;
    }
    return true;
  } finally {
    // The stream closes the file itself once it has been made.
    if (!sending) closeSync(fd);
  }
}

/**
 * A range past the end: an error as the API's are, in their JSON, whatever the file's own type,
 * and never kept by a cache, whatever the path's rules say of its file.
 */
function refuseRange(res: ServerResponse, method: string, headers: Record<string, string>, size: number): true {
  const body = JSON.stringify(
    plainError(416, 'RANGE_NOT_SATISFIABLE', `The byte range asked for starts past the end of the file (${size} bytes)`),
  );
  res.writeHead(416, {
    ...headers,
    'Content-Type': JSON_TYPE,
    'Content-Range': `bytes */${size}`,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': ERROR_CACHE,
  });
  res.end(method === 'HEAD' ? undefined : body);
  return true;
}
