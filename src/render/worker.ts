/**
 * A render worker: opens the served store read-only, then renders each batch of units it is given
 * into the render folder, reporting what it wrote or the first failure.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { storeContext } from '../api/context.js';
import { ROUTES, type Unit } from '../api/routes.js';
import { openStore } from '../store/store.js';
import { FileWriter, RenderError, renderUnit } from './unit.js';

export interface WorkerInput {
  storePath: string;
  folder: string;
}

export type WorkerReply = { done: true; files: number; bytes: number } | { done: false; error: string; renderError: boolean };

const input = workerData as WorkerInput;
const store = openStore(input.storePath, { readonly: true, immutable: true });
const ctx = storeContext(store);

parentPort!.on('message', (units: Unit[] | null) => {
  if (units === null) {
    store.close();
    return parentPort!.close();
  }
  const out = new FileWriter(input.folder);
  const all = async () => {
    for (const unit of units) await renderUnit(unit, ROUTES, ctx, out);
  };
  all().then(
    () => parentPort!.postMessage({ done: true, ...out.written } satisfies WorkerReply),
    (error: unknown) => parentPort!.postMessage({ done: false, error: error instanceof RenderError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error), renderError: error instanceof RenderError } satisfies WorkerReply),
  );
});
parentPort!.postMessage('ready');
