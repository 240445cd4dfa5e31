/**
 * The render cache (beside the store by default, or `--cache`, `$RENDER_CACHE`): the previous
 * build's output, as hard links to its files, and what each of its units was made from. A render
 * reuses a unit's files while the digest of its inputs is unchanged and each file has the SHA-256 it
 * had, and a bulk month's files while the manifest records the same inputs and each file hashes to
 * the SHA-256 the manifest gives; it renders the rest, then keeps its own output for the next. A
 * missing, partial or altered cache only costs time: whatever does not check out is made again.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BulkFile, type BulkManifest, readBulkIndex } from '../served/bulk-index.js';
import { readJsonFile, writeJsonFile } from '../served/site-file.js';
import type { Store } from '../store/store.js';
import { BULK_INDEX_FILE, BULK_KINDS, FORMATS, type Month, writeBulkMonth } from './bulk.js';
import type { FileWriter } from './file-writer.js';

/** What a unit's files were made from, and each file's SHA-256. */
export interface CachedUnit {
  digest: string;
  files: Record<string, string>;
}

interface CacheState {
  /** The code that made the output: another version renders everything again. */
  code: string;
  units: Record<string, CachedUnit>;
}

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

/** A file's SHA-256 and size, read a megabyte at a time (the bulk files run to tens of MB); undefined when it is missing. */
function fileSha256(path: string): { sha: string; bytes: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const hash = createHash('sha256');
    let bytes = 0;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, n));
      bytes += n;
    }
    return { sha: hash.digest('hex'), bytes };
  } finally {
    closeSync(fd);
  }
}

/**
 * A digest of the code that renders: every source file under src/ and the lock file of the
 * libraries it runs with. A deploy of other code never reuses what this one rendered.
 */
export function codeDigest(): string {
  const src = fileURLToPath(new URL('..', import.meta.url));
  const hash = createHash('sha256');
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(`${relative(src, file)}\n`).update(readFileSync(file));
  const lock = join(src, '..', 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  return hash.digest('hex');
}

export class RenderCache {
  /** The previous build's files, by their path under the publish folder. */
  private readonly output: string;
  private readonly units: Record<string, CachedUnit>;
  private readonly manifest: BulkManifest | undefined;

  constructor(
    readonly dir: string,
    code: string,
  ) {
    this.output = join(dir, 'output');
    const state = orUndefined(() => readJsonFile<CacheState>(join(dir, 'state.json')));
    this.units = state?.code === code ? state.units : {};
    this.manifest = state?.code === code ? orUndefined(() => readBulkIndex(join(this.output, BULK_INDEX_FILE))) : undefined;
  }

  /**
   * The previous build's files of a unit, put under `folder` when made from the same inputs and
   * each still hashes as it did (the output is hard links: a file edited in place in an old
   * publish folder is edited here too), with their sizes.
   */
  unit(key: string, digest: string, folder: string): { unit: CachedUnit; bytes: number[] } | undefined {
    const cached = this.units[key];
    if (cached?.digest !== digest) return undefined;
    const bytes: number[] = [];
    for (const [file, sha] of Object.entries(cached.files)) {
      const found = fileSha256(join(this.output, file));
      if (found?.sha !== sha) return undefined;
      bytes.push(found.bytes);
    }
    for (const file of Object.keys(cached.files)) linkOrCopy(join(this.output, file), join(folder, file));
    return { unit: cached, bytes };
  }

  /** The previous build's files of a bulk month, put under `folder` when made from the same inputs and whole. */
  month(month: Month, inputs: string, folder: string): BulkFile[] | undefined {
    const files = (this.manifest?.files ?? []).filter((f) => f.month === month.month && f.inputs_sha256 === inputs);
    if (files.length !== BULK_KINDS.length * FORMATS.length) return undefined;
    const cached = (f: BulkFile) => join(this.output, f.path);
    if (!files.every((f) => fileSha256(cached(f))?.sha === f.sha256)) return undefined;
    for (const f of files) linkOrCopy(cached(f), join(folder, f.path));
    return files;
  }

  /**
   * Keeps a render's output (the files under `folder`) and what its units were made from, for the
   * next render. The state goes first and comes back last, so an interrupted save leaves no state.
   */
  static save(dir: string, folder: string, code: string, units: Record<string, CachedUnit>): void {
    const [output, next, old, statePath] = ['output', 'output.next', 'output.old', 'state.json'].map((n) => join(dir, n)) as [
      string,
      string,
      string,
      string,
    ];
    mkdirSync(dir, { recursive: true });
    rmSync(statePath, { force: true });
    rmSync(next, { recursive: true, force: true });
    for (const e of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      const file = join(e.parentPath, e.name);
      linkOrCopy(file, join(next, relative(folder, file)));
    }
    rmSync(old, { recursive: true, force: true });
    if (existsSync(output)) renameSync(output, old);
    renameSync(next, output);
    rmSync(old, { recursive: true, force: true });
    writeJsonFile(statePath, { code, units } satisfies CacheState);
  }
}

/** What `read` reads, or undefined when it is missing or unreadable. */
function orUndefined<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A month's bulk files under the writer's folder: the render cache's when made from the same inputs, else written anew. */
export async function bulkMonth(
  store: Store,
  { month, inputs }: { month: Month; inputs: string },
  cache: RenderCache | undefined,
  out: FileWriter,
): Promise<{ files: BulkFile[]; reused: boolean }> {
  const reused = cache?.month(month, inputs, out.folder);
  if (reused) {
    for (const f of reused) out.count(f.bytes);
    return { files: reused, reused: true };
  }
  return { files: await writeBulkMonth(store, month, (file, body) => out.put(file, body), inputs), reused: false };
}
