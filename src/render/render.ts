/**
 * `build render`: the served store (the last SERVE_DAYS days, checked to fit a function), then
 * every enumerable answer written to a fresh folder, which replaces the served one in a single
 * atomic rename of the `publish` symlink, within the deploy's file budget (file-budget.ts). Units (each
 * city, each day, the files made once) are rendered by worker threads side by side, each given a
 * batch of consecutive units and holding only what they read. Every enumerated request
 * must answer 200: otherwise the render fails, its folder is removed, and the previous one stays
 * served, so a deploy never ships a hole that the fallback would answer with a 500.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Unit } from '../api/contract/static-forms.js';
import { ROUTES, type Route } from '../api/routes.js';
import { type BulkFile, type BulkManifest, bulkIndexPath, writeBulkIndex } from '../deploy-data/bulk-index.js';
import { removeLeftovers, TEMP_FILE } from '../deploy-data/leftovers.js';
import { type OutlookFile, outlookFilePath, writeOutlookFile } from '../deploy-data/outlook-file.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { folderPut, publishShards, type ShardManifest, shardFolderPath, shardManifestPath } from '../deploy-data/shard-folder.js';
import { renderCachePath, servedDirPath, servedStorePath, siteFilePath, writeSiteFile } from '../deploy-data/site-file.js';
import { allergensOf } from '../domain/species/allergens.js';
import { settingsOf } from '../settings.js';
import { SITE_FILES, siteFiles } from '../site/build.js';
import { type ShardParts, writeShards } from '../store/shards/shard-writer.js';
import { openStore, type Store } from '../store/store.js';
import { BULK_INDEX_FILE, bulkFileCount, bulkManifest, bulkMonths, type Month } from './bulk/months.js';
import { pairFields } from './bulk/pair-columns.js';
import { RenderInputs } from './cache/input-digests.js';
import { cacheKeyOf } from './cache/key.js';
import {
  CACHE_LEFTOVERS,
  type CachedUnit,
  codeDigest,
  type FileRecord,
  loadCache,
  RenderCache,
  skillYearsDir,
} from './cache/render-cache.js';
import { type FilePlan, formatPlan, planFiles } from './file-budget.js';
import { FileWriter, type Written } from './file-writer.js';
import { computeSkills, type SkillOutput, skillFiles } from './forecast-skills.js';
import { adoptPlainFolder, LINK_LEFTOVER, removeOlderGenerations, servedGeneration, servedOf, siteOf, swap } from './publish-link.js';
import { redirectsFile } from './redirects.js';
import { RenderError } from './render-error.js';
import { FUNCTION_LIMIT_BYTES, measureFunctions, type ServedStore, writeServedStore } from './served-store.js';
import { planSkills, type SkillsPlan } from './skills-plan.js';
import { computeSkillsInThreads } from './threads/skills-thread.js';
import { inProcess, inWorkers, tasksOf } from './threads/task-pool.js';
import type { TaskInput } from './threads/tasks.js';
import { type ThreadCode, threadCode } from './threads/thread-code.js';
import { unitsOf } from './units.js';

export { RenderError } from './render-error.js';

export interface RenderSummary extends Written {
  seconds: number;
  /** Thread-seconds spent on the units' files, and on the bulk files (summed over worker threads). */
  unitSeconds: number;
  bulkSeconds: number;
  /**
   * The forecast-skill step: thread-seconds of its scoring, and of its resampling (the bootstrap)
   * among them; months whose pairs files, and city-years whose scores, came from the render cache.
   */
  skillScoring: { seconds: number; resampling: number; monthsReused: number; yearsReused: number };
  /** How many months have bulk files, and how many of them were reused from the render cache. */
  bulkMonths: number;
  bulkReused: number;
  /** What went wrong with the render cache, which cost time but not the render (a cache ignored, a cache not kept). */
  warnings: string[];
  /** How many units (a city's files, a date's) the render had, and how many were reused from the render cache. */
  units: number;
  unitsReused: number;
  folder: string;
  workers: number;
  served: ServedStore;
  plan: FilePlan;
  /**
   * Wall-clock seconds of each step: the served store, each city's forecast skill, the plan, the
   * digests of the inputs, the wait for the served store's zipped size and the site's files, the
   * units and bulk files, the rest.
   */
  steps: Record<'served' | 'skills' | 'shards' | 'plan' | 'inputs' | 'measure' | 'tasks' | 'finish', number>;
  /** The served store's shards (store/shards/): how many it has and their bytes, and those this render wrote (not kept from before). */
  shards: { names: number; bytes: number; written: number; writtenBytes: number; reused: number };
}

