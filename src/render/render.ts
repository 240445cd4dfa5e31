/**
 * `build render`: the served store (the last SERVE_DAYS days, checked to fit a function), then
 * every enumerable answer written to a fresh folder, which replaces the served one in a single
 * atomic rename of the `publish` symlink, within the deploy's file budget (budget.ts). Units (each
 * city, each day, the files made once) are rendered by worker threads side by side, each given a
 * batch of consecutive units and holding only what they read. Every enumerated request
 * must answer 200: otherwise the render fails, its folder is removed, and the previous one stays
 * served, so a deploy never ships a hole that the fallback would answer with a 500.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROUTES, unitsOf, type Route } from '../api/routes.js';
import type { Unit } from '../api/static-forms.js';
import { SITE_FILES, siteFiles } from '../site/build.js';
import { bulkIndexPath, writeBulkIndex, type BulkFile, type BulkManifest } from '../served/bulk-index.js';
import { renderCachePath, servedStorePath, siteFilePath, writeSiteFile } from '../served/site-file.js';
import { settingsOf } from '../settings.js';
import { openStore, type Store } from '../store/store.js';
import { formatPlan, planFiles, type FilePlan } from './budget.js';
import { BULK_INDEX_FILE, bulkFileCount, bulkManifest, bulkMonths, type Month } from './bulk.js';
import { RenderInputs } from './inputs.js';
import { type CachedUnit, codeDigest, RenderCache } from './render-cache.js';
import { openTasks, type TaskInput, type TaskResult, type WorkerTask } from './tasks.js';
import { redirectsFile } from './redirects.js';
import {
  cityDaysThatFit,
  FUNCTION_LIMIT_BYTES,
  functionOverheadBytes,
  measureServedStore,
  type ServedStore,
  writeServedStore,
} from './served-store.js';
import { FileWriter, RenderError, type Written } from './unit.js';
import type { WorkerReply } from './worker.js';

export { RenderError } from './unit.js';

export interface RenderSummary extends Written {
  seconds: number;
  /** Thread-seconds spent on the units' files, and on the bulk files (summed over worker threads). */
  unitSeconds: number;
  bulkSeconds: number;
  /** How many months have bulk files, and how many of them were reused from the render cache. */
  bulkMonths: number;
  bulkReused: number;
  /** How many units (a city's files, a date's) the render had, and how many were reused from the render cache. */
  units: number;
  unitsReused: number;
  folder: string;
  workers: number;
  served: ServedStore;
  plan: FilePlan;
  /**
   * Wall-clock seconds of each step: the served store, the plan, the digests of the inputs, the wait
   * for the served store's zipped size and the site's files, the units and bulk files, the rest.
   */
  steps: Record<'served' | 'plan' | 'inputs' | 'measure' | 'tasks' | 'finish', number>;
}

export interface RenderOptions {
  /** The route list to render (in-process only); tests give one with a failing handler. */
  routes?: readonly Route[];
  /** Days the served store keeps (default `$SERVE_DAYS`, else 730). */
  serveDays?: number;
  /** Worker threads; 0 renders in this thread. Default: the cores, for a store of some size. */
  workers?: number;
  /** The largest a function carrying the served store may be, zipped. */
  functionLimitBytes?: number;
  /** The most files the publish folder may hold (default `$DEPLOY_MAX_FILES`, else 10,000). */
  maxFiles?: number;
  /** The render cache: the previous build's reusable output (default `$RENDER_CACHE`, else beside the store). */
  cacheDir?: string;
}

/**
 * A render thread's memory does not grow with the number of cities: each unit decodes what it
 * needs (decoding is a small part of the work), the decoded-day cache keeps its default size, and
 * each worker's heap is held small: V8 would otherwise let a young generation of 48 MB and
 * uncollected garbage grow each thread past 200 MB (measured at 200 cities: 600 MB peak RSS with 2
 * workers unlimited, 363 MB with these limits, `npm run bench`).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 };

/**
 * Renders the store into `publishDir` (a symlink to the current render), and writes beside the
 * store the served store and the site file the functions carry.
 */
