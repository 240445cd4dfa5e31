/**
 * A render worker: opens the served store read-only, then renders each batch of units (or month
 * of bulk files) it is given into the render folder, reporting what it wrote or the first failure.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { storeContext } from '../api/context.js';
import { ROUTES, type Unit } from '../api/routes.js';
import type { BulkFile } from '../served/bulk-index.js';
import { openStore } from '../store/store.js';
import type { Month } from './bulk.js';
import { BulkCache, bulkMonth } from './bulk-cache.js';
import { FileWriter, RenderError, renderUnit } from './unit.js';

export interface WorkerInput {
  storePath: string;
  folder: string;
  /** Where the previous build's bulk files are kept. */
  bulkCacheDir: string;
}

/** A batch of units, or a month of bulk files, or null: no more work. */
export type WorkerTask = Unit[] | { bulk: Month } | null;

export type WorkerReply =
  | { done: true; files: number; bytes: number; seconds: number; bulk?: { files: BulkFile[]; reused: boolean } }
  | { done: false; error: string; renderError: boolean };

const input = workerData as WorkerInput;
const store = openStore(input.storePath, { readonly: true, immutable: true });
const ctx = storeContext(store);
const cache = new BulkCache(input.bulkCacheDir);

parentPort!.on('message', (task: WorkerTask) => {
  if (task === null) {
    store.close();
    return parentPort!.close();
  }
  const out = new FileWriter(input.folder);
  const started = performance.now();
  let bulk: { files: BulkFile[]; reused: boolean } | undefined;
  const all = async () => {
    if ('bulk' in task) bulk = await bulkMonth(store, task.bulk, cache, out);
    else for (const unit of task) await renderUnit(unit, ROUTES, ctx, out);
  };
  all().then(
    () =>
      parentPort!.postMessage({
        done: true,
        ...out.written,
        seconds: (performance.now() - started) / 1000,
        ...(bulk ? { bulk } : {}),
      } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        done: false,
        error: error instanceof RenderError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error),
        renderError: error instanceof RenderError,
      } satisfies WorkerReply),
  );
});
parentPort!.postMessage('ready');
