/**
 * B14: /api/season computed by the fallback function (a year given: no file answers it), against
 * the city's default answer, a rendered file; and what seasons add to a render's work.
 */

import { seasonRoute } from '../../src/api/endpoints/season.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import type { DayCut } from '../../src/domain/day-cuts.js';
import { writeSeasonsFiles } from '../../src/output/bulk/months.js';
import { openStore } from '../../src/store/store.js';
import { storeContext } from '../../src/wiring/contexts.js';
import { type Measure, ms, s } from './measure.js';
import { type Child, p50 } from './server.js';
import { BENCH_SPAN } from './workload.js';

export async function seasonBenchmark(server: Child, slug: string): Promise<Measure[]> {
  const year = new Date(BENCH_SPAN.to * 86_400_000).getUTCFullYear();
  const functionP50 = await p50(`${server.url}/api/season?city=${slug}&year=${year}`, 100, 5);
  const fileP50 = await p50(`${server.url}/api/season?city=${slug}`, 100, 5);
  return [
    {
      id: 'B14',
      what: `/api/season?city=${slug}&year=${year} (every category, computed by the fallback function), warm p50 of 100`,
      value: ms(functionP50),
      baseline: `${ms(fileP50)} (/api/season?city=${slug}, the same answer rendered to a file, through the same server)`,
      ratio: functionP50 / fileP50,
      target: 'reported (the CDN caches it until the next deploy)',
      met: null,
    },
  ];
}

/** What seasons add to a render's work: every city's two default answers and the seasons file, in one thread. */
export async function seasonRenderBenchmark(db: string, renderWork: number): Promise<Measure[]> {
  const store = openStore(servedStorePath(db), { readonly: true, immutable: true });
  let seconds: number;
  let answers = 0;
  try {
    const ctx = storeContext(store);
    const t0 = performance.now();
    for (const city of store.cities.set().slugs) {
      for (const timezone of ['UTC', 'local']) {
        if (!store.values.has(city, timezone as DayCut)) continue;
        const answer = await seasonRoute.handler(new URLSearchParams({ city, timezone }), ctx);
        JSON.stringify('body' in answer ? answer.body : answer.text);
        answers++;
      }
    }
    await writeSeasonsFiles(store, () => {}, 'bench');
    seconds = (performance.now() - t0) / 1000;
  } finally {
    store.close();
  }
  return [
    {
      id: 'B14',
      what: `what seasons add to a render: ${answers} default /api/season answers (each city, UTC and local days) and the seasons file, in one thread`,
      value: s(seconds),
      baseline: `${s(renderWork)} (the full render's work, thread-seconds)`,
      ratio: seconds / renderWork,
      target: 'reported',
      met: null,
    },
  ];
}
