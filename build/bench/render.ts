/**
 * B1: a full render (in a process of its own, for its peak RSS) against its own floor in the same
 * run: a scan that decodes every served city-day once, plus coreutils `cp -r` of the rendered
 * tree; the deploy's files and bytes against its budget. B2: the files one more ingested day adds
 * or changes, rendering a copy of the store after ingesting the next day.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
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
  unitSeconds: number;
  bulkSeconds: number;
  files: number;
  bytes: number;
  workers: number;
  peakRssBytes: number;
  budget: number;
  cityDayDays: number;
}

/** One render of `db` into `publish`, from an empty folder as the scheduled rebuild's fresh checkout renders. */
async function renderOnce(root: string, db: string, publish: string): Promise<RenderRun> {
  await rm(publish, { force: true });
  await rm(`${publish}.renders`, { recursive: true, force: true });
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'build/bench/render-child.ts'), db, publish], {
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

/** Renders the workload into `publish` three times, alternating with its floor. */
export async function renderBenchmarks(root: string, dir: string, db: string, publish: string, workload: Workload): Promise<Measure[]> {
  const renders: RenderRun[] = [];
  const floors: Array<{ scan: number; copy: number }> = [];
  for (let i = 0; i < 3; i++) {
    renders.push(await renderOnce(root, db, publish));
    floors.push({ scan: scanSeconds(db), copy: await cpSeconds(realpathSync(publish), join(dir, 'copied')) });
  }
  const renderSeconds = median(renders.map((r) => r.seconds));
  const [scan, copy] = [median(floors.map((f) => f.scan)), median(floors.map((f) => f.copy))];
  const floor = scan + copy;
  const peak = Math.max(...renders.map((r) => r.peakRssBytes));
  const { files, bytes, workers, budget, cityDayDays } = renders[0]!;
  const bulk = bulkBenchmarks(
    db,
    publish,
    renderSeconds,
    median(renders.map((r) => r.unitSeconds)),
    median(renders.map((r) => r.bulkSeconds)),
  );

  // B2: a copy of the store with the next day ingested, rendered, against the render above.
  const before = hashes(realpathSync(publish));
  const nextDir = join(dir, 'next-day');
  mkdirSync(nextDir, { recursive: true });
  const nextDb = join(nextDir, 'bench.db');
  copyFileSync(db, nextDb);
  const store = openStore(nextDb);
  const sample = new SampleProvider();
  await ingest({
    store,
    pollen: sample,
    weather: sample,
    cities: workload.cities,
    span: { from: workload.span.to + 1, to: workload.span.to + 1 },
  });
  store.close();
  const nextPublish = join(nextDir, 'publish');
  await renderOnce(root, nextDb, nextPublish);
  const after = hashes(realpathSync(nextPublish));
  const added = [...after.keys()].filter((f) => !before.has(f)).length;
  const changed = [...after].filter(([f, h]) => before.has(f) && before.get(f) !== h).length;
  const removed = [...before.keys()].filter((f) => !after.has(f)).length;
  const allowed = 6 * workload.cities.length + 50;
  await rm(nextDir, { recursive: true, force: true });

  return [
    ...bulk,
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
      what: 'peak RSS of the render process, worker threads included',
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
      what: `files one more ingested day adds (${added}) or changes (${changed}); ${removed} removed`,
      value: `${added + changed} files`,
      baseline: `6 x ${workload.cities.length} cities + 50 = ${allowed}`,
      ratio: (added + changed) / allowed,
      target: '<= 1x',
      met: added + changed <= allowed,
    },
  ];
}
