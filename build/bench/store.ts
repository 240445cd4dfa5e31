/**
 * B5 (ingest rows/s against a bare insert loop) and B8 (store size against a naive JSON-text
 * species column), on the same generated rows.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CITIES } from '../../src/domain/cities.js';
import { dayString } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { BENCH_SPAN } from './workload.js';

export interface Measure {
  id: string;
  what: string;
  value: number;
  unit: string;
  baseline: number;
  ratio: number;
  target: string;
  met: boolean | null;
}

const fileBytes = (path: string) => statSync(path).size;

/** Runs B5 and B8 in `dir`. */
export async function storeBenchmarks(dir: string): Promise<Measure[]> {
  const sample = new SampleProvider();
  const path = join(dir, 'bench.db');
  const store = openStore(path);
  const summary = await ingest({ store, pollen: sample, weather: sample, cities: CITIES, span: BENCH_SPAN, concurrency: 1 });
  const hourlyRows = store.counts().pollen_hour!;
  const tables = store.tableBytes();
  store.close();
  const dbBytes = fileBytes(path);

  // The same rows, generated up front, then inserted naively: one prepared statement, one transaction.
  const rows: unknown[][] = [];
  const fetched = new Date().toISOString();
  for (const city of CITIES) {
    const batch = await sample.pollenHistory(city, BENCH_SPAN);
    for (const h of batch.hours) rows.push([city.slug, new Date(h.time).toISOString(), h.tree, h.grass, h.weed, JSON.stringify(h.species), 'sample', fetched]);
  }
  const naivePath = join(dir, 'naive.db');
  const naive = new Database(naivePath);
  naive.pragma('journal_mode = WAL');
  naive.exec(`CREATE TABLE pollen_hour (city TEXT, ts TEXT, tree REAL, grass REAL, weed REAL, species TEXT, source TEXT, fetched_at TEXT, PRIMARY KEY (city, ts))`);
  const insert = naive.prepare('INSERT INTO pollen_hour VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const t0 = performance.now();
  naive.transaction(() => {
    for (const r of rows) insert.run(...r);
  })();
  const baselineSeconds = (performance.now() - t0) / 1000;
  naive.pragma('wal_checkpoint(TRUNCATE)');
  naive.pragma('journal_mode = DELETE');
  naive.close();
  const naiveBytes = fileBytes(naivePath);

  const ingestRate = hourlyRows / summary.seconds;
  const baselineRate = rows.length / baselineSeconds;
  return [
    {
      id: 'B5',
      what: `ingest ${CITIES.length} cities x ${BENCH_SPAN.to - BENCH_SPAN.from + 1} days (${dayString(BENCH_SPAN.from)}..${dayString(BENCH_SPAN.to)}), hourly rows/s`,
      value: Math.round(ingestRate),
      unit: 'rows/s',
      baseline: Math.round(baselineRate),
      ratio: baselineRate / ingestRate,
      target: '<= 1.5x',
      met: baselineRate / ingestRate <= 1.5,
    },
    {
      id: 'B8',
      what: `store for ${CITIES.length} cities x 730 days: ${hourlyRows} hourly rows, ${(dbBytes / hourlyRows).toFixed(1)} B/row in all, ${((tables.pollen_hour ?? 0) / hourlyRows).toFixed(1)} B/row in pollen_hour`,
      value: dbBytes,
      unit: 'bytes',
      baseline: naiveBytes,
      ratio: dbBytes / naiveBytes,
      target: '<= 60 MB',
      met: dbBytes <= 60 * 1024 * 1024,
    },
  ];
}
