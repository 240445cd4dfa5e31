/**
 * The shards a render leaves beside the store: a folder of shards named by key (store/shards/),
 * shared by the renders, and the manifest that names each shard's key, in the render's own folder
 * (`served`, site-file.ts), with the previous render's kept beside it so that a reader still
 * holding it finds its shards until the render after.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkedShard, isShardKey, manifestKey, type ShardManifest, ShardUnavailable } from '../store/shards/shard-format.js';
import type { ShardSource } from '../store/shards/shard-index.js';
import type { PutShard } from '../store/shards/shard-writer.js';
import { processAlive, TEMP_FILE } from './leftovers.js';
import { kindAt, readNoFollow } from './safe-files.js';
import { readJsonFile, servedDirPath, writeJsonFile } from './site-file.js';

export type { ShardManifest } from '../store/shards/shard-format.js';

/** Where the shards of the store at `dbPath` are kept, by key. */
export const shardFolderPath = (dbPath: string): string => join(dirname(dbPath), 'shards');
/** Where the manifest of the store at `dbPath`'s shards is. */
export const shardManifestPath = (dbPath: string): string => join(servedDirPath(dbPath), 'shards.json');
const previousPath = (manifest: string) => manifest.replace(/\.json$/, '.previous.json');

/**
 * The bytes of the shard `name` from `folder`, at its `key`: a file (never a link followed) whose
 * bytes are the key's (checkedShard), else ShardUnavailable. Every reader of the folder takes its
 * shards through here: the functions' source, the render keeping a shard, the upload sending one.
 */
export function readShardFile(folder: string, name: string, key: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = readNoFollow(join(folder, key));
  } catch (error) {
    throw new ShardUnavailable(
      name,
      `cannot be read from ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return checkedShard(name, key, bytes);
}

/**
 * A `put` that stores each key's bytes once in `folder`: written under a name of its own, then
 * renamed, so a reader never sees half a shard. Says whether a key is there (a file holding that
 * key's bytes: one that does not, a link or a folder in its place, is written again), how many keys
 * it wrote (those not there yet), and what it found in their place and replaced.
 */
export function folderPut(folder: string): {
  put: PutShard;
  has: (key: string) => boolean;
  written: () => { shards: number; bytes: number };
  replaced: () => string[];
} {
  mkdirSync(folder, { recursive: true });
  if (kindAt(folder) !== 'folder') throw new Error(`the shards folder ${folder} is a link or a file, not a folder: remove it`);
  let [shards, bytes] = [0, 0];
  const whole = new Set<string>();
  const replaced: string[] = [];
  const has = (key: string) => {
    if (whole.has(key)) return true;
    try {
      readShardFile(folder, key, key);
    } catch (error) {
      if (error instanceof ShardUnavailable) return false;
      throw error;
    }
    whole.add(key);
    return true;
  };
  const put: PutShard = (key, data) => {
    if (!isShardKey(key)) throw new Error(`not a shard key: ${key}`);
    if (has(key)) return;
    const path = join(folder, key);
    const there = kindAt(path);
    if (there !== 'none') {
      replaced.push(`${key} (${there === 'file' ? 'not the bytes of its key' : there === 'folder' ? 'a folder' : 'a link'})`);
      // A file or a link is replaced by the rename; a folder would refuse it.
      if (there === 'folder') rmSync(path, { recursive: true, force: true });
    }
    const next = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(next, data, { flag: 'wx' });
      renameSync(next, path);
    } catch (error) {
      rmSync(next, { force: true });
      throw error;
    }
    whole.add(key);
    shards++;
    bytes += data.length;
  };
  return { put, has, written: () => ({ shards, bytes }), replaced: () => replaced };
}

/**
 * Writes `manifest` at `path` (in a render's folder, not served yet), with the manifest served now
 * (at `current`) beside it as the previous, and brings `folder` to the shards either names: any
 * other file is removed (a file another render is writing is left to it), and so is a link or a
 * folder, which a render never makes there. Says what it found that is not a render's (a manifest
 * that is not one, links, folders, other files).
 */
export function publishShards(current: string, path: string, folder: string, manifest: ShardManifest): string[] {
  const warnings: string[] = [];
  const before = manifestOrNone(current, warnings);
  if (before) writeJsonFile(previousPath(path), before);
  writeJsonFile(path, manifest);
  const named = new Set([...Object.values(manifest.shards), ...Object.values(before?.shards ?? {})]);
  const strays: string[] = [];
  for (const name of readdirSync(folder)) {
    if (named.has(name)) continue;
    const temp = TEMP_FILE.exec(name)?.[1];
    if (temp !== undefined && processAlive(Number(temp))) continue;
    const kind = kindAt(join(folder, name));
    // Shards no manifest names any more, and files a killed render left, go without a word.
    if (kind !== 'file' || !(isShardKey(name) || temp !== undefined)) strays.push(`${name} (${kind === 'other' ? 'a link' : kind})`);
    rmSync(join(folder, name), { recursive: true, force: true });
  }
  if (strays.length > 0) warnings.push(`the shards folder ${folder} held what no render writes there, removed: ${strays.join(', ')}`);
  return warnings;
}

/**
 * The manifest a render left at `path`, or undefined when there is none, or none to trust: a link
 * (never followed), a folder, or a file that is not a manifest is as good as absent, and a render
 * writes the manifest anew (`warnings` says what it found).
 */
export function manifestOrNone(path: string, warnings: string[]): ShardManifest | undefined {
  const kind = kindAt(path);
  if (kind === 'none') return undefined;
  if (kind !== 'file') {
    warnings.push(
      `the shards manifest ${path} is ${kind === 'folder' ? 'a folder' : 'a link'}, not a file: it is ignored and written anew`,
    );
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(readNoFollow(path).toString('utf8'));
  } catch (error) {
    warnings.push(`the shards manifest ${path} does not parse (${(error as Error).message}): it is ignored and written anew`);
    return undefined;
  }
  if (!isManifest(value)) {
    warnings.push(`the shards manifest ${path} is not one (a format, and a shard key and size by name): it is ignored and written anew`);
    return undefined;
  }
  return value;
}

const isManifest = (value: unknown): value is ShardManifest => {
  const m = value as Partial<ShardManifest> | null;
  return (
    typeof m?.format === 'number' &&
    typeof m.shards === 'object' &&
    m.shards !== null &&
    Object.values(m.shards).every((key) => typeof key === 'string' && isShardKey(key)) &&
    typeof m.bytes === 'object' &&
    m.bytes !== null
  );
};

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
    // Sent out as checked: a shard not the bytes of its key would answer 503 for as long as the deploy is served.
    writeFileSync(join(dir, key), readShardFile(folder, key, key));
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
    return readShardFile(this.folder, name, manifestKey(this.manifest, name));
  }
}
