/**
 * `build render`: the render's steps (steps/render-steps.ts) run in order into a fresh folder,
 * which then replaces the served one in a single atomic rename of the `publish` symlink
 * (publish.ts), within the deploy's file budget (file-budget.ts). Every enumerated request must
 * answer 200: otherwise the render fails, its folder is removed, and the previous one stays
 * served, so a deploy never ships a hole that the fallback would answer with a 500.
 */
import { rmSync } from 'node:fs';
import { ROUTES } from '../api/routes.js';
import type { Store } from '../store/store.js';
import { RenderCache } from './cache/render-cache.js';
import { publishRender } from './publish.js';
import { RenderRun } from './render-run.js';
import { type RenderSummary, summaryOf } from './render-summary.js';
import { type RenderOptions, targetOf } from './render-target.js';
import { RENDER_STEPS } from './steps/render-steps.js';

export { RenderError } from '../output/render-error.js';
export { formatRender, listFiles, type RenderSummary } from './render-summary.js';
export type { RenderOptions } from './render-target.js';

/**
 * Renders the store into `publishDir` (a symlink to the current render), and writes beside the
 * store the served store and the site file the functions carry.
 */
export async function render(store: Store, publishDir: string, options: RenderOptions = {}): Promise<RenderSummary> {
  const started = performance.now();
  const target = targetOf(store, publishDir, options);
  const cache = target.reuse && target.cacheDir ? new RenderCache(target.cacheDir, target.code, target.cacheKey) : undefined;
  const run = new RenderRun(store, target, options, options.routes ?? ROUTES, cache);
  try {
    for (const step of RENDER_STEPS) {
      run.put(step.name, await step.run(run));
      run.laps.done(step.name);
    }
  } catch (error) {
    rmSync(target.generation, { recursive: true, force: true });
    if (target.nextYears) rmSync(target.nextYears, { recursive: true, force: true });
    throw error;
  }
  publishRender(run);
  run.laps.done('finish');
  return summaryOf(run, (performance.now() - started) / 1000);
}
