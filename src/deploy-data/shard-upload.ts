/**
 * A deploy's shards, uploaded to the site-wide Blobs store functions read them from
 * (remote-shards.ts): only the keys the store does not hold yet (a key is its bytes' SHA-256, so a
 * shard an earlier deploy uploaded is never sent again), then the deploy's manifest under
 * `manifests/`. Shards that none of the last KEEP_DEPLOYS manifests names are deleted, with the
 * older manifests: a deploy can be rolled back to, or previewed, as long as its manifest is kept.
 * A shard whose bytes are not its key's is never sent: the upload stops (ShardUnavailable) before
 * the manifest, and a render writes the shard again.
 */
import type { getStore } from '@netlify/blobs';
import { isShardKey, type ShardManifest } from '../store/shards/shard-format.js';
import { readShardFile } from './shard-folder.js';

/**
 * Manifests kept, so shards kept: two weeks of daily deploys, to roll back to or preview. A
 * rollback to an older deploy answers 503 for the shards it lacks, until a deploy replaces it.
 */
export const KEEP_DEPLOYS = 14;
/** Uploads at once: as Netlify Build uploads blobs (10 at a time, plugins_core/blobs_upload in netlify/build). */
const CONCURRENT_UPLOADS = 10;
const MANIFESTS = 'manifests/';

type Blobs = Pick<ReturnType<typeof getStore>, 'list' | 'set' | 'get' | 'delete'>;

export interface ShardUpload {
  /** Shards the manifest names, by key. */
  shards: number;
  /** Those uploaded now, and their bytes. */
  uploaded: number;
  bytes: number;
  /** Shards and manifests deleted (named by no manifest kept; older than the kept ones). */
  deleted: number;
  manifests: number;
  /** The manifest's own key in the store. */
  manifestKey: string;
}

/** Runs `work` on each item, `limit` at a time. */
async function inBatches<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(work));
}

/**
 * Uploads the shards of `manifest` from `folder` that `blobs` lacks, then the manifest as
 * `manifests/<at>.json` (`at`: the deploy's time, ISO 8601, which orders them), then deletes what
 * the last `keep` manifests do not name.
 */
export async function uploadShards(
  blobs: Blobs,
  folder: string,
  manifest: ShardManifest,
  at: string,
  keep = KEEP_DEPLOYS,
): Promise<ShardUpload> {
  const { blobs: listed } = await blobs.list();
  const held = new Set(listed.map((b) => b.key));
  const keys = [...new Set(Object.values(manifest.shards))];
  for (const key of keys) if (!isShardKey(key)) throw new Error(`the manifest names ${JSON.stringify(key)}, not a shard key`);
  const missing = keys.filter((key) => !held.has(key));
  let bytes = 0;
  await inBatches(missing, CONCURRENT_UPLOADS, async (key) => {
    // Sent as checked against their key: a shard of other bytes would answer 503 for every deploy that names it.
    const data = readShardFile(folder, key, key);
    bytes += data.length;
    await blobs.set(key, data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  });
  // The manifest last: a deploy that names it finds every shard it names.
  const manifestKey = `${MANIFESTS}${at}.json`;
  await blobs.set(manifestKey, JSON.stringify(manifest));
  const manifests = [...new Set([...listed.map((b) => b.key).filter((k) => k.startsWith(MANIFESTS)), manifestKey])].sort();
  const kept = manifests.slice(-keep);
  const named = new Set(keys);
  for (const name of kept) {
    if (name === manifestKey) continue;
    const other = (await blobs.get(name, { type: 'json' })) as ShardManifest | null;
    for (const key of Object.values(other?.shards ?? {})) named.add(key);
  }
  const doomed = [...listed.map((b) => b.key).filter((k) => isShardKey(k) && !named.has(k)), ...manifests.slice(0, -keep)];
  await inBatches(doomed, CONCURRENT_UPLOADS, (key) => blobs.delete(key));
  return { shards: keys.length, uploaded: missing.length, bytes, deleted: doomed.length, manifests: kept.length, manifestKey };
}
