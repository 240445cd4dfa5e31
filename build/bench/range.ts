/** B3: the largest range answer over local HTTP, identity and gzip, and the server's memory over 40 of them. */
import { dayString, HOUR_MS } from '../../src/domain/dates.js';
import { hourlyRow } from '../../src/domain/pollen-rows.js';
import { openStore } from '../../src/store/store.js';
import { type Measure, mb, ms, percentile } from './measure.js';
import { type Child, get, procStatus, sequential } from './server.js';
import { BENCH_SPAN } from './workload.js';

/** The same rows read and JSON.stringify-ed in this process, p50 of 5 (ms). */
function inProcessMs(db: string, fromHour: number, toHour: number): number {
  const store = openStore(db, { readonly: true });
  try {
    const times = Array.from({ length: 5 }, () => {
      const t = performance.now();
      const rows = [];
      for (const slug of store.cities.set().slugs) {
        for (const h of store.pollen.hours(slug, fromHour, toHour)) {
          if (rows.length >= 50_000) break;
          rows.push({ city: slug, ...hourlyRow(h) });
        }
      }
      JSON.stringify({ rows });
      return performance.now() - t;
    });
    return percentile(times, 50);
  } finally {
    store.close();
  }
}

/** 50,000 hourly rows of every city, species included. */
export async function rangeBenchmark(server: Child, db: string): Promise<Measure[]> {
  const pid = server.process.pid!;
  const from = dayString(BENCH_SPAN.from);
  const to = dayString(BENCH_SPAN.from + 60);
  const rangeUrl = `${server.url}/api/pollen-range?from=${from}&to=${to}&limit=50000`;
  await get(rangeUrl); // warm the statement caches once
  const rssBefore = procStatus(pid, 'VmRSS');
  const identity = await sequential(20, rangeUrl);
  const gzip = await sequential(20, rangeUrl, { 'accept-encoding': 'gzip' });
  const rssGrowth = procStatus(pid, 'VmHWM') - rssBefore;
  const base = inProcessMs(db, Date.parse(`${from}T00:00:00Z`) / HOUR_MS, Date.parse(`${to}T00:00:00Z`) / HOUR_MS);
  const times = (runs: Array<{ ms: number }>, p: number) =>
    percentile(
      runs.map((r) => r.ms),
      p,
    );
  const p50 = times(identity, 50);
  return [
    {
      id: 'B3',
      what: `pollen-range limit=50000, hourly, all cities: identity p50 (p95 ${ms(times(identity, 95))}), ${mb(identity[0]!.bytes)}`,
      value: ms(p50),
      baseline: `${ms(base)} (rows read and JSON.stringify in one process)`,
      ratio: p50 / base,
      target: '<= 1.5x',
      met: p50 / base <= 1.5,
    },
    {
      id: 'B3',
      what: `the same with gzip: p50 ${ms(times(gzip, 50))}, p95 ${ms(times(gzip, 95))}; body bytes`,
      value: mb(gzip[0]!.bytes),
      baseline: `${mb(identity[0]!.bytes)} identity`,
      ratio: gzip[0]!.bytes / identity[0]!.bytes,
      target: '<= 6 MB',
      met: gzip[0]!.bytes <= 6 * 1024 * 1024,
    },
    {
      id: 'B3',
      what: 'peak RSS growth of the server process over the 40 requests',
      value: mb(rssGrowth),
      baseline: `${mb(rssBefore)} before`,
      ratio: null,
      target: '<= 64 MB',
      met: rssGrowth <= 64 * 1024 * 1024,
    },
  ];
}
