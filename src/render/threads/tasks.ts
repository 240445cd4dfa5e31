/**
 * A render's tasks, as a worker thread or the render's own thread runs them: a batch of units, a
 * month of bulk files or the seasons file, each put under the render folder from the render
 * cache where what it is made from is unchanged, else rendered from the served store.
 */

import { ROUTES, type Route } from '../../api/routes.js';
import type { BulkFile } from '../../deploy-data/bulk-index.js';
import { type Month, writeBulkMonth, writeSeasonsFiles } from '../../output/bulk/months.js';
import type { FileRecord } from '../../output/file-records.js';
import { FileWriter, type Written } from '../../output/file-writer.js';
import { openStore } from '../../store/store.js';
import { storeContext } from '../../wiring/contexts.js';
import { bulkFiles } from '../bulk/reuse.js';
import type { PlannedUnit } from '../cache/input-digests.js';
import { type CachedUnit, RenderCache } from '../cache/render-cache.js';
import { renderOrReuse } from '../unit-files.js';

export interface TaskInput {
  storePath: string;
  folder: string;
  /** The render cache to reuse files from (none: everything is rendered), and the digest of the code its output was made with. */
  cacheDir: string | undefined;
  /** The render cache's key (cache-key.ts), in hex: a thread is given it, never reads it again. */
  cacheKey: string;
  code: string;
  /** Whether to record each unit's and month's files for the next render's cache. */
  record: boolean;
}

/** A batch of units, a month of bulk files or the seasons file, each with what it is made from; or null: no more work. */
export type WorkerTask = PlannedUnit[] | { bulk: Month; inputs: string } | { seasons: string } | null;

export interface TaskResult extends Written {
  seconds: number;
  /** What the units were made from, for the next render's cache. */
  units: Array<[string, CachedUnit]>;
  /** How many of them came from the render cache. */
  reused: number;
  /** What was recorded of each file the units and months put, for the next render's cache. */
  records: Array<[string, FileRecord]>;
  bulk?: { files: BulkFile[]; reused: boolean };
}

/** Opens the served store and the render cache to run tasks; `close` when done. */
export function openTasks(input: TaskInput, routes: readonly Route[] = ROUTES) {
  const store = openStore(input.storePath, { readonly: true, immutable: true });
  const ctx = storeContext(store);
  const cache = input.cacheDir === undefined ? undefined : new RenderCache(input.cacheDir, input.code, Buffer.from(input.cacheKey, 'hex'));
  return {
    async run(task: Exclude<WorkerTask, null>): Promise<TaskResult> {
      const out = new FileWriter(input.folder);
      const started = performance.now();
      const units: Array<[string, CachedUnit]> = [];
      const records = new Map<string, FileRecord>();
      let reused = 0;
      let bulk: TaskResult['bulk'];
      if ('bulk' in task || 'seasons' in task) {
        const files =
          'bulk' in task
            ? await bulkFiles(
                store,
                { month: task.bulk.month, inputs: task.inputs },
                (put) => writeBulkMonth(store, task.bulk, put, task.inputs),
                cache,
                out,
              )
            : await bulkFiles(
                store,
                { month: null, inputs: task.seasons },
                (put) => writeSeasonsFiles(store, put, task.seasons),
                cache,
                out,
              );
        if (input.record) for (const [file, record] of files.records) records.set(file, record);
        bulk = { files: files.files, reused: files.reused };
      } else {
        for (const unit of task) {
          const kept = await renderOrReuse(unit, routes, ctx, out, cache, input.record ? records : undefined);
          if (!kept) continue;
          units.push([kept.key, kept.unit]);
          if (kept.reused) reused++;
        }
      }
      return {
        ...out.written,
        seconds: (performance.now() - started) / 1000,
        units,
        reused,
        records: [...records],
        ...(bulk ? { bulk } : {}),
      };
    },
    close: () => store.close(),
  };
}
