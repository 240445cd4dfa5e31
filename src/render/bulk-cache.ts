/**
 * The previous build's bulk files, kept in a folder of the render cache: a render reuses each
 * month whose inputs' digest is the one the previous manifest records, once every one of its files
 * hashes to the SHA-256 the manifest gives; it writes the other months anew, then keeps its own
 * files and manifest for the next render. A missing, partial or tampered cache only costs time.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BulkFile, type BulkManifest, readBulkIndex, writeBulkIndex } from '../served/bulk-index.js';
import type { Store } from '../store/store.js';
import { BULK_KINDS, FORMATS, type Month, monthDigest, writeBulkMonth } from './bulk.js';
import type { FileWriter } from './unit.js';

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

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

export class BulkCache {
  private readonly manifestPath: string;
  private readonly previous: BulkManifest | undefined;

  /** The cache in `dir` (its bulk files, by their path under the publish folder, and their manifest). */
  constructor(private readonly dir: string) {
    this.manifestPath = join(dir, 'index.json');
    let previous: BulkManifest | undefined;
    try {
      previous = readBulkIndex(this.manifestPath);
    } catch {
      previous = undefined; // unreadable: as if there were none
    }
    this.previous = previous;
  }

  /**
   * The previous build's files of a month, when made from the same inputs and whole: each is put
   * at its place under `folder`, and their manifest entries returned. Undefined: write the month.
   */
  reuse(month: Month, inputs: string, folder: string): BulkFile[] | undefined {
    const files = (this.previous?.files ?? []).filter((f) => f.month === month.month && f.inputs_sha256 === inputs);
    if (files.length !== BULK_KINDS.length * FORMATS.length) return undefined;
    const cached = (f: BulkFile) => join(this.dir, f.path);
    if (!files.every((f) => existsSync(cached(f)) && sha256(cached(f)) === f.sha256)) return undefined;
    for (const f of files) linkOrCopy(cached(f), join(folder, f.path));
    return files;
  }

  /** Keeps a render's bulk files (under `folder`) and their manifest for the next render; drops the others. */
  save(folder: string, manifest: BulkManifest): void {
    const kept = new Set(manifest.files.map((f) => f.path.split('/').at(-1)!));
    for (const f of manifest.files) {
      const next = join(this.dir, `${f.path}.next`);
      linkOrCopy(join(folder, f.path), next);
      renameSync(next, join(this.dir, f.path));
    }
    const bulkDir = join(this.dir, dirname(manifest.files[0]?.path ?? '/data/bulk/x'));
    if (existsSync(bulkDir)) for (const name of readdirSync(bulkDir)) if (!kept.has(name)) rmSync(join(bulkDir, name), { force: true });
    mkdirSync(this.dir, { recursive: true });
    writeBulkIndex(this.manifestPath, manifest);
  }
}

/** A month's bulk files under the writer's folder: the cache's when made from the same inputs, else written anew. */
export async function bulkMonth(
  store: Store,
  month: Month,
  cache: BulkCache,
  out: FileWriter,
): Promise<{ files: BulkFile[]; reused: boolean }> {
  const inputs = monthDigest(store, month);
  const reused = cache.reuse(month, inputs, out.folder);
  if (reused) {
    for (const f of reused) out.count(f.bytes);
    return { files: reused, reused: true };
  }
  return { files: await writeBulkMonth(store, month, (file, body) => out.put(file, body), inputs), reused: false };
}
