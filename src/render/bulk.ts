/**
 * The bulk files: every month of the served store as Parquet and as gzip CSV under /data/bulk/,
 * and their manifest. The rows are the API's own (`hourlyRow`, the daily rows of the stored day
 * values, and the weather row), so a file agrees value for value with /api/pollen-range,
 * /api/pollen and /api/weather. Rows are sorted by city and time, in row groups of a few cities,
 * so that a reader over HTTP fetches the footer and one group, not the file. Each month's files
 * record a digest of what they are made from, so that a render given the previous build's files
 * reuses the months that did not change (inputs.ts, render-cache.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DATA_PREFIX } from '../api/forms.js';
import { DAY_MS, dayString, HOUR_MS } from '../domain/dates.js';
import { dailyRowOf } from '../domain/day-values.js';
import { hourlyRow } from '../domain/pollen-rows.js';
import type { BulkFile, BulkFormat, BulkKind, BulkManifest } from '../served/bulk-index.js';
import type { Store } from '../store/store.js';
import { bulkColumns, type Field, KIND_MEANING } from './bulk-columns.js';
import { Batch, CsvSink, ParquetSink } from './bulk-writers.js';

export const BULK_DIR = `${DATA_PREFIX}/bulk`;
export const BULK_KINDS: readonly BulkKind[] = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
export const FORMATS: readonly BulkFormat[] = ['parquet', 'csv.gz'];

/**
 * What the files' bytes depend on besides the data: this writer (bump it when its output
 * changes) and the Parquet library's version.
 */
export const WRITER = `pollen-api bulk 2; hyparquet-writer ${packageVersion('hyparquet-writer')}`;

/** The version of an installed package, from the package.json above its entry point (its exports hide the file). */
function packageVersion(name: string): string {
  for (let dir = dirname(createRequire(import.meta.url).resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === name && pkg.version) return pkg.version;
  }
  throw new Error(`no package.json found for ${name}`);
}

export interface Month {
  /** YYYY-MM. */
  month: string;
  /** First and last UTC day of the month within the store. */
  from: number;
  to: number;
}

/** The months the served store's days touch, the first and last perhaps partial. */
export function bulkMonths(store: Store): Month[] {
  const days = [...store.pollen.daysWithData(), ...store.weather.days()];
  if (days.length === 0) return [];
  const [first, last] = [Math.min(...days), Math.max(...days)];
  const months: Month[] = [];
  for (let day = first; day <= last; ) {
    const start = new Date(day * DAY_MS);
    const next = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) / DAY_MS;
    months.push({ month: dayString(day).slice(0, 7), from: day, to: Math.min(last, next - 1) });
    day = next;
  }
  return months;
}

/** Files the bulk step writes for these months: each month's three kinds in two formats, and the manifest. */
export const bulkFileCount = (months: readonly Month[]): number => months.length * BULK_KINDS.length * FORMATS.length + 1;

/** The file of a month's kind in a format, under the publish folder. */
export const bulkPath = (kind: BulkKind, month: string, format: BulkFormat): string => `${BULK_DIR}/${kind}-${month}.${format}`;

/** Rows of a month, each kind's city by city (slugs in byte order), in time order. */
export type MonthRows = Record<BulkKind, Array<Array<Record<string, unknown>>>>;

type Row = Record<string, unknown>;

/** One city's rows of a month, each kind in time order: the API's rows, with the city and typed times. */
function cityRows(store: Store, city: string, month: Month): Record<BulkKind, Row[]> {
  const hourly = store.pollen.hours(city, month.from * 24, (month.to + 1) * 24).map((h) => {
    const row: Row = hourlyRow(h);
    row.city = city;
    row.ts = new Date(h.hour * HOUR_MS);
    return row;
  });
  const daily = [...store.values.span(city, 'UTC', month.from, month.to).values()].map((v) => {
    const row: Row = dailyRowOf(v);
    row.city = city;
    row.date = v.day;
    return row;
  });
  const weather = store.weather
    .span(city, month.from, month.to)
    .map((w): Row => ({ city, date: w.day, ...w.values, source: w.source, created_at: new Date(w.fetchedAt) }));
  return { 'pollen-hourly': hourly, 'pollen-daily': daily, 'weather-daily': weather };
}

