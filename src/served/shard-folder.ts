/**
 * The shards a render leaves beside the store: a folder of shards named by key (store/shards/),
 * and the manifest that names each shard's key, with the previous render's kept beside it so that
 * a reader still holding it finds its shards until the render after.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkedShard, isShardKey, manifestKey, type ShardManifest, ShardUnavailable } from '../store/shards/shard-format.js';
import type { ShardSource } from '../store/shards/shard-reader.js';
import type { PutShard } from '../store/shards/shard-writer.js';
import { readJsonFile, writeJsonFile } from './site-file.js';

export type { ShardManifest } from '../store/shards/shard-format.js';

/** Where the shards of the store at `dbPath` are kept, by key. */
export const shardFolderPath = (dbPath: string): string => join(dirname(dbPath), 'shards');
/** Where the manifest of the store at `dbPath`'s shards is. */
export const shardManifestPath = (dbPath: string): string => join(dirname(dbPath), 'shards.json');
const previousPath = (manifest: string) => manifest.replace(/\.json$/, '.previous.json');

/**
 * A `put` that stores each key's bytes once in `folder`: written under a name of its own, then
 * renamed, so a reader never sees half a shard. Says whether a key is there, and how many keys it
 * wrote (those not there yet).
 */
export function folderPut(folder: string): {
  put: PutShard;
  has: (key: string) => boolean;
  written: () => { shards: number; bytes: number };
} {
  mkdirSync(folder, { recursive: true });
  let [shards, bytes] = [0, 0];
  const has = (key: string) => existsSync(join(folder, key));
  const put: PutShard = (key, data) => {
    if (!isShardKey(key)) throw new Error(`not a shard key: ${key}`);
    if (has(key)) return;
    const path = join(folder, key);
    const next = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(next, data, { flag: 'wx' });
      renameSync(next, path);
    } catch (error) {
      rmSync(next, { force: true });
      throw error;
    }
    shards++;
    bytes += data.length;
  };
  return { put, has, written: () => ({ shards, bytes }) };
}

/**
 * Makes `manifest` the one at `path`, the one there before kept as the previous, and removes from
 * `folder` every shard neither names (and any half-written one).
 */
export function publishShards(path: string, folder: string, manifest: ShardManifest): void {
  const before = readShardManifest(path);
  if (before) writeJsonFile(previousPath(path), before);
  writeJsonFile(path, manifest);
  const named = new Set([...Object.values(manifest.shards), ...Object.values(readShardManifest(previousPath(path))?.shards ?? {})]);
  for (const name of readdirSync(folder)) if (!named.has(name)) rmSync(join(folder, name), { force: true });
}

/**
 * Where Netlify Build takes a deploy's own blobs from, each file a key (the file-based upload of
 * `plugins_core/blobs_upload` in netlify/build, which reads `.netlify/v1/blobs/deploy/`).
 */
export const DEPLOY_BLOBS_DIR = join('.netlify', 'v1', 'blobs', 'deploy');

/**
 * For a build on Netlify (its own, on each push): the shards of the manifest at `path` copied
 * under `root`'s DEPLOY_BLOBS_DIR, for Netlify Build to upload as the deploy's blobs, and the
 * manifest marked `store: 'deploy'` so that the functions read them there. Says how many.
 */
export function stageDeployShards(path: string, folder: string, root: string): number {
  const manifest = readShardManifest(path);
  if (!manifest) throw new Error(`no shards manifest at ${path}: render first`);
  const dir = join(root, DEPLOY_BLOBS_DIR);
  mkdirSync(dir, { recursive: true });
  const keys = [...new Set(Object.values(manifest.shards))];
  for (const key of keys) {
    if (!isShardKey(key)) throw new Error(`the manifest names ${JSON.stringify(key)}, not a shard key`);
    copyFileSync(join(folder, key), join(dir, key));
  }
  writeJsonFile(path, { ...manifest, store: 'deploy' });
  return keys.length;
}

/** The manifest at `path`, or undefined when no render has written one. */
export const readShardManifest = (path: string): ShardManifest | undefined => readJsonFile<ShardManifest>(path);

/** Shards read from a folder, by the keys a manifest names. */
export class FolderShards implements ShardSource {
  constructor(
    private readonly folder: string,
    private readonly manifest: ShardManifest,
  ) {}

  get(name: string): Uint8Array {
    const key = manifestKey(this.manifest, name);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(this.folder, key));
    } catch (error) {
      throw new ShardUnavailable(
        name,
        `cannot be read from ${this.folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    return checkedShard(name, key, bytes);
  }
}
