/** What a render says of itself: its summary, the seconds of each step, and the account the command line prints. */
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Written } from '../output/file-writer.js';
import { type FilePlan, formatPlan } from './file-budget.js';
import type { RenderRun, StepName } from './render-run.js';
import type { ServedStore } from './served-store.js';

export interface RenderSummary extends Written {
  seconds: number;
  /** Thread-seconds spent on the units' files, and on the bulk files (summed over worker threads). */
  unitSeconds: number;
  bulkSeconds: number;
  /**
   * The forecast-skill step: thread-seconds of its scoring, and of its resampling (the bootstrap)
   * among them; months whose pairs files, and city-years whose scores, came from the render cache.
   */
  skillScoring: { seconds: number; resampling: number; monthsReused: number; yearsReused: number };
  /** How many months have bulk files, and how many of them were reused from the render cache. */
  bulkMonths: number;
  bulkReused: number;
  /** What went wrong with the render cache, which cost time but not the render (a cache ignored, a cache not kept). */
  warnings: string[];
  /** How many units (a city's files, a date's) the render had, and how many were reused from the render cache. */
  units: number;
  unitsReused: number;
  folder: string;
  workers: number;
  served: ServedStore;
  plan: FilePlan;
  /** Wall-clock seconds of each step (steps/render-steps.ts), by its name, and of publishing (`finish`). */
  steps: Partial<Record<StepName | 'finish', number>>;
  /** The served store's shards (store/shards/): how many it has and their bytes, and those this render wrote (not kept from before). */
  shards: { names: number; bytes: number; written: number; writtenBytes: number; reused: number };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Every file below `dir`, relative to it. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** A short account of what a render wrote. */
export function formatRender(s: RenderSummary): string {
  return (
    `rendered ${s.files} files (${(s.bytes / 1e6).toFixed(1)} MB${s.made < s.files ? `; ${s.made} written anew, ${s.files - s.made} kept from the render cache` : ''}) in ${s.seconds.toFixed(1)} s into ${basename(s.folder)}${s.workers > 0 ? ` with ${s.workers} workers` : ''}; ` +
    `the served store holds ${s.served.cityDays} city-days in ${s.shards.names} shards (${s.shards.written} new, ${mb(s.shards.writtenBytes)}; functions about ${mb(s.served.functionBytes)} zipped)\n${formatPlan(s.plan)}; the fallback function answers the other city-days\n` +
    `reused from the render cache: ${s.unitsReused} of ${s.units} cities and dates, ${s.bulkReused} of ${s.bulkMonths} months of bulk files, ${s.shards.reused} of ${s.shards.names} shards\n` +
    s.warnings.map((w) => `warning: ${w}\n`).join('')
  );
}

/** What a render that has run and published says of itself, `seconds` after it started. */
export function summaryOf(run: RenderRun, seconds: number): RenderSummary {
  const [skills, tasks, shards] = [run.of('skills'), run.of('tasks'), run.of('shards')];
  const { out, served } = run.of('measure');
  const { plan, months } = run.of('plan');
  return {
    files: run.of('manifest').files,
    bytes: tasks.bytes + skills.written.bytes + out.written.bytes,
    made: tasks.made + skills.written.made + out.written.made,
    unitSeconds: tasks.unitSeconds,
    bulkSeconds: tasks.bulkSeconds,
    skillScoring: { ...skills.scoring, monthsReused: skills.plan.months.filter((m) => m.reused).length, yearsReused: skills.yearsReused },
    bulkReused: tasks.bulkReused,
    bulkMonths: months.length,
    units: Object.keys(tasks.units).length,
    unitsReused: tasks.unitsReused,
    workers: run.of('served').workers,
    served,
    plan,
    shards: {
      names: Object.keys(shards.manifest.shards).length,
      bytes: Object.values(shards.manifest.bytes).reduce((a, b) => a + b, 0),
      written: shards.written.shards,
      writtenBytes: shards.written.bytes,
      reused: shards.reused,
    },
    steps: run.laps.steps,
    seconds,
    folder: run.target.folder,
    warnings: run.target.warnings,
  };
}
