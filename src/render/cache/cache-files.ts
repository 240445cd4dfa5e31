/** The render cache's files: linked or copied in, hashed, stat'ed to the nanosecond, walked, kept inside their folder; and the digest of the code that renders. */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file at `to`, the same bytes as `from`: a hard link where the file system allows one, else a copy. */
export function linkOrCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

const chunk = Buffer.alloc(1 << 20);

/** A file's SHA-256, read a megabyte at a time (the bulk files run to tens of MB); undefined when it cannot be read. */
export function fileSha256(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const hash = createHash('sha256');
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** Whether a relative path from the state or the manifest stays inside its folder. */
export function inside(path: string): boolean {
  const clean = normalize(path);
  return path.length > 0 && !isAbsolute(path) && !path.includes('\0') && clean !== '..' && !clean.startsWith(`..${sep}`) && clean === path;
}

/**
 * A digest of the code that renders: every source file under src/, the lock file of the
 * libraries it runs with, and the Node.js version and its zlib, which compress the gzip files. A
 * deploy of other code never reuses what this one rendered.
 */
export function codeDigest(): string {
  const src = fileURLToPath(new URL('../..', import.meta.url));
  const hash = createHash('sha256').update(`node ${process.version} zlib ${process.versions.zlib}\n`);
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(`${relative(src, file)}\n`).update(readFileSync(file));
  const lock = join(src, '..', 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  return hash.digest('hex');
}

/** Every entry below `dir` (relative paths), and whether any is neither a file nor a folder. */
export function walk(dir: string): { files: string[]; odd: string | undefined } {
  const files: string[] = [];
  let odd: string | undefined;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = relative(dir, join(e.parentPath, e.name));
    if (e.isFile()) files.push(path);
    else if (!e.isDirectory()) odd ??= path;
  }
  return { files, odd };
}
