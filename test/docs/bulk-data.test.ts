/**
 * The "Bulk data" examples of docs/data.md, run as written: the DuckDB SQL on downloaded files, the
 * pandas lines against the local server (with Debian's python3-pandas, where it is installed).
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import type { BulkManifest } from '../../src/served/bulk-index.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const DEPLOYMENT = 'https://your-site.netlify.app';
const CITIES = ['austin', 'tulsa'];

/** The code blocks of a language in the "Bulk data" section of docs/data.md. */
function examples(language: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'data.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Bulk data\n'), doc.indexOf('\n## ', doc.indexOf('\n## Bulk data\n') + 1));
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/** A python3 that imports pandas: Debian's first (python3-pandas), then the one on PATH. */
function pythonWithPandas(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
}
const PYTHON = pythonWithPandas();
if (!PYTHON) console.warn('the pandas example of docs/data.md is skipped: no python3 imports pandas (apt-get install python3-pandas)');

describe('the bulk data examples of docs/data.md', () => {
  const site = useSite({ cities: CITIES, span: { from: dayNumber('2025-01-01'), to: dayNumber('2025-12-31') } });
  let manifest: BulkManifest;
  const api = async (path: string) => (await (await site.get(path)).json()) as Json;
  /** Each city's days of 2025 with data, and its highest peak_tree, as the JSON API gives its daily rows. */
  const yearOf = async (city: string) => ((await api(`/api/pollen?city=${city}`)).rows as Json[]).filter((r) => r.date.startsWith('2025-'));
  const worstTree = async () =>
    Object.fromEntries(await Promise.all(CITIES.map(async (c) => [c, Math.max(...(await yearOf(c)).map((r) => r.peak_tree))])));
  const days = async () => Promise.all(CITIES.map(async (c) => (await yearOf(c)).length));

  beforeAll(async () => {
    manifest = (await api('/data/bulk/index.json')) as BulkManifest;
  });

  it('runs the DuckDB SQL on downloaded files: a month of one city, and a whole year', async () => {
    const [sql] = examples('sql');
    expect(sql).toContain(`${DEPLOYMENT}/data/bulk/`);
    const local = mkdtempSync(join(tmpdir(), 'pollen-bulk-docs-'));
    for (const f of manifest.files.filter((x) => x.format === 'parquet'))
      writeFileSync(join(local, f.path.split('/').at(-1)!), Buffer.from(await (await fetch(site.server.url + f.path)).arrayBuffer()));
    const duck = await DuckDBInstance.create(':memory:');
    const con = await duck.connect();
    try {
      const [month, year] = sql!
        .replaceAll(`${DEPLOYMENT}/data/bulk/`, `${local}/`)
        .split(';\n')
        .filter((s) => s.trim());
      const hours = (await con.runAndReadAll(month!)).getRowObjectsJS() as Json[];
      const api30 = (await api('/api/pollen-range?from=2025-04-01&to=2025-05-01&city=austin&limit=50000')).rows as Json[];
      expect(hours.map((h) => [(h.ts as Date).toISOString(), h.tree, h.grass, h.weed, h.risk_tree])).toEqual(
        api30.map((r) => [r.periodStart, r.tree, r.grass, r.weed, r.risk_tree]),
      );
      const perCity = (await con.runAndReadAll(year!)).getRowObjectsJS() as Json[];
      const worst = await worstTree();
      const counts = await days();
      expect(Math.min(...counts)).toBeGreaterThan(360);
      expect(perCity.map((r) => [r.city, Number(r.days), r.worst_tree])).toEqual(CITIES.map((c, i) => [c, counts[i], worst[c]]));
    } finally {
      con.closeSync();
      duck.closeSync();
    }
  });

  it.skipIf(!PYTHON)('runs the pandas lines against the local server', async () => {
    const python = examples('python').find((code) => code.includes('import pandas'));
    expect(python).toBeDefined();
    // Not execFileSync: the local server answering pandas runs in this process.
    const { stdout: out } = await promisify(execFile)(PYTHON!, ['-c', python!.replaceAll(DEPLOYMENT, site.server.url)], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const [counts, dict] = out
      .trim()
      .split('\n')
      .slice(-1)[0]!
      .split(/ (?=\{)/);
    const april = await Promise.all(CITIES.map(async (c) => (await yearOf(c)).filter((r) => r.date.startsWith('2025-04')).length));
    expect(counts!.split(' ').map(Number)).toEqual([april[0]! + april[1]!, (await days()).reduce((a, b) => a + b)]);
    const worst = await worstTree();
    const printed = Object.fromEntries([...dict!.matchAll(/'([a-z-]+)': (?:np\.float64\()?([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]));
    expect(printed).toEqual(worst);
  });
});