export interface RenderOptions {
  /** The route list to render (in-process only); tests give one with a failing handler. */
  routes?: readonly Route[];
  /** Days the served store keeps (default `$SERVE_DAYS`, else 730). */
  serveDays?: number;
  /** Worker threads, for the forecast skill and then the units; 0 renders in this thread. Default: the cores (up to 4), for a store of some size. */
  workers?: number;
  /** The largest a function carrying the served store may be, zipped. */
  functionLimitBytes?: number;
  /** The most files the publish folder may hold (default `$DEPLOY_MAX_FILES`, else 10,000). */
  maxFiles?: number;
  /** The render cache: the previous build's reusable output (default `$RENDER_CACHE`, else beside the store). */
  cacheDir?: string;
  /** Where the threads' code is bundled (thread-code.ts; default under node_modules/.cache). */
  threadCache?: string;
  /** Refuse to render without `RENDER_CACHE_KEY` (cache-key.ts), as the scheduled rebuild asks. */
  requireCacheKey?: boolean;
}

/** Where a render writes, and with what settings. */
interface Target {
  /** The `publish` symlink, the folder of renders it points into, and this render's generation there (publish-link.ts), with its publish folder. */
  publish: string;
  rendersDir: string;
  generation: string;
  folder: string;
  /** The link beside the store to the files the functions read; this render's folder of them, and its served store. */
  servedLink: string;
  served: string;
  nextServed: string;
  cacheDir: string | undefined;
  /** The key that signs the render cache's state (cache-key.ts). */
  cacheKey: Buffer;
  /** Where the forecast-skill step keeps each city's closed years until the render cache takes them; none without a cache. */
  nextYears: string | undefined;
  /** Whether the render cache holds output a render may reuse (checked), and why not when it was ignored. */
  reuse: boolean;
  warnings: string[];
  code: string;
  maxFiles: number;
  /** How the render's threads load their code, made when the first thread starts. */
  threads: () => ThreadCode;
}

/** Wall-clock seconds of each step of a render, as RenderSummary gives them. */
class Laps {
  readonly steps = { served: 0, skills: 0, shards: 0, plan: 0, inputs: 0, measure: 0, tasks: 0, finish: 0 };
  private lap = performance.now();

  done(name: keyof Laps['steps']): void {
    const now = performance.now();
    this.steps[name] = (now - this.lap) / 1000;
    this.lap = now;
  }
}

/**
 * Renders the store into `publishDir` (a symlink to the current render), and writes beside the
 * store the served store and the site file the functions carry.
 */
export async function render(store: Store, publishDir: string, options: RenderOptions = {}): Promise<RenderSummary> {
  const started = performance.now();
  const target = targetOf(store, publishDir, options);
  const laps = new Laps();
  let made: Made;
  try {
    const planned = await planRender(store, target, options, laps);
    made = await writeRender(store, target, planned, options, laps);
  } catch (error) {
    rmSync(target.generation, { recursive: true, force: true });
    if (target.nextYears) rmSync(target.nextYears, { recursive: true, force: true });
    throw error;
  }
  publishRender(store, target, made);
  laps.done('finish');
  return {
    ...made.summary,
    steps: laps.steps,
    seconds: (performance.now() - started) / 1000,
    folder: target.folder,
    warnings: target.warnings,
  };
}

