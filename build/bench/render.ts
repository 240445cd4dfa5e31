/** B1: a full render against copying its own output with fs.cp. */
import { cp, rm } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { mb, s, type Measure } from './measure.js';

/** Renders the workload into `publish`. */
export async function renderBenchmarks(dir: string, db: string, publish: string): Promise<Measure[]> {
  const store = openStore(db, { readonly: true });
  const full = await render(store, publish);
  store.close();

  const copy = join(dir, 'copied');
  const t0 = performance.now();
  await cp(realpathSync(publish), copy, { recursive: true });
  const cpSeconds = (performance.now() - t0) / 1000;
  await rm(copy, { recursive: true, force: true });

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
  ];
}
