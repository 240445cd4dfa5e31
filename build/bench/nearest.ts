/** B10: /api/nearest (its own function, the ZIP table loaded by the warm-up), by ZIP code and by point, against a static file. */
import { type Measure, ms } from './measure.js';
import { type Child, p50 } from './server.js';

export async function nearestBenchmark(server: Child): Promise<Measure[]> {
  const zipP50 = await p50(`${server.url}/api/nearest?zip=74103&limit=3`, 100, 5);
  const pointP50 = await p50(`${server.url}/api/nearest?lat=36.15&lon=-95.99&limit=3`, 100, 5);
  const citiesP50 = await p50(`${server.url}/api/cities`, 100);
  return [
    {
      id: 'B10',
      what: `/api/nearest warm p50 of 100: by ZIP code ${ms(zipP50)}, by point ${ms(pointP50)}`,
      value: ms(zipP50),
      baseline: `${ms(citiesP50)} (/api/cities, a static file, same server)`,
      ratio: zipP50 / citiesP50,
      target: 'reported (the CDN caches it until the next deploy)',
      met: null,
    },
  ];
}
