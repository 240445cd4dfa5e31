/**
 * B11: the bulk files against what they replace. Their bytes against the served store and against
 * the gzipped JSON of the same rows; their share of the render; their encoding alone at the
 * writer's rate (the monthly kinds' and the forecast pairs'), against B1's floor (which counts
 * DuckDB's COPY of the same files instead); and the codec, chosen by writing one month's hourly
 * file with each.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { parquetMetadata, parquetRead } from 'hyparquet';
import type { BulkColumn, BulkManifest } from '../../src/deploy-data/bulk-index.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { bulkColumns, type KindFields } from '../../src/output/bulk/columns.js';
import type { Value } from '../../src/output/bulk/field.js';
import { BULK_KINDS, bulkMonths, CITIES_PER_GROUP, type MonthRows, monthRows } from '../../src/output/bulk/months.js';
import { type BulkCodec, CsvSink, ParquetSink, parquetOf, type RowGroup, rowGroupsOf } from '../../src/output/bulk/writers.js';
import { openStore } from '../../src/store/store.js';
import { type Measure, mb, ms } from './measure.js';

/**
 * CPU-seconds (zlib's threads included) to write a kind's Parquet and gzip CSV files as the render
 * does, from its rows already made into the render's row groups: the encoding alone.
 */
async function encodingSeconds(fields: readonly BulkColumn[], groups: readonly RowGroup[]): Promise<number> {
  const before = process.cpuUsage();
  const [parquet, csv] = [new ParquetSink(fields), new CsvSink(fields)];
  for (const group of groups) {
    parquet.group(group);
    await csv.rows(group);
  }
  parquet.finish();
  await csv.finish();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

/** The encoding alone of a month's files of every monthly kind. */
async function monthEncodingSeconds(columns: KindFields, rows: MonthRows): Promise<number> {
  let seconds = 0;
  for (const kind of BULK_KINDS)
    seconds += await encodingSeconds(columns[kind], rowGroupsOf(columns[kind], rows[kind], CITIES_PER_GROUP[kind]));
  return seconds;
}

/** A rendered Parquet file's rows as row groups of the writer's values (dates as day numbers, times as ms), as they were written. */
async function rowGroupsOfFile(path: string): Promise<Array<{ columns: Value[][]; rows: number }>> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(file);
  const groups: Array<{ columns: Value[][]; rows: number }> = [];
  let start = 0;
  for (const g of metadata.row_groups) {
    const rows = Number(g.num_rows);
    const columns: Value[][] = [];
    await parquetRead({
      file,
      metadata,
      rowStart: start,
      rowEnd: start + rows,
      onChunk: () => {},
      onComplete: (data: unknown[][]) => {
        // Column by column, as the writer holds a group.
        const width = data[0]?.length ?? 0;
        for (let c = 0; c < width; c++) columns.push(data.map((row) => toValue(row[c])));
      },
    });
    groups.push({ columns, rows });
    start += rows;
  }
  return groups;
}

/** A value as the writer takes it: an instant as its milliseconds (a DATE's are made a day number by the caller). */
function toValue(v: unknown): Value {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') return Number(v);
  return (v ?? null) as Value;
}

/**
 * The encoding alone, in CPU-seconds with zlib's threads: every month's Parquet and gzip CSV of the
 * monthly kinds written from their rows made beforehand, and of the forecast pairs from their rows
 * as the render wrote them (read back from its Parquet files): what any render that writes these
 * files spends, at the writer's rate (B11; B1's floor counts DuckDB's COPY of them instead).
 */
export async function encodingOfRender(db: string, publish: string): Promise<{ seconds: number; rows: number; months: number }> {
  const store = openStore(servedStorePath(db), { readonly: true });
  let [seconds, rows] = [0, 0];
  let months = 0;
  try {
    const columns = bulkColumns(store);
    for (const month of bulkMonths(store)) {
      const all = monthRows(store, month);
      for (const kind of BULK_KINDS) rows += all[kind].reduce((n, g) => n + g.length, 0);
      seconds += await monthEncodingSeconds(columns, all);
      months++;
    }
  } finally {
    store.close();
  }
  const manifest = JSON.parse(readFileSync(join(realpathSync(publish), 'data', 'bulk', 'index.json'), 'utf8')) as BulkManifest;
  // The pairs files' columns are the render's (a provider's forecast a column for each lead it reaches): its manifest says them.
  const pairColumns = manifest.kinds['forecast-pairs'].columns;
  for (const f of manifest.files.filter((x) => x.kind === 'forecast-pairs' && x.format === 'parquet')) {
    const groups = await rowGroupsOfFile(join(realpathSync(publish), f.path));
    const dates = pairColumns.flatMap((field, c) => (field.type === 'DATE' ? [c] : []));
    for (const g of groups)
      for (const c of dates) g.columns[c] = g.columns[c]!.map((v) => (typeof v === 'number' ? Math.floor(v / 86_400_000) : v));
    rows += groups.reduce((n, g) => n + g.rows, 0);
    seconds += await encodingSeconds(pairColumns, groups);
  }
  return { seconds, rows, months };
}

/** Medians of B1's renders: its wall time, and the thread-seconds its units and its bulk files took; and B1's floor. */
export async function bulkBenchmarks(
  db: string,
  publish: string,
  renderSeconds: number,
  unitSeconds: number,
  bulkSeconds: number,
  floor: { seconds: number; encoding: { seconds: number; rows: number; months: number } },
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
    for (const month of months) {
      const all = monthRows(store, month);
      for (const kind of BULK_KINDS) {
        const groups = all[kind];
        rows += groups.reduce((n, g) => n + g.length, 0);
        jsonGzip += gzipSync(JSON.stringify(groups.flat()), { level: constants.Z_DEFAULT_COMPRESSION }).length;
      }
    }
    const cores = availableParallelism();
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
        what: `the bulk and forecast-pairs files' encoding alone: every month's Parquet and gzip CSV written from its rows made beforehand, in CPU-seconds, zlib's threads included (${floor.encoding.rows} rows, ${floor.encoding.months} months); B1's floor counts DuckDB's COPY of the same files instead`,
        value: `${floor.encoding.seconds.toFixed(1)} CPU-s`,
        baseline: `B1's floor: ${floor.seconds.toFixed(2)} s (the whole render may take twice it, on ${cores} cores)`,
        ratio: floor.encoding.seconds / floor.seconds,
        target: 'reported',
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
