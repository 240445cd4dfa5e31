/**
 * B5 (ingest rows/s against a bare insert loop) and B8's store half: bytes per hourly row on disk
 * and deflated (as a function zip holds it), against a naive store with a JSON-text species column.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DAY_MS } from '../../src/domain/dates.js';
import { type IngestSummary, ingest } from '../../src/ingest/ingest.js';
import { type KeepSummary, keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { deflatedSize } from '../../src/render/served-store.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type Measure, mb } from './measure.js';
import type { Workload } from './workload.js';

/** The naive baseline holds this many cities' rows (its rate and bytes per row do not depend on the count). */
const NAIVE_CITIES = 40;
/** Runs of the bare inserts, the best taken. */
const NAIVE_RUNS = 3;

/**
 * The sample provider, with the time it spends making up its answers counted: the bare inserts
 * are timed on rows made beforehand, so the ingest is timed on its own work the same way.
 */
class TimedSample extends SampleProvider {
  seconds = 0;

  override async pollenHistory(...args: Parameters<SampleProvider['pollenHistory']>) {
    const t0 = performance.now();
    const batch = await super.pollenHistory(...args);
    this.seconds += (performance.now() - t0) / 1000;
    return batch;
  }

  override async weatherHistory(...args: Parameters<SampleProvider['weatherHistory']>) {
    const t0 = performance.now();
    const days = await super.weatherHistory(...args);
    this.seconds += (performance.now() - t0) / 1000;
    return days;
  }
}

/** A store filled with a workload, still open, and what its ingest and the forecasts kept did. */
export interface FilledStore {
  store: Store;
  summary: IngestSummary;
  kept: KeepSummary;
  compacted: { before: number; after: number } | undefined;
}

/**
 * Fills a new store at `path` with the workload from the sample provider, as `npm run ingest` does:
 * the ingest, then the forecasts and outlooks kept, then the compaction. Also B2's store of a longer history.
 */
export async function fillStore(path: string, workload: Workload, sample: SampleProvider = new SampleProvider()): Promise<FilledStore> {
  const store = openStore(path);
  store.cities.replace(workload.cities);
  const summary = await ingest({ store, pollen: sample, weather: sample, cities: workload.cities, span: workload.span, concurrency: 1 });
  // As `npm run ingest` does after the ingest (not timed): the sample's past forecasts made again,
  // two a day over the served days, for the render's forecast skill to score (B15).
  const now = (workload.span.to + 1) * DAY_MS;
  const kept = await keepForecasts({ store, providers: [sample], cities: workload.cities, now, serveDays: workload.serveDays });
  const compacted = store.compactIfLoose(); // as `npm run ingest` ends
  return { store, summary, kept, compacted };
}

/**
 * The baseline: the same rows, generated up front, then inserted naively (one prepared statement,
 * one transaction); their seconds and the bytes a row takes, plain and deflated.
 */
async function bareInserts(dir: string, sample: TimedSample, workload: Workload) {
  // The same rows, generated up front, then inserted naively: one prepared statement, one transaction.
  const rows: unknown[][] = [];
  const fetched = new Date().toISOString();
  for (const city of workload.cities.slice(0, NAIVE_CITIES)) {
    const batch = await sample.pollenHistory(city, workload.span);
    for (const h of batch.hours)
      rows.push([city.slug, new Date(h.time).toISOString(), h.tree, h.grass, h.weed, JSON.stringify(h.species), 'sample', fetched]);
  }
  // At its fastest, as every baseline (docs/performance.md): the best of three, each into a new file.
  const naivePath = join(dir, 'naive.db');
  let baselineSeconds = Number.POSITIVE_INFINITY;
  for (let run = 0; run < NAIVE_RUNS; run++) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(naivePath + suffix, { force: true });
    const naive = new Database(naivePath);
    naive.pragma('journal_mode = WAL');
    naive.exec(
      'CREATE TABLE pollen_hour (city TEXT, ts TEXT, tree REAL, grass REAL, weed REAL, species TEXT, source TEXT, fetched_at TEXT, PRIMARY KEY (city, ts))',
    );
    const insert = naive.prepare('INSERT INTO pollen_hour VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const t0 = performance.now();
    naive.transaction(() => {
      for (const r of rows) insert.run(...r);
    })();
    baselineSeconds = Math.min(baselineSeconds, (performance.now() - t0) / 1000);
    naive.pragma('wal_checkpoint(TRUNCATE)');
    naive.pragma('journal_mode = DELETE');
    naive.close();
  }
  const naivePerRow = statSync(naivePath).size / rows.length;
  const naiveDeflatedPerRow = (await deflatedSize(naivePath)) / rows.length;
  return { rows: rows.length, baselineSeconds, naivePerRow, naiveDeflatedPerRow };
}

