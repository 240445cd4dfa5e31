/**
 * One full render in a process of its own, so that its peak RSS (worker threads included) is its
 * alone: prints the render's summary and the peak as JSON. Used by B1.
 *
 *   node --import tsx build/bench/render-child.ts <store> <publish>
 */
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';

const [db, publish] = process.argv.slice(2);
const store = openStore(db!, { readonly: true });
const summary = await render(store, publish!);
store.close();
const { seconds, unitSeconds, bulkSeconds, files, bytes, workers, plan, steps } = summary;
process.stdout.write(
  `${JSON.stringify({ seconds, unitSeconds, bulkSeconds, files, bytes, workers, peakRssBytes: process.resourceUsage().maxRSS * 1024, budget: plan.budget, cityDayDays: plan.cityDayDays, steps })}\n`,
);
