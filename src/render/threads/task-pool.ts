/**
 * The render's tasks handed out: the units in batches, then the seasons file and each bulk month,
 * to worker threads one task at a time each (or run in the render's own thread), their results
 * summed.
 */
import { Worker } from 'node:worker_threads';
import type { Unit } from '../../api/contract/static-forms.js';
import type { Route } from '../../api/routes.js';
import type { BulkFile } from '../../deploy-data/bulk-index.js';
import type { Month } from '../../output/bulk/months.js';
import type { FileRecord } from '../../output/file-records.js';
import type { Written } from '../../output/file-writer.js';
import { replyError } from '../../output/render-error.js';
import type { RenderInputs } from '../cache/input-digests.js';
import type { CachedUnit } from '../cache/render-cache.js';
import { openTasks, type TaskInput, type TaskResult, type WorkerTask } from './tasks.js';
import type { ThreadCode } from './thread-code.js';
import type { WorkerReply } from './worker.js';

/**
 * A render thread's memory does not grow with the number of cities: each unit decodes what it
 * needs (decoding is a small part of the work), the decoded-day cache keeps its default size, and
 * each worker's heap is held small: V8 would otherwise let a young generation of 48 MB and
 * uncollected garbage grow each thread past 200 MB (measured at 200 cities: 600 MB peak RSS with 2
 * workers unlimited, 363 MB with these limits, `npm run bench`).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 };

/** What the units and the bulk months wrote, and the thread-seconds each took. */
export interface TaskResults extends Written {
  bulk: BulkFile[];
  /** Months whose files came from the render cache. */
  bulkReused: number;
  /** What each unit was made from, for the next render's cache, and how many came from it. */
  units: Record<string, CachedUnit>;
  unitsReused: number;
  /** What was recorded of each file of the units and months, for the next render's cache. */
  records: Map<string, FileRecord>;
  unitSeconds: number;
  bulkSeconds: number;
}

const noResults = (): TaskResults => ({
  files: 0,
  bytes: 0,
  made: 0,
  bulk: [],
  bulkReused: 0,
  units: {},
  unitsReused: 0,
  records: new Map(),
  unitSeconds: 0,
  bulkSeconds: 0,
});

/** Adds a task's result to the render's. */
function add(total: TaskResults, result: TaskResult): void {
  total.files += result.files;
  total.made += result.made;
  total.bytes += result.bytes;
  for (const [key, unit] of result.units) total.units[key] = unit;
  for (const [file, record] of result.records) total.records.set(file, record);
  total.unitsReused += result.reused;
  if (result.bulk) {
    total.bulk.push(...result.bulk.files);
    // Months reused; the seasons file (month null) is not one.
    if (result.bulk.reused && result.bulk.files[0]?.month !== null) total.bulkReused++;
    total.bulkSeconds += result.seconds;
  } else total.unitSeconds += result.seconds;
}

export async function inProcess(
  input: TaskInput,
  tasks: Iterable<Exclude<WorkerTask, null>>,
  routes: readonly Route[],
): Promise<TaskResults> {
  const runner = openTasks(input, routes);
  try {
    const total = noResults();
    for (const task of tasks) add(total, await runner.run(task));
    return total;
  } finally {
    runner.close();
  }
}

/** The units in batches of BATCH, then each bulk month, with their inputs; handing out the last unit closes their store. */
export function* tasksOf(units: Iterator<Unit>, months: readonly Month[], inputs: RenderInputs): Generator<Exclude<WorkerTask, null>> {
  try {
    for (let batch = take(units, BATCH); batch.length > 0; batch = take(units, BATCH)) yield batch.map((u) => inputs.plan(u));
  } finally {
    units.return?.(undefined);
  }
  if (months.length > 0) yield { seasons: inputs.seasons() };
  for (const month of months) yield { bulk: month, inputs: inputs.month(month) };
}

/**
 * Units a worker takes at a time. A day's forms read the days around it (a map's series, a local
 * day's two UTC days), so a worker that renders a run of consecutive days decodes each day once,
 * where workers taking turns day by day would each decode nearly every day.
 */
const BATCH = 16;

/** The next `size` units, or none. */
function take(units: Iterator<Unit>, size: number): Unit[] {
  const batch: Unit[] = [];
  for (let step = units.next(); !step.done; step = units.next()) if (batch.push(step.value) >= size) break;
  return batch;
}

/** Hands tasks out to `count` workers, one at a time each, until none is left or one fails. */
export function inWorkers(
  input: TaskInput,
  tasks: Iterator<Exclude<WorkerTask, null>>,
  count: number,
  threads: ThreadCode,
): Promise<TaskResults> {
  const total = noResults();
  return new Promise((resolveAll, reject) => {
    const pool: Worker[] = [];
    let running = count;
    let failed = false;
    const stop = (error: Error) => {
      if (failed) return;
      failed = true;
      for (const w of pool) void w.terminate();
      tasks.return?.(undefined); // closes the store the units were read from
      reject(error);
    };
    const next = (worker: Worker) => {
      const step = failed ? undefined : tasks.next();
      worker.postMessage(!step || step.done ? null : step.value);
      if ((!step || step.done) && --running === 0 && !failed) resolveAll(total);
    };
    for (let i = 0; i < count; i++) {
      const { url, argv } = threads.start('worker');
      const worker = new Worker(url, { argv, workerData: input, resourceLimits: WORKER_LIMITS });
      pool.push(worker);
      worker.on('error', (error) => stop(error));
      worker.on('exit', (code) => code !== 0 && !failed && stop(new Error(`a render worker exited with code ${code}`)));
      worker.on('message', (reply: WorkerReply | 'ready') => {
        if (reply === 'ready') return next(worker);
        if (!reply.done) return stop(replyError(reply));
        add(total, reply);
        next(worker);
      });
    }
  });
}
