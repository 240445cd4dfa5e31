/** B1 (full render against copying its tree with fs.cp) and B2 (incremental render after one more day). */
import { cp, rm } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { CITIES } from '../../src/domain/cities.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { mb, s, type Measure } from './measure.js';
import { BENCH_SPAN } from './workload.js';

/** Renders the workload into `publish`, then once more after one more day. */
export async function renderBenchmarks(dir: string, db: string, publish: string): Promise<Measure[]> {
  let store = openStore(db, { readonly: true });
  const full = await render(store, publish);
  store.close();

  const copy = join(dir, 'copied');
  const t0 = performance.now();
  await cp(realpathSync(publish), copy, { recursive: true });
  const cpSeconds = (performance.now() - t0) / 1000;
  await rm(copy, { recursive: true, force: true });

  store = openStore(db);
  const sample = new SampleProvider();
  const next = BENCH_SPAN.to + 1;
  await ingest({ store, pollen: sample, weather: sample, cities: CITIES, span: { from: next, to: next } });
  store.close();
  store = openStore(db, { readonly: true });
  const incremental = await render(store, publish);
  store.close();

  const fileLimit = CITIES.length * 8 + 20;
  return [
    {
      id: 'B1',
      what: `full render: ${full.files} files, ${mb(full.bytes)}`,
      value: s(full.seconds),
      baseline: `${s(cpSeconds)} (fs.cp of the rendered tree)`,
      ratio: full.seconds / cpSeconds,
      target: '<= 2.0x',
      met: full.seconds / cpSeconds <= 2,
    },
    {
      id: 'B2',
      what: `incremental render after one more day: ${incremental.written.length} files rewritten (limit ${fileLimit})`,
      value: s(incremental.seconds),
      baseline: `${s(full.seconds)} (B1)`,
      ratio: incremental.seconds / full.seconds,
      target: `<= 0.05x time, files <= ${fileLimit}`,
      met: incremental.seconds / full.seconds <= 0.05 && incremental.written.length <= fileLimit,
    },
  ];
}
