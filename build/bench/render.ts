/**
 * B1: a full render (in a process of its own, for its peak RSS) against copying its own output
 * with fs.cp, alternating, median of 3 each.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mb, s, type Measure } from './measure.js';
import type { Workload } from './workload.js';

const run = promisify(execFile);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface RenderRun {
  seconds: number;
  files: number;
  bytes: number;
  workers: number;
  peakRssBytes: number;
}

/** Renders the workload into `publish` three times, copying the output after each. */
export async function renderBenchmarks(root: string, dir: string, db: string, publish: string, workload: Workload): Promise<Measure[]> {
  const renders: RenderRun[] = [];
  const copies: number[] = [];
  for (let i = 0; i < 3; i++) {
    // From an empty folder, as the scheduled rebuild's fresh checkout renders (no old render to delete).
    await rm(publish, { force: true });
    await rm(`${publish}.renders`, { recursive: true, force: true });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'build/bench/render-child.ts'), db, publish], { cwd: root, maxBuffer: 1 << 20 });
    renders.push(JSON.parse(stdout) as RenderRun);
    const copy = join(dir, 'copied');
    const t0 = performance.now();
    await cp(realpathSync(publish), copy, { recursive: true });
    copies.push((performance.now() - t0) / 1000);
    await rm(copy, { recursive: true, force: true });
  }
  const [renderSeconds, copySeconds] = [median(renders.map((r) => r.seconds)), median(copies)];
  const peak = Math.max(...renders.map((r) => r.peakRssBytes));
  const { files, bytes, workers } = renders[0]!;
  return [
    {
      id: 'B1',
      what: `full render of ${workload.label} with ${workers || 'no'} worker threads: ${files} files, ${mb(bytes)} per deploy (median of 3, alternating with the copy)`,
      value: s(renderSeconds),
      baseline: `${s(copySeconds)} (fs.cp of the rendered tree)`,
      ratio: renderSeconds / copySeconds,
      target: '<= 1.5x',
      met: renderSeconds / copySeconds <= 1.5,
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
  ];
}
