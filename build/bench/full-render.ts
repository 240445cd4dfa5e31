/**
 * B1: a full render (in a process of its own, for its peak RSS, from an empty render cache)
 * against its own floor in the same run: a scan that decodes every served city-day once, plus
 * coreutils `cp -r` of the rendered tree; the deploy's files and bytes against its budget.
 */
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { servedStorePath } from '../../src/served/site-file.js';
import { openStore } from '../../src/store/store.js';
import { type Measure, mb, s } from './measure.js';
import { median, type RenderRun, renderOnce, run } from './render-run.js';
import type { Workload } from './workload.js';

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

/** B1's renders (three, alternating with the floor), for B11 and B2 to compare with. */
export interface FullRenders {
  renders: RenderRun[];
  seconds: number;
  measures: Measure[];
}

/** Renders the workload into `publish` three times, alternating with its floor. */
export async function fullRenderBenchmark(
  root: string,
  dir: string,
  db: string,
  publish: string,
  workload: Workload,
): Promise<FullRenders> {
  const renders: RenderRun[] = [];
  const floors: Array<{ scan: number; copy: number }> = [];
  const cache = join(dir, 'render-cache');
  for (let i = 0; i < 3; i++) {
    renders.push(await renderOnce(root, db, publish, cache, true));
    floors.push({ scan: scanSeconds(db), copy: await cpSeconds(realpathSync(publish), join(dir, 'copied')) });
  }
  const seconds = median(renders.map((r) => r.seconds));
  const [scan, copy] = [median(floors.map((f) => f.scan)), median(floors.map((f) => f.copy))];
  const floor = scan + copy;
  const { files, bytes, workers, budget, cityDayDays } = renders[0]!;
  return {
    renders,
    seconds,
    measures: [
      {
        id: 'B1',
        what: `full render of ${workload.label} with ${workers || 'no'} worker threads (median of 3, alternating with the floor)`,
        value: s(seconds),
        baseline: `${s(floor)} (decoding every served city-day once: ${s(scan)}, plus cp -r of the output: ${s(copy)})`,
        ratio: seconds / floor,
        target: '<= 2x',
        met: seconds / floor <= 2,
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
    ],
  };
}
