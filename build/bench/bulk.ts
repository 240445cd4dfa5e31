/**
 * B11: the bulk files against what they replace. Their bytes against the served store and against
 * the gzipped JSON of the same rows; their share of the render; their encoding alone against what
 * B1's target leaves the whole render; and the codec, chosen by writing one month's hourly file
 * with each.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { bulkMonths, BULK_KINDS, CITIES_PER_GROUP, type MonthRows, monthRows } from '../../src/render/bulk.js';
import { bulkColumns, type KindFields } from '../../src/render/bulk-columns.js';
import { type BulkCodec, CsvSink, ParquetSink, parquetOf, rowGroupsOf } from '../../src/render/bulk-writers.js';
import type { BulkManifest } from '../../src/served/bulk-index.js';
import { servedStorePath } from '../../src/served/site-file.js';
import { openStore } from '../../src/store/store.js';
import { mb, ms, type Measure } from './measure.js';

/**
 * CPU-seconds (zlib's threads included) to write a month's Parquet and gzip CSV files as the render
 * does, from its rows already made into the render's row groups: the encoding alone.
 */
async function encodingSeconds(columns: KindFields, rows: MonthRows): Promise<number> {
  const kinds = BULK_KINDS.map((kind) => ({ kind, groups: rowGroupsOf(columns[kind], rows[kind], CITIES_PER_GROUP[kind]) }));
  const before = process.cpuUsage();
  for (const { kind, groups } of kinds) {
    const [parquet, csv] = [new ParquetSink(columns[kind]), new CsvSink(columns[kind])];
    for (const group of groups) {
      parquet.group(group);
      await csv.rows(group);
    }
    parquet.finish();
    await csv.finish();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** Medians of B1's renders: its wall time, and the thread-seconds its units and its bulk files took; and B1's floor. */
export async function bulkBenchmarks(
  db: string,
  publish: string,
  renderSeconds: number,
  unitSeconds: number,
  bulkSeconds: number,
  floorSeconds: number,
): Promise<Measure[]> {
  const manifest = JSON.parse(readFileSync(join(realpathSync(publish), 'data', 'bulk', 'index.json'), 'utf8')) as BulkManifest;
  const total = (format: string) => manifest.files.filter((f) => f.format === format).reduce((n, f) => n + f.bytes, 0);
  const servedPath = servedStorePath(db);
  const store = openStore(servedPath, { readonly: true });
  try {
    const columns = bulkColumns(store);
    const months = bulkMonths(store);
    // The same rows as JSON (as the API writes them), gzipped at level 6, one month and kind at a time.
    let jsonGzip = 0;
    let rows = 0;
    let encoding = 0;
    for (const month of months) {
      const all = monthRows(store, month);
      for (const kind of BULK_KINDS) {
        const groups = all[kind];
        rows += groups.reduce((n, g) => n + g.length, 0);
        jsonGzip += gzipSync(JSON.stringify(groups.flat()), { level: constants.Z_DEFAULT_COMPRESSION }).length;
      }
      encoding += await encodingSeconds(columns, all);
    }
    // B1's target (at most twice its floor) gives the whole render this many CPU-seconds on every core.
    const cores = availableParallelism();
    const budget = 2 * floorSeconds * cores;
    // The codec: the newest whole month's hourly file written with each.
    const month = months.length > 2 ? months.at(-2)! : months.at(-1)!;
    const groups = monthRows(store, month)['pollen-hourly'];
    const codecs = (['SNAPPY', 'GZIP', 'UNCOMPRESSED'] as BulkCodec[]).map((codec) => {
      const t0 = performance.now();
      const bytes = parquetOf(columns['pollen-hourly'], groups, CITIES_PER_GROUP['pollen-hourly'], codec).length;
      return { codec, bytes, ms: performance.now() - t0 };
    });
    const [snappy, gzip, plain] = codecs as [(typeof codecs)[0], (typeof codecs)[0], (typeof codecs)[0]];
    const parquet = total('parquet');
    return [
      {
        id: 'B11',
        what: `bulk files: ${manifest.files.length} files for ${months.length} months (${rows} rows), Parquet ${mb(parquet)} + gzip CSV ${mb(total('csv.gz'))}; Parquet bytes`,
        value: mb(parquet),
        baseline: `the served store ${mb(statSync(servedPath).size)}; the same rows as gzipped JSON ${mb(jsonGzip)}`,
        ratio: parquet / jsonGzip,
        target: 'reported (against the gzipped JSON)',
        met: null,
      },
      {
        id: 'B11',
        what: `bulk files' share of the render's work, in thread-seconds summed over its workers (median of B1's 3; the render took ${renderSeconds.toFixed(1)} s)`,
        value: `${bulkSeconds.toFixed(1)} s`,
        baseline: `${(unitSeconds + bulkSeconds).toFixed(1)} s (the units' files and the bulk files)`,
        ratio: bulkSeconds / (unitSeconds + bulkSeconds),
        target: 'reported',
        met: null,
      },
      {
        id: 'B11',
        what: `the bulk files' encoding alone: every month's Parquet and gzip CSV written from its rows made beforehand, in CPU-seconds, zlib's threads included (${rows} rows, ${months.length} months)`,
        value: `${encoding.toFixed(1)} CPU-s`,
        baseline: `what B1's target leaves the whole render: twice its floor (${floorSeconds.toFixed(2)} s) on ${cores} cores, ${budget.toFixed(1)} CPU-s`,
        ratio: encoding / budget,
        target: 'reported (at 1x or more, no render that writes these files meets B1)',
        met: null,
      },
      {
        id: 'B11',
        what: `codec of ${month.month}'s pollen-hourly file (${groups.flat().length} rows): Snappy ${mb(snappy.bytes)} in ${ms(snappy.ms)}, gzip ${mb(gzip.bytes)} in ${ms(gzip.ms)}, none ${mb(plain.bytes)} in ${ms(plain.ms)}`,
        value: `Snappy ${mb(snappy.bytes)}`,
        baseline: `gzip ${mb(gzip.bytes)}`,
        ratio: snappy.bytes / gzip.bytes,
        target: 'reported (the files use Snappy)',
        met: null,
      },
    ];
  } finally {
    store.close();
  }
}
