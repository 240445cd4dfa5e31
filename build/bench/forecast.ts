/** B4: forecast single flight (200 concurrent requests for a cold city) and warm latency against a static read. */
import { openStore } from '../../src/store/store.js';
import { type Measure, ms } from './measure.js';
import { type Child, get, p50 } from './server.js';

export async function forecastBenchmark(server: Child, forecastDb: string): Promise<Measure[]> {
  const cold = await Promise.all(Array.from({ length: 200 }, () => get(`${server.url}/api/forecast?city=wichita`)));
  if (cold.some((r) => r.status !== 200)) throw new Error('a forecast request failed');
  const cache = openStore(forecastDb, { readonly: true });
  const upstream = cache.ledger.callsOn('sample', new Date().toISOString().slice(0, 10)).forecast;
  cache.close();
  const warm = await p50(`${server.url}/api/forecast?city=wichita`, 50);
  const staticP50 = await p50(`${server.url}/api/cities`, 50);
  return [
    {
      id: 'B4',
      what: `forecast: 200 concurrent requests for a cold city made ${upstream} upstream call(s); then warm p50`,
      value: ms(warm),
      baseline: `${ms(staticP50)} (a static read, same server)`,
      ratio: warm / staticP50,
      target: 'exactly 1 upstream call; warm p50 <= 2x',
      met: upstream === 1 && warm / staticP50 <= 2,
    },
  ];
}
