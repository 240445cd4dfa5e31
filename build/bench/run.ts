/** `npm run bench`: every benchmark, one table, saved as JSON. Exits non-zero only when it cannot run. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { storeBenchmarks, type Measure } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'pollen-bench-'));
try {
  const measures: Measure[] = [...(await storeBenchmarks(dir))];
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const lines = [
    `machine: ${machine}`,
    '| id | what | value | baseline | ratio | target | met |',
    '|---|---|---|---|---|---|---|',
    ...measures.map((m) => `| ${m.id} | ${m.what} | ${m.value} ${m.unit} | ${m.baseline} ${m.unit} | ${m.ratio.toFixed(2)}x | ${m.target} | ${m.met === null ? '-' : m.met ? 'yes' : 'no'} |`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/latest.json', JSON.stringify({ ranAt: new Date().toISOString(), machine, measures }, null, 2) + '\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