/** Every kind's rows of one month, city by city (slugs in byte order): all at once, for the bench. */
export function monthRows(store: Store, month: Month): MonthRows {
  const rows: MonthRows = { 'pollen-hourly': [], 'pollen-daily': [], 'weather-daily': [] };
  for (const city of store.cities.set().slugs) {
    const one = cityRows(store, city, month);
    for (const kind of BULK_KINDS) rows[kind].push(one[kind]);
  }
  return rows;
}

/**
 * Cities per row group. Hourly: four cities' month (about 3,000 rows, 20 to 30 kB), so that a
 * reader of one city fetches that much after the footer, and the footer (metadata per group and
 * column) stays a quarter of what a group per city makes it. Daily rows are 24 times fewer: a
 * group of a hundred cities is about as large.
 */
export const CITIES_PER_GROUP: Record<BulkKind, number> = { 'pollen-hourly': 4, 'pollen-daily': 100, 'weather-daily': 100 };

/**
 * Writes one month's files (three kinds in two formats) with `put`, and says what each holds.
 * Rows are made a city at a time and leave memory with their row group.
 */
export async function writeBulkMonth(
  store: Store,
  month: Month,
  put: (file: string, body: Uint8Array) => void,
  inputs: string,
): Promise<BulkFile[]> {
  const columns = bulkColumns(store);
  const sinks = BULK_KINDS.map((kind) => ({
    kind,
    fields: columns[kind] as readonly Field[],
    parquet: new ParquetSink(columns[kind]),
    csv: new CsvSink(columns[kind]),
    batch: new Batch(columns[kind]),
    cities: 0,
  }));
  const flush = async (sink: (typeof sinks)[number]) => {
    sink.parquet.group(sink.batch);
    await sink.csv.rows(sink.batch);
    sink.batch = new Batch(sink.fields);
    sink.cities = 0;
  };
  for (const city of store.cities.set().slugs) {
    const rows = cityRows(store, city, month);
    for (const sink of sinks) {
      if (rows[sink.kind].length === 0) continue;
      for (const row of rows[sink.kind]) sink.batch.add(row);
      if (++sink.cities === CITIES_PER_GROUP[sink.kind]) await flush(sink);
    }
  }
  const files: BulkFile[] = [];
  for (const sink of sinks) {
    await flush(sink);
    const bodies: Record<BulkFormat, Uint8Array> = { parquet: sink.parquet.finish(), 'csv.gz': await sink.csv.finish() };
    for (const format of FORMATS) {
      const path = bulkPath(sink.kind, month.month, format);
      const bytes = bodies[format];
      files.push({
        path: `/${path}`,
        kind: sink.kind,
        format,
        month: month.month,
        rows: sink.parquet.rows,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        inputs_sha256: inputs,
        columns: sink.fields.map((f) => f.name),
      });
      put(path, bytes);
    }
  }
  return files;
}

/**
 * The manifest of the files written for the store's months (`bulkMonths`, whose first and last
 * days are the store's), in month order whatever order they were written in.
 */
export function bulkManifest(store: Store, months: readonly Month[], files: readonly BulkFile[]): BulkManifest {
  const columns = bulkColumns(store);
  const kinds = Object.fromEntries(
    BULK_KINDS.map((k) => [k, { description: KIND_MEANING[k], columns: columns[k].map(({ value: _v, ...column }) => column) }]),
  ) as BulkManifest['kinds'];
  const order = (f: BulkFile) => `${f.month}|${BULK_KINDS.indexOf(f.kind)}|${FORMATS.indexOf(f.format)}`;
  const [first, last] = [months[0], months.at(-1)];
  return {
    from: first ? dayString(first.from) : null,
    to: last ? dayString(last.to) : null,
    kinds,
    files: [...files].sort((a, b) => (order(a) < order(b) ? -1 : 1)),
  };
}

/** The manifest's file under the publish folder. */
export const BULK_INDEX_FILE = `${BULK_DIR}/index.json`;
