/**
 * One render in a process of its own, so that its peak RSS (worker threads included) is its
 * alone: prints the render's summary, the peak and when the render returned (epoch ms) as JSON. Used by B1 (a render cache of its own,
 * emptied first: a full render) and by the daily render (the previous build's cache).
 *
 *   node --import tsx build/bench/render-child.ts <store> <publish> <render cache>
 */
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { epochMs } from './rss-steps.js';

const [db, publish, cacheDir] = process.argv.slice(2);
const store = openStore(db!, { readonly: true });
const summary = await render(store, publish!, { cacheDir: cacheDir! });
// When the render returned, its last lap ended: the bench makes the steps' bounds back from it.
const renderEndedAt = epochMs();
store.close();
const {
  seconds,
  unitSeconds,
  bulkSeconds,
  files,
  bytes,
  made,
  workers,
  plan,
  steps,
  units,
  unitsReused,
  bulkMonths,
  bulkReused,
  skillScoring,
} = summary;
process.stdout.write(
  `${JSON.stringify({ seconds, unitSeconds, bulkSeconds, files, bytes, made, workers, peakRssBytes: process.resourceUsage().maxRSS * 1024, budget: plan.budget, cityDayDays: plan.cityDayDays, steps, units, unitsReused, bulkMonths, bulkReused, skillScoring, renderEndedAt })}\n`,
);
