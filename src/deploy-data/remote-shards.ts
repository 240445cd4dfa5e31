/**
 * Shards read from Netlify Blobs, as deployed functions read them: the keys a deploy's manifest
 * names, in the site-wide store every deploy shares (a key is the SHA-256 of its bytes, so a
 * deploy finds there every shard an earlier one uploaded with the same bytes). A request reads
 * through a session: what it reads that is not here yet reads as empty and is noted, and the
 * answer is made again once the session has fetched it (api/http/fetch-rounds.ts). Shards fetched stay
 * in a cache bounded by bytes, shared by the requests a function instance serves.
 */
import { getDeployStore, getStore } from '@netlify/blobs';
import { RecentlyUsed } from '../store/day-cache.js';
import { checkedShard, INDEX_SHARD, manifestKey, type ShardManifest, ShardUnavailable } from '../store/shards/shard-format.js';
import { ShardIndex, type ShardSource } from '../store/shards/shard-index.js';
import { boundedFetch } from './blobs-fetch.js';

/** The site-wide Blobs store of shards. */
export const SHARD_STORE = 'pollen-shards';

/** Shards fetched at once by one request (the client's own uploads go 10 at a time). */
const CONCURRENT_FETCHES = 8;
/** Shards a function instance keeps, by count (a city's quarter is about 30 kB, a day of 1,000 cities about 300 kB). */
const SHARDS_KEPT = 256;

/** After a fetch that gave up, how long the instance answers 503 at once: shorter than the forecast's, since every answer reads shards. */
export const SHARD_PAUSE_MS = 5_000;

/** What a request's answer reads through: a source, what it lacks, and how to fetch that. */
export interface ShardSession extends ShardSource {
  readonly index: ShardIndex;
  /** Whether a read found a shard not here yet. */
  lacking(): boolean;
  /** Fetches every shard found lacking; throws ShardUnavailable when one cannot be had. */
  fetch(): Promise<void>;
}

type Blobs = Pick<ReturnType<typeof getStore>, 'get'>;

export class RemoteShards {
  private readonly cache = new RecentlyUsed<Uint8Array>(SHARDS_KEPT);
  private index: Promise<ShardIndex> | undefined;

  private readonly blobs: Blobs;

  /** The shards of `manifest`: in the site's store, or the deploy's own where the manifest says so (its build staged them). */
  constructor(
    private readonly manifest: ShardManifest,
    blobs?: Blobs,
  ) {
    const fetch = boundedFetch(globalThis.fetch, { pauseMs: SHARD_PAUSE_MS });
    this.blobs = blobs ?? (manifest.store === 'deploy' ? getDeployStore({ fetch }) : getStore({ name: SHARD_STORE, fetch }));
  }

  /** A session for one request, once the index is here (fetched on the instance's first request, and again after a failure). */
  async session(): Promise<ShardSession> {
    this.index ??= this.bytes(INDEX_SHARD).then((bytes) => ShardIndex.of({ get: () => bytes }));
    let index: ShardIndex;
    try {
      index = await this.index;
    } catch (error) {
      this.index = undefined;
      throw error;
    }
    return this.open(index);
  }

  private open(index: ShardIndex): ShardSession {
    // A request holds what it fetched until it is answered, whatever the cache drops meanwhile.
    const held = new Map<string, Uint8Array>();
    const wanted = new Set<string>();
    return {
      index,
      get: (name) => {
        let bytes = held.get(name);
        if (bytes) return bytes;
        bytes = this.cache.get(manifestKey(this.manifest, name));
        if (bytes) held.set(name, bytes);
        else wanted.add(name);
        return bytes;
      },
      lacking: () => wanted.size > 0,
      fetch: async () => {
        const names = [...wanted];
        wanted.clear();
        for (let i = 0; i < names.length; i += CONCURRENT_FETCHES) {
          await Promise.all(names.slice(i, i + CONCURRENT_FETCHES).map(async (name) => held.set(name, await this.bytes(name))));
        }
      },
    };
  }

  /**
   * A shard's bytes from Blobs, checked against its key and kept. Read with eventual consistency
   * (served from Netlify's edge); a key not found there is asked once more with strong consistency,
   * since one uploaded just before the deploy may not have reached the edge yet.
   */
  private async bytes(name: string): Promise<Uint8Array> {
    const key = manifestKey(this.manifest, name);
    const kept = this.cache.get(key);
    if (kept) return kept;
    let data: ArrayBuffer | null;
    try {
      data = await this.blobs.get(key, { type: 'arrayBuffer' });
      if (data === null) {
        data = await this.blobs.get(key, { type: 'arrayBuffer', consistency: 'strong' });
      }
    } catch (error) {
      throw new ShardUnavailable(name, `Netlify Blobs did not answer (${(error as Error).message})`);
    }
    if (data === null) throw new ShardUnavailable(name, `the manifest names key ${key}, which the shard store lacks`);
    const bytes = checkedShard(name, key, new Uint8Array(data));
    this.cache.set(key, bytes);
    return bytes;
  }
}