/** Fills `path` with the workload and measures it. */
export async function storeBenchmarks(dir: string, path: string, workload: Workload): Promise<Measure[]> {
  const sample = new TimedSample();
  const { store, summary, kept, compacted } = await fillStore(path, workload, sample);
  const ingestSeconds = summary.seconds - sample.seconds;
  // The bench's first step: the process's peak so far is the ingest's (with the forecasts kept and the compaction).
  const ingestPeakRss = process.resourceUsage().maxRSS * 1024;
  const hourlyRows = store.checks.counts().hours!;
  const tables = store.checks.tableBytes();
  store.close();
  const dbBytes = statSync(path).size;
  const deflated = await deflatedSize(path);

  const { rows, baselineSeconds, naivePerRow, naiveDeflatedPerRow } = await bareInserts(dir, sample, workload);

  const rate = hourlyRows / ingestSeconds;
  const baseRate = rows / baselineSeconds;
  const perRow = (bytes: number) => `${(bytes / hourlyRows).toFixed(1)} B/hourly row`;
  return [
    {
      id: 'B5',
      what: `ingest ${workload.label} (${hourlyRows} hourly rows written a transaction per provider request; the ${sample.seconds.toFixed(1)} s the sample spent making them up are not counted, as the baseline's rows are made beforehand)`,
      value: `${Math.round(rate)} rows/s (${ingestSeconds.toFixed(1)} s of ${summary.seconds.toFixed(1)} s)`,
      baseline: `${Math.round(baseRate)} rows/s (bare inserts, one transaction, best of ${NAIVE_RUNS})`,
      ratio: baseRate / rate,
      target: '<= 2x',
      met: baseRate / rate <= 2,
    },
    {
      id: 'B5',
      what: 'peak RSS of the process through the ingest, the forecasts kept and the compaction',
      value: mb(ingestPeakRss),
      baseline: '-',
      ratio: null,
      target: '< 1 GB',
      met: ingestPeakRss < 1024 ** 3,
    },
    {
      id: 'B17',
      what: `the sample's past outlooks made again at its first build, once, each from the days before its issue day (${kept.outlooks.madeAgain} outlooks of ${workload.cities.length} cities, and ${kept.outlooks.issued} issued): timed on its own, outside B5`,
      value: `${kept.outlooks.seconds.toFixed(1)} s`,
      baseline: `the ingest: ${summary.seconds.toFixed(1)} s`,
      ratio: kept.outlooks.seconds / summary.seconds,
      target: 'reported',
      met: null,
    },
    {
      id: 'B8',
      what: `store on disk, weather included, as ingest leaves it (${compacted ? `compacted from ${mb(compacted.before)}` : 'compact'}): ${perRow(dbBytes)} (pollen_day ${mb(tables.pollen_day ?? 0)}, weather_day ${mb(tables.weather_day ?? 0)})`,
      value: mb(dbBytes),
      baseline: `${naivePerRow.toFixed(1)} B/hourly row (JSON-text species column)`,
      ratio: dbBytes / hourlyRows / naivePerRow,
      target: 'reported (the functions carry none of it: they read its shards from Netlify Blobs)',
      met: null,
    },
    {
      id: 'B8',
      what: `store deflated at level 6: ${perRow(deflated)}`,
      value: mb(deflated),
      baseline: `${naiveDeflatedPerRow.toFixed(1)} B/hourly row (JSON-text species column)`,
      ratio: deflated / hourlyRows / naiveDeflatedPerRow,
      target: 'reported',
      met: null,
    },
  ];
}
