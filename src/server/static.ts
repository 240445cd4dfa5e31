/** Files of the publish folder, resolved so that no request can reach outside it. */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticFile {
  body: Buffer;
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
    return { body: readFileSync(real), contentType: TYPES[extname(real)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
