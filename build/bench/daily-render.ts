/**
 * B2: the daily render, of a copy of the store after a daily build's ingest (the next day, and the
 * forecasts and outlook it keeps), given the previous build's render cache, against the full
 * render; its skills step against the full render's; the files it wrote anew, and the files one
 * more day adds or changes in the deploy; and the same daily render over twice the history (the
 * same cities and last day, 1,460 days) against it.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readShardManifest, type ShardManifest, shardFolderPath, shardManifestPath } from '../../src/deploy-data/shard-folder.js';
import { DAY_MS, HOUR_MS } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { cacheKeyPath } from '../../src/render/cache/key.js';
import { listFiles } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import type { FullRenders } from './full-render.js';
import { type Measure, mb, s } from './measure.js';
import { median, type RenderRun, renderOnce, run } from './render-run.js';
import { fillStore } from './store.js';
import { LONG_HISTORY_DAYS, type Workload, withHistory } from './workload.js';

/** How many shards of each kind (`city`, `day`, ...) a list of names holds, in words. */
function kinds(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name.split('/')[0]!, (counts.get(name.split('/')[0]!) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
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

/** A copy of the store (and the render cache beside it, as hard links) with the next day ingested, and kept as a daily build keeps it. */
async function nextDay(db: string, cache: string, dir: string, workload: Workload): Promise<{ db: string; cache: string }> {
  await rm(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const next = { db: join(dir, 'bench.db'), cache: join(dir, 'render-cache') };
  copyFileSync(db, next.db);
  await run('cp', ['-al', cache, next.cache]);
  // The key that signed the cache goes with it, as it does when a deploy keeps its store's folder; and the shards,
  // which the render takes unchanged quarters' and days' shards from (the cache names them).
  copyFileSync(cacheKeyPath(db), cacheKeyPath(next.db));
  await run('cp', ['-al', shardFolderPath(db), shardFolderPath(next.db)]);
  const store = openStore(next.db);
  const sample = new SampleProvider();
  const day = workload.span.to + 1;
  await ingest({ store, pollen: sample, weather: sample, cities: workload.cities, span: { from: day, to: day } });
  // The day's forecasts (06:30 and 18:30, made again) and each city's outlook of the day after.
  await keepForecasts({
    store,
    providers: [sample],
    cities: workload.cities,
    now: (day + 1) * DAY_MS + 7 * HOUR_MS,
    serveDays: workload.serveDays,
  });
  store.close();
  return next;
}

/** Three daily renders and what the first left. */
interface DailyRenders {
  renders: RenderRun[];
  /** The first's files by their SHA-1, and its shards' manifest. */
  after: Map<string, string>;
  shardsAfter: ShardManifest;
}

/**
 * Three daily renders of `db` (each of a copy of it with the next day ingested, nextDay), after a
 * full render of it whose render cache is `dir`/render-cache and whose shards are beside it.
 */
async function dailyRenders(root: string, dir: string, db: string, workload: Workload): Promise<DailyRenders> {
  const nextDir = join(dir, 'next-day');
  const renders: RenderRun[] = [];
  let after = new Map<string, string>();
  let shardsAfter = readShardManifest(shardManifestPath(db))!;
  for (let i = 0; i < 3; i++) {
    const next = await nextDay(db, join(dir, 'render-cache'), nextDir, workload);
    const nextPublish = join(nextDir, 'publish');
    renders.push(await renderOnce(root, next.db, nextPublish, next.cache, false));
    if (i === 0) {
      after = hashes(realpathSync(nextPublish));
      shardsAfter = readShardManifest(shardManifestPath(next.db))!;
    }
  }
  await rm(nextDir, { recursive: true, force: true });
  return { renders, after, shardsAfter };
}

/** Each step's seconds, the median of the renders'. */
function stepMedians(renders: readonly RenderRun[]): Map<string, number> {
  const names = [...new Set(renders.flatMap((r) => Object.keys(r.steps)))];
  return new Map(names.map((step) => [step, median(renders.map((r) => r.steps[step] ?? Number.NaN))]));
}

/**
 * The daily render over LONG_HISTORY_DAYS (the same cities, to the same last day) against `daily`,
 * the workload's: a store of its own filled as the workload's is (fillStore), one full render of it
 * (untimed: it leaves the render cache and the shards the daily renders start from, as B1's do),
 * then three daily renders as B2 makes them; each step's seconds of both, medians of 3.
 */
async function longHistoryBenchmark(root: string, dir: string, workload: Workload, daily: readonly RenderRun[]): Promise<Measure> {
  const long = withHistory(workload, LONG_HISTORY_DAYS);
  const longDir = join(dir, 'long-history');
  await rm(longDir, { recursive: true, force: true });
  mkdirSync(longDir, { recursive: true });
  try {
    const db = join(longDir, 'bench.db');
    (await fillStore(db, long)).store.close();
    await renderOnce(root, db, join(longDir, 'publish'), join(longDir, 'render-cache'), true);
    const { renders } = await dailyRenders(root, longDir, db, long);
    const [seconds, longSeconds] = [median(daily.map((r) => r.seconds)), median(renders.map((r) => r.seconds))];
    const [steps, longSteps] = [stepMedians(daily), stepMedians(renders)];
    const names = [...new Set([...steps.keys(), ...longSteps.keys()])];
    const each = names
      .map((step) => `${step} ${(steps.get(step) ?? Number.NaN).toFixed(1)} -> ${(longSteps.get(step) ?? Number.NaN).toFixed(1)} s`)
      .join(', ');
    return {
      id: 'B2',
      what: `daily render of the same cities over ${LONG_HISTORY_DAYS.toLocaleString('en-US')} days of history (the same last day, every day served; median of 3, after a full render of its own store); each step over ${workload.span.to - workload.span.from + 1} -> ${LONG_HISTORY_DAYS.toLocaleString('en-US')} days (medians of 3): ${each}`,
      value: s(longSeconds),
      baseline: `the daily render over ${workload.span.to - workload.span.from + 1} days above: ${s(seconds)}`,
      ratio: longSeconds / seconds,
      target: '<= 1.15x',
      met: longSeconds / seconds <= 1.15,
    };
  } finally {
    await rm(longDir, { recursive: true, force: true });
  }
}

/**
 * Three daily renders after B1's last full render into `publish`, whose render cache is `dir`/render-cache;
 * then the same over a longer history (longHistoryBenchmark).
 */
export async function dailyRenderBenchmark(
  root: string,
  dir: string,
  db: string,
  publish: string,
  workload: Workload,
  fullRenders: FullRenders,
): Promise<{ renders: RenderRun[]; measures: Measure[] }> {
  const full = fullRenders.seconds;
  const fullSkills = median(fullRenders.renders.map((r) => r.steps.skills ?? Number.NaN));
  const before = hashes(realpathSync(publish));
  const shardsBefore = readShardManifest(shardManifestPath(db))!;
  const { renders: daily, after, shardsAfter } = await dailyRenders(root, dir, db, workload);
  const longHistory = await longHistoryBenchmark(root, dir, workload, daily);
  const added = [...after.keys()].filter((f) => !before.has(f)).length;
  const changed = [...after].filter(([f, h]) => before.has(f) && before.get(f) !== h).length;
  const removed = [...before.keys()].filter((f) => !after.has(f)).length;
  const allowed = 6 * workload.cities.length + 50;
  const seconds = median(daily.map((r) => r.seconds));
  const skills = median(daily.map((r) => r.steps.skills ?? Number.NaN));
  const scoring = median(daily.map((r) => r.skillScoring.seconds));
  const resampled = median(daily.map((r) => r.skillScoring.resampling));
  const day = daily[0]!;
  // What the day's deploy uploads: the shards whose keys the previous deploy's manifest does not name.
  const held = new Set(Object.values(shardsBefore.shards));
  const uploaded = Object.entries(shardsAfter.shards).filter(([, key]) => !held.has(key));
  const uploadedKeys = new Map(uploaded.map(([name, key]) => [key, shardsAfter.bytes[name]!]));
  const uploadedBytes = [...uploadedKeys.values()].reduce((a, b) => a + b, 0);
  const shardBytes = Object.values(shardsAfter.bytes).reduce((a, b) => a + b, 0);
  return {
    renders: daily,
    measures: [
      {
        id: 'B2',
        what: `daily render: one more day ingested, the previous build's render cache present (median of 3); ${day.made} of ${day.files} files written anew, ${day.units - day.unitsReused} of ${day.units} cities and dates and ${day.bulkMonths - day.bulkReused} of ${day.bulkMonths} bulk months rendered`,
        value: s(seconds),
        baseline: `the full render above: ${s(full)}`,
        ratio: seconds / full,
        target: '<= 0.35x',
        met: seconds / full <= 0.35,
      },
      {
        id: 'B2',
        what: `the daily render's skills step (the day's new pairs, the open periods resampled, the current month's pairs file; median of 3): the bootstrap ${resampled.toFixed(1)} of its scoring's ${scoring.toFixed(1)} thread-seconds (${((100 * resampled) / scoring).toFixed(0)}%, medians of 3); ${Object.entries(
          day.steps,
        )
          .map(([step, t]) => `${step} ${t.toFixed(1)} s`)
          .join(', ')} in the first`,
        value: s(skills),
        baseline: `the full render's skills step: ${s(fullSkills)}`,
        ratio: skills / fullSkills,
        target: 'reported',
        met: null,
      },
      {
        id: 'B19',
        what: `shards one more ingested day uploads: ${uploadedKeys.size} of ${Object.keys(shardsAfter.shards).length} (${kinds(uploaded.map(([name]) => name))})`,
        value: mb(uploadedBytes),
        baseline: `every shard: ${mb(shardBytes)}`,
        ratio: uploadedBytes / shardBytes,
        target: '<= 0.1x',
        met: uploadedBytes / shardBytes <= 0.1,
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
      longHistory,
    ],
  };
}
