/**
 * The render's benchmarks, in order: B1, the full render (full-render.ts); B11, the bulk files
 * (bulk.ts); B2, the daily render (daily-render.ts); B14, what seasons add to a render
 * (season.ts); B15, the forecast skill's step in B1's renders (skills.ts); the peak RSS of every
 * render, and within each step of B1's (rss-steps.ts).
 */
import { bulkBenchmarks } from './bulk.js';
import { dailyRenderBenchmark } from './daily-render.js';
import { fullRenderBenchmark } from './full-render.js';
import { type Measure, mb } from './measure.js';
import { median, type RenderRun } from './render-run.js';
import { STEP_ORDER } from './rss-steps.js';
import { seasonRenderBenchmark } from './season.js';
import { skillsBenchmark } from './skills.js';
import type { Workload } from './workload.js';

export async function renderBenchmarks(root: string, dir: string, db: string, publish: string, workload: Workload): Promise<Measure[]> {
  const full = await fullRenderBenchmark(root, dir, db, publish, workload);
  const work = (pick: (r: (typeof full.renders)[0]) => number) => median(full.renders.map(pick));
  const bulk = await bulkBenchmarks(
    db,
    publish,
    full.seconds,
    work((r) => r.unitSeconds),
    work((r) => r.bulkSeconds),
    { seconds: full.floor, encoding: full.encoding },
  );
  const daily = await dailyRenderBenchmark(root, dir, db, publish, workload, full);
  const seasons = await seasonRenderBenchmark(
    db,
    work((r) => r.unitSeconds + r.bulkSeconds),
  );
  const peak = Math.max(...[...full.renders, ...daily.renders].map((r) => r.peakRssBytes));
  return [
    ...bulk,
    ...seasons,
    ...skillsBenchmark(db, full.renders, workload.cities.length),
    ...full.measures,
    {
      id: 'B1',
      what: 'peak RSS of the render process, worker threads included (full and daily renders)',
      value: mb(peak),
      baseline: '-',
      ratio: null,
      target: '< 512 MB',
      met: peak < 512 * 1024 * 1024,
    },
    stepPeaks(full.renders),
    ...daily.measures,
  ];
}

/** The peak RSS within each step of B1's full renders (the highest of the three), sampled every 50 ms. */
function stepPeaks(renders: readonly RenderRun[]): Measure {
  const steps = [...new Set(renders.flatMap((r) => Object.keys(r.stepPeakRss)))].sort(
    (a, b) => (STEP_ORDER as readonly string[]).indexOf(a) - (STEP_ORDER as readonly string[]).indexOf(b),
  );
  const peaks = steps.map((step) => ({ step, bytes: Math.max(...renders.map((r) => r.stepPeakRss[step] ?? 0)) }));
  const top = peaks.reduce((a, b) => (b.bytes > a.bytes ? b : a), { step: '-', bytes: 0 });
  return {
    id: 'B1',
    what: `peak RSS within each step of the full render, worker threads included (sampled every 50 ms, the highest of B1's 3): ${peaks.map((p) => `${p.step} ${mb(p.bytes)}`).join(', ') || 'no samples (not Linux)'}`,
    value: `${top.step} ${mb(top.bytes)}`,
    baseline: '-',
    ratio: null,
    target: 'reported (the step that peaks)',
    met: null,
  };
}
