/** B9: a city-day the budget left to the fallback function, against one rendered to a file, through the same rule. */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { dayString } from '../../src/domain/dates.js';
import { type Measure, ms } from './measure.js';
import { type Child, p50 } from './server.js';
import { BENCH_SPAN } from './workload.js';

export async function fallbackBenchmark(server: Child, publish: string, slug: string): Promise<Measure[]> {
  const dayUrl = (day: number) => `${server.url}/api/pollen?city=${slug}&date=${dayString(day)}`;
  const [oldDay, newDay] = [BENCH_SPAN.from + 30, BENCH_SPAN.to];
  const rendered = (day: number) => existsSync(join(realpathSync(publish), 'data', 'pollen', slug, `${dayString(day)}.json`));
  if (rendered(oldDay) || !rendered(newDay))
    throw new Error(`B9 expects ${dayString(oldDay)} unrendered and ${dayString(newDay)} rendered for ${slug}`);
  const fallbackP50 = await p50(dayUrl(oldDay), 100, 5);
  const fileP50 = await p50(dayUrl(newDay), 100, 5);
  return [
    {
      id: 'B9',
      what: `/api/pollen?city=${slug}&date=${dayString(oldDay)} answered by the fallback function (no file under the budget), warm p50 of 100`,
      value: ms(fallbackP50),
      baseline: `${ms(fileP50)} (date=${dayString(newDay)}, a rendered file through the same rule)`,
      ratio: fallbackP50 / fileP50,
      target: 'reported (the CDN caches it until the next deploy)',
      met: null,
    },
  ];
}