/** The folders and settings of a render; a bad setting fails here, before any work. */
function targetOf(store: Store, publishDir: string, options: RenderOptions): Target {
  const publish = resolve(publishDir); // `publish/` and `publish` are the same folder
  const rendersDir = `${publish}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  adoptPlainFolder(publish, rendersDir);
  removeLeftovers(rendersDir, LINK_LEFTOVER);
  removeLeftovers(dirname(publish), new RegExp(`^${basename(publish).replace(/\W/g, '\\$&')}\\.next-(\\d+)$`));
  // Beside the store: the link's, and what renders that wrote there before their generations did left (11 MB a served store at 40 cities).
  removeLeftovers(dirname(store.path), /^served\.next-(\d+)$/, /^serve\.db\.next-(\d+)$/, TEMP_FILE);
  // What the previous build made from the same inputs is reused (render-cache.ts).
  // (A route list of a test's own renders without it: the code's digest does not cover it.)
  const named = options.routes ? undefined : resolve(options.cacheDir ?? settingsOf().RENDER_CACHE ?? renderCachePath(store.path));
  const code = codeDigest();
  const cacheKey = cacheKeyOf(store.path, options.requireCacheKey);
  // A cache folder that is a link (or a file) is not used at all: nothing is read or written through it.
  const cacheDir = named !== undefined && !['folder', 'none'].includes(kindAt(named)) ? undefined : named;
  if (cacheDir) removeLeftovers(cacheDir, ...CACHE_LEFTOVERS);
  const cache = cacheDir ? loadCache(cacheDir, code, cacheKey) : {};
  const warnings = cache.warning ? [cache.warning] : [];
  if (named !== cacheDir) warnings.push(`the render cache (${named}) is not a folder but a link or another file: it is not used`);
  let threads: ThreadCode | undefined;
  const generation = join(rendersDir, `r${Date.now()}-${process.pid}`);
  return {
    publish,
    rendersDir,
    generation,
    folder: siteOf(generation),
    servedLink: servedDirPath(store.path),
    served: servedOf(generation),
    nextServed: join(servedOf(generation), basename(servedStorePath(store.path))),
    cacheDir,
    cacheKey,
    // A name no one could have placed beforehand (the folder is made with mkdir, never through a link).
    nextYears: cacheDir ? `${skillYearsDir(cacheDir)}.next-${process.pid}-${randomBytes(6).toString('hex')}` : undefined,
    reuse: cache.state !== undefined,
    warnings,
    code,
    maxFiles: options.maxFiles ?? settingsOf().DEPLOY_MAX_FILES,
    threads: () => {
      if (threads === undefined) {
        threads = threadCode(code, options.threadCache);
        if (threads.warning) warnings.push(threads.warning);
      }
      return threads;
    },
  };
}

/** What a render will write, known before it writes anything; the served store's size and the site's files on their way. */
interface Planned {
  /** The city-days the served store holds, and its size (with the functions') being measured. */
  cityDays: number;
  measured: Promise<ServedStore>;
  plan: FilePlan;
  months: Month[];
  inputs: RenderInputs;
  site: Promise<Map<string, string | Uint8Array>>;
  routes: readonly Route[];
  skills: SkillOutput & { plan: SkillsPlan; reused: { files: BulkFile[]; records: Map<string, FileRecord> } };
  /**
   * The served store's shards, written into the folder beside the store (each key once), and their manifest, published with the
   * render; what each quarter's and day's were made from, for the render cache; how many were the previous render's.
   */
  shards: { manifest: ShardManifest; parts: ShardParts; reused: number; written: { shards: number; bytes: number } };
}

/**
 * The served store written, the plan of files within the budget, and each part's digest. The
 * site's files (made by esbuild and Redoc in processes of their own) and the served store's
 * zipped size (deflated in a thread of its own) are made while the render plans and writes.
 */
async function planRender(store: Store, target: Target, options: RenderOptions, laps: Laps): Promise<Planned> {
  const { nextServed, folder } = target;
  if (target.nextYears) rmSync(target.nextYears, { recursive: true, force: true });
  mkdirSync(target.generation);
  mkdirSync(folder);
  mkdirSync(target.served);
  const site = siteFiles();
  site.catch(() => {}); // awaited once the units are written; a failure then fails the render
  const cityDays = writeServedStore(store, nextServed, options.serveDays ?? settingsOf().SERVE_DAYS);
  laps.done('served');
  // Each city's forecast skill goes into the served store before it is measured (forecast-skills.ts),
  // in threads of their own, as many as the units have, unless the render is small enough to run in this one (workersOf).
  // What the render cache holds of it made from the same inputs is reused (skills-plan.ts).
  const cache = target.reuse && target.cacheDir ? new RenderCache(target.cacheDir, target.code, target.cacheKey) : undefined;
  const { plan: skillsPlan, reused } = withStore(nextServed, (served) => planSkills(store, served, folder, cache, target.nextYears));
  const threads = workersOf(cityDays, options);
  const output =
    threads === 0
      ? await computeSkills(store, nextServed, folder, skillsPlan)
      : await computeSkillsInThreads(
          { storePath: store.path, servedPath: nextServed, folder, plan: skillsPlan },
          target.threads(),
          threads,
        );
  const skills = { ...output, plan: skillsPlan, reused };
  laps.done('skills');
  // Content-addressed: a shard whose bytes an earlier render wrote is there already, and is not written again.
  const folderShards = folderPut(shardFolderPath(store.path));
  const reuse = { code: target.code, previous: cache?.shardParts() ?? {}, has: folderShards.has };
  const shards = { ...withStore(nextServed, (s) => writeShards(s, folderShards.put, reuse)), written: folderShards.written() };
  const replaced = folderShards.replaced();
  if (replaced.length > 0) target.warnings.push(`shards that were not their key's bytes, written again: ${replaced.join(', ')}`);
  const measured = measureFunctions(shards.manifest, cityDays);
  measured.catch(() => {});
  laps.done('shards');
  const routes = options.routes ?? ROUTES;
  const months = withStore(nextServed, bulkMonths);
  // Besides the forms' files: the site's, `_redirects`, and the bulk files with their manifest and the pairs file.
  const extra = SITE_FILES.length + 1 + bulkFileCount(months) + skillFiles(months);
  const plan = withStore(nextServed, (s) => planFiles(s, routes, unitsOf(s, s.cities.set().slugs), extra, target.maxFiles));
  laps.done('plan');
  // Each unit and month goes with the digest of what it is made from, for the render cache.
  const inputs = withStore(nextServed, (s) => new RenderInputs(s, target.code));
  laps.done('inputs');
  return { cityDays, measured, plan, months, inputs, site, routes, skills, shards };
}

