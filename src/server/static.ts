/** Files of the publish folder, resolved so that no request can reach outside it. */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  // IANA registered application/vnd.apache.parquet in 2024 (iana.org/assignments/media-types).
  '.parquet': 'application/vnd.apache.parquet',
  '.gz': 'application/gzip',
};

/** A file found, not read: its answer reads only the bytes it sends (a range of a large Parquet file is a few bytes). */
export interface StaticFile {
  path: string;
  contentType: string;
}

/**
 * The file a URL path names in the publish folder, or undefined. Paths with `..` segments, NUL
 * bytes or bad escapes name nothing; symlinks may not lead outside the folder.
 */
export function staticFile(publishDir: string, urlPath: string): StaticFile | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (!path.startsWith('/') || path.includes('\0') || path.split('/').some((s) => s === '..' || s === '.')) return undefined;
  if (path === '/_redirects' || path === '/_headers') return undefined; // Netlify reads these, never serves them
  if (!existsSync(publishDir)) return undefined;
  const root = realpathSync(publishDir);
  let file = join(root, path);
  if (path.endsWith('/')) file = join(file, 'index.html');
  try {
    const real = realpathSync(file);
    if (!real.startsWith(root + sep) || !statSync(real).isFile()) return undefined;
    return { path: real, contentType: TYPES[extname(real)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

/** The bytes [start, end] of a file (inclusive, as Content-Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110, section 14): one range, or
 * 'unsatisfiable' (416), or undefined to send the whole file, as for no header, another unit,
 * bad syntax or several ranges (which a server may answer whole).
 */
export function byteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return undefined; // invalid: ignored, as the RFC says
  return start >= size ? 'unsatisfiable' : { start, end: Math.min(m[2] === '' ? size - 1 : Number(m[2]), size - 1) };
}
