/**
 * Content codings as Netlify's CDN applies them, so that the bytes `npm start` sends are those a
 * deployment sends. What Netlify's own sources say:
 * - It serves Brotli when the client accepts it, with no action from the site ("Gain instant
 *   performance boosts as Brotli comes to Netlify Edge", netlify.com/blog, 2020-05-20, quoted in
 *   cosmos/stargate PR #45 beside a deploy preview answering `br` where localhost answered gzip),
 *   and gzip otherwise.
 * - Function answers are compressed too: "Netlify normally compresses pages with Brotli
 *   (Content-Encoding: br)" of server-rendered pages, which are function answers
 *   (withastro/adapters #269).
 * - A compressed answer's ETag is the identity answer's with `-df` appended inside the quotes
 *   (`"…-ssl"` and `"…-ssl-df"`, answers.netlify.com/t/37852), and it carries
 *   `Vary: Accept-Encoding`.
 * Netlify does not document which types it compresses or at which levels: this server compresses
 * text types only (HTML, CSS, JavaScript, JSON and its `+json` kin such as GeoJSON, CSV, plain
 * text, calendars, XML and SVG), never binary ones (Parquet, PNG, gzip files), whose bytes a
 * coding would not shrink and whose byte ranges it would break. Its levels (Brotli 5, gzip 6) are
 * moderate: if the CDN compresses harder, sizes measured here overstate a deployment's, never
 * understate them.
 */

import type { Transform } from 'node:stream';
import { type BrotliOptions, brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type ZlibOptions } from 'node:zlib';

export type Coding = 'br' | 'gzip';

const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP: ZlibOptions = { level: 6 };

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110, section 12.5.3): the
 * accepted one of `br` and `gzip` with the higher q-value, Brotli when they tie; `*` stands for
 * any coding the header does not name, and q=0 means "not acceptable". Undefined: identity.
 */
export function acceptedCoding(header: string | string[] | undefined): Coding | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.map((p) => /^q\s*=\s*([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : undefined;
}

/** Whether answers of this Content-Type are compressed: text, never binary or event streams. */
export function compressible(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // An event stream is read as it comes: a compressor holding its bytes back would delay every event.
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    /^application\/(json|javascript|ecmascript|xml|x-ndjson)$/.test(type) ||
    /^(application|image)\/[a-z0-9.+-]+\+(json|xml)$/.test(type)
  );
}

/** RFC 9110 section 7.7: `no-transform` forbids an intermediary to change the content, its coding included. */
export function forbidsTransform(cacheControl: string | undefined): boolean {
  return /(^|,)\s*no-transform\s*(,|$)/i.test(cacheControl ?? '');
}

/** A Vary value that names Accept-Encoding, keeping whatever else it names. */
export function varyOnEncoding(vary: string | undefined): string {
  const names = (vary ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.some((n) => n === '*' || n.toLowerCase() === 'accept-encoding')) return names.join(', ');
  return [...names, 'Accept-Encoding'].join(', ');
}

/** The ETag of a compressed answer: the identity one's, `-df` appended inside its quotes, as Netlify's are. */
export function encodedEtag(etag: string): string {
  return /"$/.test(etag) ? `${etag.slice(0, -1)}-df"` : etag;
}

/** A compressing stream, for answers whose length is known only once sent. */
export function compressor(coding: Coding): Transform {
  return coding === 'br' ? createBrotliCompress(BROTLI) : createGzip(GZIP);
}

export function compressBytes(bytes: Buffer, coding: Coding): Buffer {
  return coding === 'br' ? brotliCompressSync(bytes, BROTLI) : gzipSync(bytes, GZIP);
}

/**
 * Compressed static files, kept while the file is unchanged (same size and mtime: a render writes
 * a new file, never edits one in place). Bounded: past `maxBytes` of compressed bytes the oldest
 * entries go, so that a large publish folder cannot grow the server without end.
 */
export class CompressedFiles {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(path: string, version: { size: number; mtimeMs: number }, coding: Coding, read: () => Buffer): Buffer {
    const key = `${coding}\0${version.size}\0${version.mtimeMs}\0${path}`;
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used last, so that eviction takes the least recently used first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const compressed = compressBytes(read(), coding);
    if (compressed.length > this.maxBytes) return compressed;
    this.entries.set(key, compressed);
    this.bytes += compressed.length;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.length;
    }
    return compressed;
  }
}
