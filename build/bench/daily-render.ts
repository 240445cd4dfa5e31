/**
 * B2: the daily render, of a copy of the store after a daily build's ingest (the next day, and the
 * forecasts and outlook it keeps), given the previous build's render cache, against the full
 * render; its skills step against the full render's; the files it wrote anew, and the files one
 * more day adds or changes in the deploy.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { cacheKeyPath } from '../../src/render/cache/key.js';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DAY_MS, HOUR_MS } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { listFiles } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { readShardManifest, shardFolderPath, shardManifestPath } from '../../src/served/shard-folder.js';
import { type Measure, mb, s } from './measure.js';
import type { FullRenders } from './full-render.js';
import { median, type RenderRun, renderOnce, run } from './render-run.js';
import type { Workload } from './workload.js';

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
  const serveDays = workload.span.to - workload.span.from + 1;
  await keepForecasts({ store, providers: [sample], cities: workload.cities, now: (day + 1) * DAY_MS + 7 * HOUR_MS, serveDays });
  store.close();
  return next;
}

/** Three daily renders after B1's last full render into `publish`, whose render cache is `dir`/render-cache. */
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
  const nextDir = join(dir, 'next-day');
  const daily: RenderRun[] = [];
  let after = new Map<string, string>();
  const shardsBefore = readShardManifest(shardManifestPath(db))!;
  let shardsAfter = shardsBefore;
  for (let i = 0; i < 3; i++) {
    const next = await nextDay(db, join(dir, 'render-cache'), nextDir, workload);
    const nextPublish = join(nextDir, 'publish');
    daily.push(await renderOnce(root, next.db, nextPublish, next.cache, false));
    if (i === 0) {
      after = hashes(realpathSync(nextPublish));
      shardsAfter = readShardManifest(shardManifestPath(next.db))!;
    }
  }
  await rm(nextDir, { recursive: true, force: true });
  const added = [...after.keys()].filter((f) => !before.has(f)).length;
  const changed = [...after].filter(([f, h]) => before.has(f) && before.get(f) !== h).length;
  const removed = [...before.keys()].filter((f) => !after.has(f)).length;
  const allowed = 6 * workload.cities.length + 50;
  const seconds = median(daily.map((r) => r.seconds));
  const skills = median(daily.map((r) => r.steps.skills ?? Number.NaN));
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
        target: '<= 0.15x',
        met: seconds / full <= 0.15,
      },
      {
        id: 'B2',
        what: `the daily render's skills step (the day's new pairs, the open periods resampled, the current month's pairs file; median of 3): ${Object.entries(
          day.steps,
        )
          .map(([step, t]) => `${step} ${t.toFixed(1)} s`)
          .join(', ')} in the first`,
        value: s(skills),
        baseline: `the full render's skills step: ${s(fullSkills)}`,
        ratio: skills / fullSkills,
        target: '< 0.1x',
        met: skills / fullSkills < 0.1,
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
    ],
  };
}
