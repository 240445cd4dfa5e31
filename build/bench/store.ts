/**
 * B5 (ingest rows/s against a bare insert loop) and B8's database half (store size against a
 * naive JSON-text species column), on the same generated rows.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CITIES } from '../../src/domain/cities.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { mb, type Measure } from './measure.js';
import { BENCH_SPAN } from './workload.js';

/** Fills `path` with the workload and measures it. */
export async function storeBenchmarks(dir: string, path: string): Promise<Measure[]> {
  const sample = new SampleProvider();
  const store = openStore(path);
  const summary = await ingest({ store, pollen: sample, weather: sample, cities: CITIES, span: BENCH_SPAN, concurrency: 1 });
  const hourlyRows = store.counts().pollen_hour!;
  const tables = store.tableBytes();
  store.close();
  const dbBytes = statSync(path).size;

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
  naive.exec('CREATE TABLE pollen_hour (city TEXT, ts TEXT, tree REAL, grass REAL, weed REAL, species TEXT, source TEXT, fetched_at TEXT, PRIMARY KEY (city, ts))');
  const insert = naive.prepare('INSERT INTO pollen_hour VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const t0 = performance.now();
  naive.transaction(() => {
    for (const r of rows) insert.run(...r);
  })();
  const baselineSeconds = (performance.now() - t0) / 1000;
  naive.pragma('wal_checkpoint(TRUNCATE)');
  naive.pragma('journal_mode = DELETE');
  naive.close();
  const naiveBytes = statSync(naivePath).size;

  const rate = hourlyRows / summary.seconds;
  const baseRate = rows.length / baselineSeconds;
  return [
    {
      id: 'B5',
      what: `ingest ${CITIES.length} cities x ${BENCH_SPAN.to - BENCH_SPAN.from + 1} days (${hourlyRows} hourly rows, simulated and written one city-day per transaction)`,
      value: `${Math.round(rate)} rows/s (${summary.seconds.toFixed(1)} s)`,
      baseline: `${Math.round(baseRate)} rows/s (bare inserts, one transaction)`,
      ratio: baseRate / rate,
      target: '<= 1.5x',
      met: baseRate / rate <= 1.5,
    },
    {
      id: 'B8',
      what: `database: ${(dbBytes / hourlyRows).toFixed(1)} B per hourly row in all, ${((tables.pollen_hour ?? 0) / hourlyRows).toFixed(1)} in pollen_hour`,
      value: mb(dbBytes),
      baseline: `${mb(naiveBytes)} (JSON-text species column)`,
      ratio: dbBytes / naiveBytes,
      target: '<= 60 MB',
      met: dbBytes <= 60 * 1024 * 1024,
    },
  ];
}
