/**
 * `build render`: the served store (the last SERVE_DAYS days, checked to fit a function), then
 * every enumerable answer written to a fresh folder, which replaces the served one in a single
 * atomic rename of the `publish` symlink, within the deploy's file budget (file-budget.ts). Units (each
 * city, each day, the files made once) are rendered by worker threads side by side, each given a
 * batch of consecutive units and holding only what they read. Every enumerated request
 * must answer 200: otherwise the render fails, its folder is removed, and the previous one stays
 * served, so a deploy never ships a hole that the fallback would answer with a 500.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Unit } from '../api/contract/static-forms.js';
import { ROUTES, type Route } from '../api/routes.js';
import { type BulkFile, type BulkManifest, bulkIndexPath, writeBulkIndex } from '../deploy-data/bulk-index.js';
import { type OutlookFile, outlookFilePath, writeOutlookFile } from '../deploy-data/outlook-file.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { folderPut, publishShards, type ShardManifest, shardFolderPath, shardManifestPath } from '../deploy-data/shard-folder.js';
import { siteFilePath, writeSiteFile } from '../deploy-data/site-file.js';
import { allergensOf } from '../domain/species/allergens.js';
import { BULK_INDEX_FILE, bulkFileCount, bulkManifest, bulkMonths, type Month } from '../output/bulk/months.js';
import { pairFields } from '../output/bulk/pair-columns.js';
import type { FileRecord } from '../output/file-records.js';
import { FileWriter } from '../output/file-writer.js';
import { RenderError } from '../output/render-error.js';
import { computeSkills, type SkillOutput, skillFiles } from '../scoring/score-cities.js';
import { planSkills, type SkillsPlan } from '../scoring/scoring-plan.js';
import { computeSkillsInThreads } from '../scoring/scoring-threads.js';
import { settingsOf } from '../settings.js';
import { SITE_FILES, siteFiles } from '../site/build.js';
import { type ShardParts, writeShards } from '../store/shards/shard-writer.js';
import { openStore, type Store } from '../store/store.js';
import { RenderInputs } from './cache/input-digests.js';
import { type CachedUnit, RenderCache } from './cache/render-cache.js';
import { type FilePlan, planFiles } from './file-budget.js';
import { removeOlderGenerations, servedGeneration, swap } from './publish-link.js';
import { redirectsFile } from './redirects.js';
import { Laps, mb, type RenderSummary } from './render-summary.js';
import { type RenderOptions, type Target, targetOf } from './render-target.js';
import { FUNCTION_LIMIT_BYTES, measureFunctions, type ServedStore, writeServedStore } from './served-store.js';
import { inProcess, inWorkers, tasksOf } from './threads/task-pool.js';
import type { TaskInput } from './threads/tasks.js';
import { unitsOf } from './units.js';

export { RenderError } from '../output/render-error.js';
export { formatRender, listFiles, type RenderSummary } from './render-summary.js';
export type { RenderOptions } from './render-target.js';

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
  // Each city's forecast skill goes into the served store before it is measured (score-cities.ts),
  // in threads of their own, as many as the units have, unless the render is small enough to run in this one (workersOf).
  // What the render cache holds of it made from the same inputs is reused (scoring/scoring-plan.ts).
  const cache = target.reuse && target.cacheDir ? new RenderCache(target.cacheDir, target.code, target.cacheKey) : undefined;
  const { plan: skillsPlan, reused } = withStore(nextServed, (served) => planSkills(store, served, folder, cache, target.nextYears));
  const threads = workersOf(cityDays, options);
  const output =
    threads === 0
      ? await computeSkills(store, nextServed, folder, skillsPlan)
      : await computeSkillsInThreads(
          { storePath: store.path, servedPath: nextServed, folder, plan: skillsPlan },
          () => target.threads().start('scoring-worker'),
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