/** What functions carry, refused (nothing of the render published) when the heaviest would not fit. */
async function checkedSize(measured: Promise<ServedStore>, options: RenderOptions): Promise<ServedStore> {
  const served = await measured;
  const limit = options.functionLimitBytes ?? FUNCTION_LIMIT_BYTES;
  if (served.functionBytes > limit) {
    throw new RenderError(
      `the shards' manifest would make each function about ${mb(served.functionBytes)} zipped, over ${mb(limit)}: serve fewer cities or days (SERVE_DAYS). Nothing was published.`,
    );
  }
  return served;
}

/** What a render wrote: its summary but the times, the manifest, what each unit was made from, and the outlooks served. */
interface Made {
  summary: Omit<RenderSummary, 'steps' | 'seconds' | 'folder' | 'warnings'>;
  manifest: BulkManifest;
  shards: ShardManifest;
  shardParts: ShardParts;
  units: Record<string, CachedUnit>;
  outlooks: OutlookFile;
  records: Map<string, FileRecord>;
  /** Each city's closed years' scores, for the render cache: the folder the step kept them in, and their files' SHA-256. */
  years: { dir: string; sha256: Record<string, string> } | undefined;
}

/**
 * The threads a render's work runs in: none (this thread) for a small store (threads would cost
 * more than they save), a test's routes, or as asked; else the cores, up to 4.
 */
function workersOf(cityDays: number, options: RenderOptions): number {
  if (options.routes !== undefined || options.workers === 0 || (options.workers === undefined && cityDays < 5_000)) return 0;
  return options.workers ?? Math.min(4, availableParallelism());
}

/** Writes the render's folder: the units and bulk months (in workers), then `_redirects`, the site's files and the manifest. */
async function writeRender(store: Store, target: Target, planned: Planned, options: RenderOptions, laps: Laps): Promise<Made> {
  const { folder, nextServed, cacheDir, code } = target;
  const { plan, months, inputs, routes, skills } = planned;
  const workers = workersOf(planned.cityDays, options);
  // The bulk files' months follow the units: each month is a task of its own for a worker.
  const input: TaskInput = {
    storePath: nextServed,
    folder,
    cacheDir: target.reuse ? cacheDir : undefined,
    cacheKey: target.cacheKey.toString('hex'),
    code,
    record: cacheDir !== undefined,
  };
  const tasks = tasksOf(openedOnce(nextServed, plan.cityDaysFrom), months, inputs);
  const written = workers === 0 ? await inProcess(input, tasks, routes) : await inWorkers(input, tasks, workers, target.threads());
  laps.done('tasks');
  const served = await checkedSize(planned.measured, options);
  const out = new FileWriter(folder);
  out.put('_redirects', redirectsFile(store.cities.set().slugs));
  for (const [file, body] of await planned.site) out.put(file, body);
  laps.done('measure');
  // The pairs files: those the forecast-skill step wrote, and those it linked from the render cache.
  for (const f of skills.reused.files) out.count(f.bytes);
  for (const [file, record] of [...skills.reused.records, ...skills.records]) written.records.set(file, record);
  const manifest = withStore(nextServed, (s) =>
    bulkManifest(s, months, [...written.bulk, ...skills.reused.files, ...skills.files], pairFields(skills.plan.layout)),
  );
  out.put(BULK_INDEX_FILE, `${JSON.stringify(manifest, null, 1)}\n`);
  const files = written.files + skills.written.files + out.written.files;
  // The plan counted what the forms enumerate; a render that wrote otherwise is a bug, never a deploy over budget.
  if (files !== plan.always + plan.cityDayFiles)
    throw new Error(`the render wrote ${files} files where it planned ${plan.always + plan.cityDayFiles}`);
  return {
    manifest,
    shards: planned.shards.manifest,
    shardParts: planned.shards.parts,
    units: written.units,
    outlooks: skills.outlooks,
    records: written.records,
    years: skills.plan.nextDir === undefined ? undefined : { dir: skills.plan.nextDir, sha256: skills.years },
    summary: {
      files,
      bytes: written.bytes + skills.written.bytes + out.written.bytes,
      made: written.made + skills.written.made + out.written.made,
      unitSeconds: written.unitSeconds,
      bulkSeconds: written.bulkSeconds,
      skillScoring: {
        ...skills.scoring,
        monthsReused: skills.plan.months.filter((m) => m.reused).length,
        yearsReused: skills.yearsReused,
      },
      bulkReused: written.bulkReused,
      bulkMonths: months.length,
      units: Object.keys(written.units).length,
      unitsReused: written.unitsReused,
      workers,
      served,
      plan,
      shards: {
        names: Object.keys(planned.shards.manifest.shards).length,
        bytes: Object.values(planned.shards.manifest.bytes).reduce((a, b) => a + b, 0),
        written: planned.shards.written.shards,
        writtenBytes: planned.shards.written.bytes,
        reused: planned.shards.reused,
      },
    },
  };
}

