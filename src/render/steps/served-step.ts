/**
 * The served store: the last SERVE_DAYS days of the build's store, the one the functions read
 * (through its shards). The site's files (made by esbuild and Redoc in processes of their own)
 * start here and are awaited by the measure step.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { settingsOf } from '../../settings.js';
import { siteFiles } from '../../site/build.js';
import { renderStep } from '../render-run.js';
import type { RenderOptions } from '../render-target.js';
import { writeServedStore } from '../served-store.js';

export const servedStep = renderStep({
  name: 'served',
  run: ({ store, target, options }) => {
    if (target.nextYears) rmSync(target.nextYears, { recursive: true, force: true });
    mkdirSync(target.generation);
    mkdirSync(target.folder);
    mkdirSync(target.served);
    const site = siteFiles();
    site.catch(() => {}); // awaited by the measure step; a failure then fails the render
    const cityDays = writeServedStore(store, target.nextServed, options.serveDays ?? settingsOf().SERVE_DAYS);
    return { cityDays, workers: workersOf(cityDays, options), site };
  },
});

/**
 * The threads a render's work runs in: none (this thread) for a small store (threads would cost
 * more than they save), a test's routes, or as asked; else the cores, up to 4.
 */
function workersOf(cityDays: number, options: RenderOptions): number {
  if (options.routes !== undefined || options.workers === 0 || (options.workers === undefined && cityDays < 5_000)) return 0;
  return options.workers ?? Math.min(4, availableParallelism());
}
