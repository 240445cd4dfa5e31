/** One render in a process of its own (render-child.ts), as B1 and B2 run it, and what it reports. */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderEnv } from '../../src/render/threads/render-process.js';
import { RssSampler } from './rss-steps.js';

export const run = promisify(execFile);

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface RenderRun {
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
  /** The peak RSS (bytes) sampled within each step (rss-steps.ts). */
  stepPeakRss: Record<string, number>;
  budget: number;
  cityDayDays: number;
  /** Seconds of each step of the render (its summary's steps). */
  steps: Record<string, number>;
  /** Thread-seconds of the skills step's scoring, and of its resampling among them. */
  skillScoring: { seconds: number; resampling: number };
}

/**
 * One render of `db` into `publish`, from an empty folder as the scheduled rebuild's fresh
 * checkout renders, with the render cache at `cache` (emptied first when `fresh`).
 */
export async function renderOnce(root: string, db: string, publish: string, cache: string, fresh: boolean): Promise<RenderRun> {
  await rm(publish, { force: true });
  await rm(`${publish}.renders`, { recursive: true, force: true });
  if (fresh) await rm(cache, { recursive: true, force: true });
  const running = run(process.execPath, ['--import', 'tsx', join(root, 'build/bench/render-child.ts'), db, publish, cache], {
    cwd: root,
    maxBuffer: 1 << 20,
    env: renderEnv(), // as the command line renders
  });
  const sampler = running.child.pid === undefined ? undefined : new RssSampler(running.child.pid);
  let stdout: string;
  try {
    ({ stdout } = await running);
  } catch (error) {
    sampler?.stop({}, 0);
    throw error;
  }
  const { renderEndedAt, ...summary } = JSON.parse(stdout) as Omit<RenderRun, 'stepPeakRss'> & { renderEndedAt: number };
  return { ...summary, stepPeakRss: sampler?.stop(summary.steps, renderEndedAt) ?? {} };
}
