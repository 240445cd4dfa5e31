/**
 * B1: a full render (in a process of its own, for its peak RSS, from an empty render cache)
 * against its own floor in the same run, each part at its fastest (best of 3, alternating with the
 * renders): a scan that decodes every served city-day once (in a fresh process), plus DuckDB's
 * `COPY` of the same bulk and forecast-pairs files from their rows loaded beforehand (wall time,
 * DuckDB's default threads: every core; duckdb-copy.ts), plus coreutils `cp -r` of the rendered
 * tree; the deploy's files and bytes against its budget. The files' encoding at the writer's rate
 * (B11) is measured here once, for B11.
 */
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encodingOfRender } from './bulk.js';
import { DuckdbCopy } from './duckdb-copy.js';
import { type Measure, mb, s } from './measure.js';
import { median, type RenderRun, renderOnce, run } from './render-run.js';
import type { Workload } from './workload.js';

/**
 * Seconds to decode every city-day of the served store once: what any render must at least do.
 * In a fresh process (scan-child.ts): the same scan inside a process that has rendered runs up to
 * twice as slow, and a floor measured where it runs slowest would flatter the ratio.
 */
async function scanSeconds(root: string, db: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'build/bench/scan-child.ts'), db], { cwd: root });
  return Number(stdout.trim());
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
  /** The floor at its fastest: the scan, DuckDB's COPY of the bulk files and the copy (best of 3 each). */
  floor: number;
  /** The bulk and pairs files' encoding at the writer's rate, in CPU-seconds (B11's, not the floor's). */
  encoding: { seconds: number; rows: number; months: number };
  measures: Measure[];
}

interface Floor {
  scan: number;
  duckdb: number;
  copy: number;
}

/** Three renders from an empty render cache, each followed by the floor's parts; the encoding (B11's) measured once. */
async function rendersAndFloors(root: string, dir: string, db: string, publish: string) {
  const renders: RenderRun[] = [];
  const floors: Floor[] = [];
  const cache = join(dir, 'render-cache');
  let encoding: FullRenders['encoding'] | undefined;
  let duckdb: DuckdbCopy | undefined;
  for (let i = 0; i < 3; i++) {
    renders.push(await renderOnce(root, db, publish, cache, true));
    duckdb ??= await DuckdbCopy.load(publish, dir);
    const check = i === 0 ? (line: string) => process.stderr.write(`bench: B1's floor: ${line}\n`) : undefined;
    floors.push({
      scan: await scanSeconds(root, db),
      duckdb: await duckdb.seconds(check),
      copy: await cpSeconds(realpathSync(publish), join(dir, 'copied')),
    });
    encoding ??= await encodingOfRender(db, publish);
  }
  // The floor at its fastest: the best of three of each part.
  const best = (part: keyof Floor) => Math.min(...floors.map((f) => f[part]));
  return {
    renders,
    encoding: encoding!,
    copiedFiles: duckdb!.files.length * 2,
    scan: best('scan'),
    copying: best('duckdb'),
    copy: best('copy'),
  };
}

/** Renders the workload into `publish` three times, alternating with its floor. */
export async function fullRenderBenchmark(
  root: string,
  dir: string,
  db: string,
  publish: string,
  workload: Workload,
): Promise<FullRenders> {
  const { renders, encoding, copiedFiles, scan, copying, copy } = await rendersAndFloors(root, dir, db, publish);
  const seconds = median(renders.map((r) => r.seconds));
  const floor = scan + copying + copy;
  const { files, bytes, workers, budget, cityDayDays } = renders[0]!;
  return {
    renders,
    seconds,
    floor,
    encoding,
    measures: [
      {
        id: 'B1',
        what: `full render of ${workload.label} with ${workers || 'no'} worker threads (median of 3, alternating with the floor)`,
        value: s(seconds),
        baseline: `${s(floor)} (best of 3 each: decoding every served city-day once in a fresh process ${s(scan)}; DuckDB COPY of the ${copiedFiles} bulk and pairs files, wall time ${s(copying)}; cp -r of the output ${s(copy)})`,
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