export async function render(store: Store, publishDir: string, options: RenderOptions = {}): Promise<RenderSummary> {
  const started = performance.now();
  const publish = resolve(publishDir); // `publish/` and `publish` are the same folder
  const rendersDir = `${publish}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  adoptPlainFolder(publish, rendersDir);

  const servedPath = servedStorePath(store.path);
  const nextServed = `${servedPath}.next-${process.pid}`;
  const folder = join(rendersDir, `r${Date.now()}-${process.pid}`);
  const maxFiles = options.maxFiles ?? settingsOf().DEPLOY_MAX_FILES; // a bad value fails before any work
  let served: ServedStore;
  let plan: FilePlan;
  const cities = store.cities.set();
  let workers = 0;
  let manifest: BulkManifest;
  let [unitSeconds, bulkSeconds, bulkReused, monthCount, unitCount, unitsReused] = [0, 0, 0, 0, 0, 0];
  // What the previous build made from the same inputs is reused (render-cache.ts).
  // (A route list of a test's own renders without it: the code's digest does not cover it.)
  const cacheDir = options.routes ? undefined : resolve(options.cacheDir ?? settingsOf().RENDER_CACHE ?? renderCachePath(store.path));
  const code = codeDigest();
  let unitsMade: Record<string, CachedUnit> = {};
  const total: Written = { files: 0, bytes: 0, made: 0 };
  const steps = { served: 0, plan: 0, inputs: 0, measure: 0, tasks: 0, finish: 0 };
  let lap = performance.now();
  const step = (name: keyof typeof steps) => {
    const now = performance.now();
    steps[name] = (now - lap) / 1000;
    lap = now;
  };
  try {
    rmSync(nextServed, { force: true });
    // The site's files (made by esbuild and Redoc in processes of their own) and the served
    // store's zipped size (deflated in libuv's threads) are made while this thread plans.
    const site = siteFiles();
    site.catch(() => {}); // awaited below; a failure then fails the render
    const cityDays = writeServedStore(store, nextServed, options.serveDays ?? settingsOf().SERVE_DAYS);
    const measured = measureServedStore(nextServed, cityDays);
    measured.catch(() => {});
    step('served');
    const routes = options.routes ?? ROUTES;
    const months = withStore(nextServed, bulkMonths);
    // Besides the forms' files: the site's, `_redirects`, and the bulk files with their manifest.
    plan = withStore(nextServed, (s) =>
      planFiles(s, routes, unitsOf(s, s.cities.set().slugs), SITE_FILES.length + 1 + bulkFileCount(months), maxFiles),
    );
    step('plan');
    // Each unit and month goes with the digest of what it is made from, for the render cache.
    const inputs = withStore(nextServed, (s) => new RenderInputs(s, code));
    step('inputs');
    served = await measured;
    const limit = options.functionLimitBytes ?? FUNCTION_LIMIT_BYTES;
    if (served.functionBytes > limit) {
      const fit = cityDaysThatFit(served, limit, await functionOverheadBytes());
      throw new RenderError(
        `the served store (${served.cityDays} city-days) would make each function about ${mb(served.functionBytes)} zipped, over ${mb(limit)}: about ${fit} city-days fit; serve fewer days (SERVE_DAYS) or cities. Nothing was written.`,
      );
    }
    const siteFileMap = await site;
    step('measure');
    mkdirSync(folder);
    const small = served.cityDays < 5_000;
    workers = options.routes ? 0 : (options.workers ?? (small ? 0 : Math.min(4, availableParallelism())));
    // The bulk files' months follow the units: each month is a task of its own for a worker.
    const units = openedOnce(nextServed, plan.cityDaysFrom);
    const input: TaskInput = { storePath: nextServed, folder, cacheDir, code };
    const tasks = tasksOf(units, months, inputs);
    const written = workers === 0 ? await inProcess(input, tasks, routes) : await inWorkers(input, tasks, workers);
    unitsMade = written.units;
    [unitCount, unitsReused] = [Object.keys(written.units).length, written.unitsReused];
    step('tasks');
    const out = new FileWriter(folder);
    out.put('_redirects', redirectsFile(cities.slugs));
    for (const [file, body] of siteFileMap) out.put(file, body);
    manifest = withStore(nextServed, (s) => bulkManifest(s, months, written.bulk));
    out.put(BULK_INDEX_FILE, `${JSON.stringify(manifest, null, 1)}\n`);
    [unitSeconds, bulkSeconds] = [written.unitSeconds, written.bulkSeconds];
    total.files = written.files + out.written.files;
    total.bytes = written.bytes + out.written.bytes;
    total.made = written.made + out.written.made;
    [bulkReused, monthCount] = [written.bulkReused, months.length];
    // The plan counted what the forms enumerate; a render that wrote otherwise is a bug, never a deploy over budget.
    if (total.files !== plan.always + plan.cityDayFiles)
      throw new Error(`the render wrote ${total.files} files where it planned ${plan.always + plan.cityDayFiles}`);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    rmSync(nextServed, { force: true });
    throw error;
  }

  renameSync(nextServed, servedPath);
  writeSiteFile(siteFilePath(store.path), {
    provider: store.pollen.latestSource(),
    cities: cities.list.map(({ region: _r, ...entry }) => entry),
  });
  writeBulkIndex(bulkIndexPath(store.path), manifest!);
  swap(publish, folder);
  if (cacheDir) RenderCache.save(cacheDir, folder, code, unitsMade);
  for (const name of readdirSync(rendersDir)) {
    if (join(rendersDir, name) !== folder) rmSync(join(rendersDir, name), { recursive: true, force: true });
  }
  step('finish');
  return {
    steps,
    ...total,
    seconds: (performance.now() - started) / 1000,
    unitSeconds,
    bulkSeconds,
    bulkReused,
    bulkMonths: monthCount,
    units: unitCount,
    unitsReused,
    folder,
    workers,
    served: served!,
    plan: plan!,
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The units of a store, read from a connection closed once they are all given out. */
function* openedOnce(path: string, cityDaysFrom: number): Generator<Unit> {
  const store = openStore(path, { readonly: true, immutable: true });
  try {
    yield* unitsOf(store, store.cities.set().slugs, cityDaysFrom);
  } finally {
    store.close();
  }
}

/** `use` of the store at `path`, opened read-only for it. */
function withStore<T>(path: string, use: (store: Store) => T): T {
  const store = openStore(path, { readonly: true, immutable: true });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

/** What the units and the bulk months wrote, and the thread-seconds each took. */
interface TaskResults extends Written {
  bulk: BulkFile[];
  /** Months whose files came from the render cache. */
  bulkReused: number;
  /** What each unit was made from, for the next render's cache, and how many came from it. */
  units: Record<string, CachedUnit>;
  unitsReused: number;
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
  unitSeconds: 0,
  bulkSeconds: 0,
});

/** Adds a task's result to the render's. */
function add(total: TaskResults, result: TaskResult): void {
  total.files += result.files;
  total.made += result.made;
  total.bytes += result.bytes;
  for (const [key, unit] of result.units) total.units[key] = unit;
  total.unitsReused += result.reused;
  if (result.bulk) {
    total.bulk.push(...result.bulk.files);
    if (result.bulk.reused) total.bulkReused++;
    total.bulkSeconds += result.seconds;
  } else total.unitSeconds += result.seconds;
}

async function inProcess(input: TaskInput, tasks: Iterable<Exclude<WorkerTask, null>>, routes: readonly Route[]): Promise<TaskResults> {
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
function* tasksOf(units: Iterator<Unit>, months: readonly Month[], inputs: RenderInputs): Generator<Exclude<WorkerTask, null>> {
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
function inWorkers(input: TaskInput, tasks: Iterator<Exclude<WorkerTask, null>>, count: number): Promise<TaskResults> {
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
      const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), { workerData: input, resourceLimits: WORKER_LIMITS });
      pool.push(worker);
      worker.on('error', (error) => stop(error));
      worker.on('exit', (code) => code !== 0 && !failed && stop(new Error(`a render worker exited with code ${code}`)));
      worker.on('message', (reply: WorkerReply | 'ready') => {
        if (reply === 'ready') return next(worker);
        if (!reply.done) return stop(reply.renderError ? new RenderError(reply.error) : new Error(reply.error));
        add(total, reply);
        next(worker);
      });
    }
  });
}

/** A plain folder at `publishDir` (not yet a link to a render) is moved among the renders, so the link can take its place. */
function adoptPlainFolder(publishDir: string, rendersDir: string): void {
  if (existsSync(publishDir) && !lstatSync(publishDir).isSymbolicLink()) renameSync(publishDir, join(rendersDir, `adopted-${Date.now()}`));
}

/** Points `publishDir` at `folder` with one rename, which replaces the old link atomically. */
function swap(publishDir: string, folder: string): void {
  const link = `${publishDir}.next-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(publishDir), folder), link, 'dir');
  renameSync(link, publishDir);
}

/** Every file below `dir`, relative to it. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** A short account of what a render wrote. */
export function formatRender(s: RenderSummary): string {
  return (
    `rendered ${s.files} files (${(s.bytes / 1e6).toFixed(1)} MB${s.made < s.files ? `; ${s.made} written anew, ${s.files - s.made} kept from the render cache` : ''}) in ${s.seconds.toFixed(1)} s into ${basename(s.folder)}${s.workers > 0 ? ` with ${s.workers} workers` : ''}; ` +
    `the served store holds ${s.served.cityDays} city-days (functions about ${mb(s.served.functionBytes)} zipped)\n${formatPlan(s.plan)}; the fallback function answers the other city-days\n` +
    `reused from the render cache: ${s.unitsReused} of ${s.units} cities and dates, ${s.bulkReused} of ${s.bulkMonths} months of bulk files\n`
  );
}
