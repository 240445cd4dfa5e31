/**
 * B1: a full render (in a process of its own, for its peak RSS, from an empty render cache)
 * against its own floor in the same run: a scan that decodes every served city-day once, plus
 * coreutils `cp -r` of the rendered tree; the deploy's files and bytes against its budget. B2:
 * the daily render, of a copy of the store after ingesting the next day, given the previous
 * build's render cache, against the full render; the files it wrote anew, and the files one more
 * day adds or changes in the deploy.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { storeContext } from '../../src/api/context.js';
import { seasonRoute } from '../../src/api/season.js';
import type { DayCut } from '../../src/domain/days.js';
import { writeSeasonsFiles } from '../../src/render/bulk.js';
import { listFiles } from '../../src/render/render.js';
import { servedStorePath } from '../../src/served/site-file.js';
import { openStore } from '../../src/store/store.js';
import { bulkBenchmarks } from './bulk.js';
import { mb, s, type Measure } from './measure.js';
import type { Workload } from './workload.js';

const run = promisify(execFile);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface RenderRun {
  seconds: number;
  made: number;
  units: number;
  unitsReused: number;
  bulkMonths: number;
  bulkReused: number;
  unitSeconds: number;
  bulkSeconds: number;
  files: number;
  bytes: number;
  workers: number;
  peakRssBytes: number;
  budget: number;
  cityDayDays: number;
}

/**
 * One render of `db` into `publish`, from an empty folder as the scheduled rebuild's fresh
 * checkout renders, with the render cache at `cache` (emptied first when `fresh`).
 */
async function renderOnce(root: string, db: string, publish: string, cache: string, fresh: boolean): Promise<RenderRun> {
  await rm(publish, { force: true });
  await rm(`${publish}.renders`, { recursive: true, force: true });
  if (fresh) await rm(cache, { recursive: true, force: true });
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'build/bench/render-child.ts'), db, publish, cache], {
    cwd: root,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as RenderRun;
}

/** Seconds to decode every city-day of the served store once: what any render must at least do. */
function scanSeconds(db: string): number {
  const store = openStore(servedStorePath(db), { readonly: true });
  try {
    const t0 = performance.now();
    const last = Math.max(store.pollen.latestDay() ?? 0, store.weather.latestDay() ?? 0);
    for (const slug of store.cities.set().slugs) {
      for (const _ of store.pollen.iterateHours(slug, 0, (last + 1) * 24));
      store.weather.forCity(slug, Number.MAX_SAFE_INTEGER);
    }
    return (performance.now() - t0) / 1000;
  } finally {
    store.close();
  }
}

async function cpSeconds(from: string, to: string): Promise<number> {
  const t0 = performance.now();
  await run('cp', ['-r', from, to]);
  const seconds = (performance.now() - t0) / 1000;
  await rm(to, { recursive: true, force: true });
  return seconds;
}

/** Each file of a rendered tree by its SHA-1. */
function hashes(dir: string): Map<string, string> {
  return new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
}

/** B14: what seasons add to a render's work: every city's two default answers and the seasons file, in one thread. */
async function seasonSeconds(db: string): Promise<{ seconds: number; answers: number }> {
  const store = openStore(servedStorePath(db), { readonly: true, immutable: true });
  try {
    const ctx = storeContext(store);
    const t0 = performance.now();
    let answers = 0;
    for (const city of store.cities.set().slugs) {
      for (const timezone of ['UTC', 'local']) {
        if (!store.values.has(city, timezone as DayCut)) continue;
        const answer = await seasonRoute.handler(new URLSearchParams({ city, timezone }), ctx);
        JSON.stringify('body' in answer ? answer.body : answer.text);
        answers++;
      }
    }
    await writeSeasonsFiles(store, () => {}, 'bench');
    return { seconds: (performance.now() - t0) / 1000, answers };
  } finally {
    store.close();
  }
}