/**
 * Puts the render in place: the site file, the bulk index, the outlook and the shards manifest
 * written into its folder beside its served store, then the whole generation served with one swap
 * (publish-link.ts), the render cache kept, the older generations removed.
 */
function publishRender(store: Store, target: Target, made: Made): void {
  const { served } = target;
  const at = (path: string) => join(served, basename(path));
  writeSiteFile(at(siteFilePath(store.path)), {
    provider: store.pollen.latestSource(),
    cities: store.cities.set().list.map(({ region: _r, ...entry }) => entry),
    allergens: allergensOf(store.shapes.all()),
  });
  writeBulkIndex(at(bulkIndexPath(store.path)), made.manifest);
  writeOutlookFile(at(outlookFilePath(store.path)), made.outlooks);
  const manifest = shardManifestPath(store.path);
  target.warnings.push(...publishShards(manifest, at(manifest), shardFolderPath(store.path), made.shards));
  const previous = servedGeneration(target.rendersDir);
  swap(target.publish, target.rendersDir, target.generation, target.servedLink);
  if (target.cacheDir) {
    try {
      RenderCache.save(target.cacheDir, {
        folder: target.folder,
        code: target.code,
        key: target.cacheKey,
        reuse: target.reuse,
        units: made.units,
        records: made.records,
        skills: made.years,
        shards: made.shardParts,
      });
    } catch (error) {
      // The render is served: a cache that could not be kept only makes the next render a full one.
      rmSync(join(target.cacheDir, 'state.json'), { force: true });
      if (made.years) rmSync(made.years.dir, { recursive: true, force: true });
      target.warnings.push(`the render cache could not be kept (${(error as Error).message}); the next render renders everything`);
    }
  }
  removeOlderGenerations(target.rendersDir, target.generation, previous);
  // What renders wrote beside the store before its files had a folder of their own (a served store: 11 MB at 40 cities).
  for (const name of BESIDE_BEFORE) {
    const path = join(dirname(store.path), name);
    if (kindAt(path) === 'file') rmSync(path);
  }
}

const BESIDE_BEFORE = ['site.json', 'bulk-index.json', 'outlook.json', 'shards.json', 'shards.previous.json', 'serve.db'];

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
    `the served store holds ${s.served.cityDays} city-days in ${s.shards.names} shards (${s.shards.written} new, ${mb(s.shards.writtenBytes)}; functions about ${mb(s.served.functionBytes)} zipped)\n${formatPlan(s.plan)}; the fallback function answers the other city-days\n` +
    `reused from the render cache: ${s.unitsReused} of ${s.units} cities and dates, ${s.bulkReused} of ${s.bulkMonths} months of bulk files, ${s.shards.reused} of ${s.shards.names} shards\n` +
    s.warnings.map((w) => `warning: ${w}\n`).join('')
  );
}
