/**
 * `npm run bench [-- [B1,B3,...] [--cities-file cities/us-top-200.json]]`: every benchmark on a
 * city set (the built-in 40 by default) x 730 days, one table, saved as JSON. Exits non-zero only
 * when it cannot run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { functionBenchmarks } from './functions.js';
import { httpBenchmarks } from './http.js';
import { cpuTicks, machineLine, stolenShare } from './machine.js';
import type { Measure } from './measure.js';
import { renderBenchmarks } from './render.js';
import { storeBenchmarks } from './store.js';
import { workloadOf } from './workload.js';

const root = resolve(import.meta.dirname, '..', '..');
const args = parseArgs({ allowPositionals: true, options: { 'cities-file': { type: 'string' } } });
const workload = workloadOf(args.values['cities-file']);
const only = args.positionals[0]?.split(',');
const want = (id: string) => !only || only.includes(id);
const dir = mkdtempSync(join(tmpdir(), 'pollen-bench-'));
const started = cpuTicks();
try {
  const db = join(dir, 'bench.db');
  const publish = join(dir, 'publish');
  const measures: Measure[] = [];
  const step = async (label: string, work: () => Promise<Measure[]>) => {
    process.stderr.write(`bench: ${label}\n`);
    measures.push(...(await work()));
  };
  await step(`B5, B8: ingest ${workload.label} and store size`, () => storeBenchmarks(dir, db, workload));
  // Every later step needs a render: it writes the served store functions carry.
  await step('B1, B2, B11, B14, B15: the full render, the daily render, the bulk files, seasons and forecast skill', () =>
    renderBenchmarks(root, dir, db, publish, workload),
  );
  if (['B3', 'B4', 'B7', 'B9', 'B10', 'B12', 'B13', 'B14', 'B16'].some(want))
    await step('B3, B4, B7, B9, B10, B12, B13, B14, B16: local HTTP', () => httpBenchmarks(root, dir, db, publish));
  if (['B6', 'B8', 'B18', 'B19'].some(want))
    await step('B6, B8, B18, B19: functions as Netlify bundles them, their shards in Blobs', () => functionBenchmarks(db, dir));

  const machine = machineLine(stolenShare(started, cpuTicks()));
  const lines = [
    `workload: ${workload.label}`,
    `machine: ${machine}`,
    '| id | what | value | baseline | ratio | target | met |',
    '|---|---|---|---|---|---|---|',
    ...measures
      .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }))
      .map(
        (m) =>
          `| ${m.id} | ${m.what} | ${m.value} | ${m.baseline} | ${m.ratio === null ? '-' : `${m.ratio.toFixed(2)}x`} | ${m.target} | ${m.met === null ? '-' : m.met ? 'yes' : 'no'} |`,
      ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  const name = args.values['cities-file'] ? basename(args.values['cities-file'], '.json') : 'latest';
  writeFileSync(
    join(root, 'bench-results', `${name}.json`),
    `${JSON.stringify({ ranAt: new Date().toISOString(), workload: workload.label, machine, measures }, null, 2)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
