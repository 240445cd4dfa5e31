/**
 * The render's floor, in a process of its own: decodes every city-day of the served store beside
 * `<store>` once (each city's hours and weather rows), and prints the seconds it took.
 *
 *   node --import tsx build/bench/scan-child.ts <store>
 */
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { openStore } from '../../src/store/store.js';

const store = openStore(servedStorePath(process.argv[2]!), { readonly: true });
const t0 = performance.now();
const last = Math.max(store.pollen.latestDay() ?? 0, store.weather.latestDay() ?? 0);
for (const slug of store.cities.set().slugs) {
  for (const _ of store.pollen.iterateHours(slug, 0, (last + 1) * 24));
  store.weather.forCity(slug, Number.MAX_SAFE_INTEGER);
}
process.stdout.write(`${(performance.now() - t0) / 1000}\n`);
store.close();