/** A copy of the store (and the render cache beside it, as hard links) with the next day ingested. */
async function nextDay(db: string, cache: string, dir: string, workload: Workload): Promise<{ db: string; cache: string }> {
  await rm(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const next = { db: join(dir, 'bench.db'), cache: join(dir, 'render-cache') };
  copyFileSync(db, next.db);
  await run('cp', ['-al', cache, next.cache]);
  const store = openStore(next.db);
  const sample = new SampleProvider();
  const day = workload.span.to + 1;
  await ingest({ store, pollen: sample, weather: sample, cities: workload.cities, span: { from: day, to: day } });
  store.close();
  return next;
}

/** Renders the workload into `publish` three times, alternating with its floor; then three daily renders. */
export async function renderBenchmarks(root: string, dir: string, db: string, publish: string, workload: Workload): Promise<Measure[]> {
  const renders: RenderRun[] = [];
  const floors: Array<{ scan: number; copy: number }> = [];
  const cache = join(dir, 'render-cache');
  for (let i = 0; i < 3; i++) {
    renders.push(await renderOnce(root, db, publish, cache, true));
    floors.push({ scan: scanSeconds(db), copy: await cpSeconds(realpathSync(publish), join(dir, 'copied')) });
  }
  const renderSeconds = median(renders.map((r) => r.seconds));
  const [scan, copy] = [median(floors.map((f) => f.scan)), median(floors.map((f) => f.copy))];
  const floor = scan + copy;
  const { files, bytes, workers, budget, cityDayDays } = renders[0]!;
  const bulk = bulkBenchmarks(
    db,
    publish,
    renderSeconds,
    median(renders.map((r) => r.unitSeconds)),
    median(renders.map((r) => r.bulkSeconds)),
  );

  // B2: copies of the store with the next day ingested, each rendered with the previous build's cache.
  const before = hashes(realpathSync(publish));
  const nextDir = join(dir, 'next-day');
  const daily: RenderRun[] = [];
  let after = new Map<string, string>();
  for (let i = 0; i < 3; i++) {
    const next = await nextDay(db, cache, nextDir, workload);
    const nextPublish = join(nextDir, 'publish');
    daily.push(await renderOnce(root, next.db, nextPublish, next.cache, false));
    if (i === 0) after = hashes(realpathSync(nextPublish));
  }
  await rm(nextDir, { recursive: true, force: true });
  const added = [...after.keys()].filter((f) => !before.has(f)).length;
  const changed = [...after].filter(([f, h]) => before.has(f) && before.get(f) !== h).length;
  const removed = [...before.keys()].filter((f) => !after.has(f)).length;
  const allowed = 6 * workload.cities.length + 50;
  const dailySeconds = median(daily.map((r) => r.seconds));
  const day = daily[0]!;
  const peak = Math.max(...renders.map((r) => r.peakRssBytes), ...daily.map((r) => r.peakRssBytes));
  const seasons = await seasonSeconds(db);
  const renderWork = median(renders.map((r) => r.unitSeconds + r.bulkSeconds));

  return [
    ...bulk,
    {
      id: 'B14',
      what: `what seasons add to a render: ${seasons.answers} default /api/season answers (each city, UTC and local days) and the seasons file, in one thread`,
      value: s(seasons.seconds),
      baseline: `${s(renderWork)} (the full render's work, thread-seconds)`,
      ratio: seasons.seconds / renderWork,
      target: 'reported',
      met: null,
    },
    {
      id: 'B1',
      what: `full render of ${workload.label} with ${workers || 'no'} worker threads (median of 3, alternating with the floor)`,
      value: s(renderSeconds),
      baseline: `${s(floor)} (decoding every served city-day once: ${s(scan)}, plus cp -r of the output: ${s(copy)})`,
      ratio: renderSeconds / floor,
      target: '<= 2x',
      met: renderSeconds / floor <= 2,
    },
    {
      id: 'B1',
      what: 'peak RSS of the render process, worker threads included (full and daily renders)',
      value: mb(peak),
      baseline: '-',
      ratio: null,
      target: '< 512 MB',
      met: peak < 512 * 1024 * 1024,
    },
    {
      id: 'B1',
      what: `deploy: files in the publish folder (${mb(bytes)}); city-day files of the newest ${cityDayDays} days`,
      value: `${files} files`,
      baseline: `DEPLOY_MAX_FILES=${budget}`,
      ratio: files / budget,
      target: '<= 1x',
      met: files <= budget,
    },
    {
      id: 'B2',
      what: `daily render: one more day ingested, the previous build's render cache present (median of 3); ${day.made} of ${day.files} files written anew, ${day.units - day.unitsReused} of ${day.units} cities and dates and ${day.bulkMonths - day.bulkReused} of ${day.bulkMonths} bulk months rendered`,
      value: s(dailySeconds),
      baseline: `the full render above: ${s(renderSeconds)}`,
      ratio: dailySeconds / renderSeconds,
      target: '<= 0.1x and <= 15 s',
      met: dailySeconds / renderSeconds <= 0.1 && dailySeconds <= 15,
    },
    {
      id: 'B2',
      what: `files one more ingested day adds (${added}) or changes (${changed}) in the deploy; ${removed} removed`,
      value: `${added + changed} files`,
      baseline: `6 x ${workload.cities.length} cities + 50 = ${allowed}`,
      ratio: (added + changed) / allowed,
      target: '<= 1x',
      met: added + changed <= allowed,
    },
  ];
}
