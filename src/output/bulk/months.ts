/**
 * The bulk files: every month of the served store as Parquet and as gzip CSV under /data/bulk/,
 * and their manifest. The rows are the API's own (`hourlyRow`, the daily rows of the stored day
 * values, and the weather row), so a file agrees value for value with /api/pollen-range,
 * /api/pollen and /api/weather. Rows are sorted by city and time, in row groups of a few cities,
 * so that a reader over HTTP fetches the footer and one group, not the file. Each month's files
 * record a digest of what they are made from, so that a render given the previous build's files
 * reuses the months that did not change (input-digests.ts, render-cache.ts).
 */

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DATA_PREFIX } from '../../api/contract/static-forms.js';
import type { BulkFile, BulkFormat, BulkKind, BulkManifest } from '../../deploy-data/bulk-index.js';
import { civilDate, dayNumber, dayOfDate, dayString, HOUR_MS } from '../../domain/dates.js';
import { dailyRowOf } from '../../domain/day-values.js';
import { hourlyRow } from '../../domain/pollen-rows.js';
import { rowProvenanceOf } from '../../domain/provenance.js';
import type { CategorySeason } from '../../domain/schemas.js';
import { seasonsByYear } from '../../domain/seasons/city-seasons.js';
import { seasonCategories } from '../../domain/seasons/year.js';
import { allDailyRows } from '../../store/daily-rows.js';
import type { Store } from '../../store/store.js';
import { bulkColumns, type Field, KIND_MEANING, type KindFields } from './columns.js';
import { Batch, CsvSink, ParquetSink, type RowGroup } from './writers.js';

export const BULK_DIR = `${DATA_PREFIX}/bulk`;
/** The kinds written month by month; the seasons file holds every year. */
export type MonthlyKind = Exclude<BulkKind, 'seasons' | 'forecast-pairs'>;
export const BULK_KINDS: readonly MonthlyKind[] = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
export const FORMATS: readonly BulkFormat[] = ['parquet', 'csv.gz'];

/**
 * What the files' bytes depend on besides the data: this writer (bump it when its output
 * changes) and the Parquet library's version.
 */
export const WRITER = `pollen-api bulk 4; hyparquet-writer ${packageVersion('hyparquet-writer')}`;

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
    const [year, month] = civilDate(day);
    const next = month === 12 ? dayOfDate(year + 1, 1, 1) : dayOfDate(year, month + 1, 1);
    months.push({ month: dayString(day).slice(0, 7), from: day, to: Math.min(last, next - 1) });
    day = next;
  }
  return months;
}

/** Files the bulk step writes for these months: each month's three kinds in two formats, the seasons file in both, and the manifest. */
export const bulkFileCount = (months: readonly Month[]): number =>
  months.length * BULK_KINDS.length * FORMATS.length + (months.length > 0 ? FORMATS.length : 0) + 1;

/** A file of a kind that holds every year in one (no month): the seasons, the forecast pairs. */
export const wholePath = (kind: BulkKind, format: BulkFormat): string => `${BULK_DIR}/${kind}.${format}`;
/** The seasons file in a format, under the publish folder. */
export const seasonsPath = (format: BulkFormat): string => wholePath('seasons', format);

/** The file of a month's kind (the forecast pairs' too) in a format, under the publish folder. */
export const bulkPath = (kind: MonthlyKind | 'forecast-pairs', month: string, format: BulkFormat): string =>
  `${BULK_DIR}/${kind}-${month}.${format}`;

/** Rows of a month, each kind's city by city (slugs in byte order), in time order. */
export type MonthRows = Record<MonthlyKind, Array<Array<Record<string, unknown>>>>;

export type Row = Record<string, unknown>;

/** One city's rows of a month, each kind in time order: the API's rows, with the city and typed times. */
function cityRows(store: Store, city: string, month: Month): Record<MonthlyKind, Row[]> {
  // Past the store's cache of days: a month reads each city-day once, and one query a city is cheaper than one a day.
  const hourly: Row[] = [];
  for (const h of store.pollen.iterateHours(city, month.from * 24, (month.to + 1) * 24)) {
    const row: Row = hourlyRow(h);
    row.city = city;
    row.ts = h.hour * HOUR_MS;
    row.provider = h.source;
    hourly.push(row);
  }
  const daily = [...store.values.span(city, 'UTC', month.from, month.to).values()].map((v) => {
    const row: Row = dailyRowOf(v);
    row.city = city;
    row.date = v.day;
    // A UTC day is one stored row: one provider.
    row.provider = v.source;
    return row;
  });
  const weather = store.weather
    .span(city, month.from, month.to)
    .map((w): Row => ({ city, date: w.day, ...w.values, source: w.source, created_at: w.fetchedAt }));
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
export const CITIES_PER_GROUP: Record<MonthlyKind, number> = { 'pollen-hourly': 4, 'pollen-daily': 100, 'weather-daily': 100 };

/** A kind's Parquet file and its CSV twin, written a row group of `perGroup` cities at a time. */
export class KindFiles<R = Row> {
  private batch: Batch<R>;
  private cities = 0;
  private readonly parquet: ParquetSink;
  private readonly csv: CsvSink;

  constructor(
    readonly kind: BulkKind,
    private readonly fields: readonly Field<R>[],
    private readonly perGroup: number,
  ) {
    [this.parquet, this.csv, this.batch] = [new ParquetSink(fields), new CsvSink(fields), new Batch(fields)];
  }

  add(row: R): void {
    this.batch.add(row);
  }

  /** Adds rows already made into columns (a city's, made in another thread). */
  addGroup(group: RowGroup): void {
    this.batch.append(group);
  }

  /** Ends a city's rows: the row group is written once it holds `perGroup` cities (awaited before the next city's rows). */
  async cityDone(): Promise<void> {
    if (++this.cities === this.perGroup) await this.flush();
  }

  private async flush(): Promise<void> {
    const batch = this.batch;
    [this.batch, this.cities] = [new Batch(this.fields), 0];
    this.parquet.group(batch);
    await this.csv.rows(batch);
  }

  /**
   * Puts both files (a month's, or with `month` null the kind's file of every year) and says what
   * each holds; `inputs` is their inputs' digest, or made from the Parquet bytes.
   */
  async finish(
    month: string | null,
    put: (file: string, body: Uint8Array) => void,
    inputs: string | ((parquet: Uint8Array) => string),
  ): Promise<BulkFile[]> {
    await this.flush();
    const bodies: Record<BulkFormat, Uint8Array> = { parquet: this.parquet.finish(), 'csv.gz': await this.csv.finish() };
    const inputsSha256 = typeof inputs === 'string' ? inputs : inputs(bodies.parquet);
    return FORMATS.map((format) => {
      const path = month === null ? wholePath(this.kind, format) : bulkPath(this.kind as MonthlyKind | 'forecast-pairs', month, format);
      const bytes = bodies[format];
      put(path, bytes);
      return {
        path: `/${path}`,
        kind: this.kind,
        format,
        month,
        rows: this.parquet.rows,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        inputs_sha256: inputsSha256,
        columns: this.fields.map((f) => f.name),
        // What the rows say of their providers, as a row of several would (none for files without a provider column).
        ...(this.parquet.providers ? rowProvenanceOf([...this.parquet.providers]) : {}),
      };
    });
  }
}

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
  const kinds = BULK_KINDS.map((kind) => new KindFiles(kind, columns[kind], CITIES_PER_GROUP[kind]));
  for (const city of store.cities.set().slugs) {
    const rows = cityRows(store, city, month);
    for (const files of kinds) {
      const mine = rows[files.kind as MonthlyKind];
      if (mine.length === 0) continue;
      for (const row of mine) files.add(row);
      await files.cityDone();
    }
  }
  const written: BulkFile[] = [];
  for (const files of kinds) written.push(...(await files.finish(month.month, put, inputs)));
  return written;
}

/**
 * The manifest of the files written for the store's months (`bulkMonths`, whose first and last
 * days are the store's), in month order whatever order they were written in.
 */
export function bulkManifest(
  store: Store,
  months: readonly Month[],
  files: readonly BulkFile[],
  pairs: KindFields['forecast-pairs'] = bulkColumns(store)['forecast-pairs'],
): BulkManifest {
  const columns = { ...bulkColumns(store), 'forecast-pairs': pairs };
  const kinds = Object.fromEntries(
    [...BULK_KINDS, 'seasons' as const, 'forecast-pairs' as const].map((k) => [
      k,
      { description: KIND_MEANING[k], columns: columns[k].map(({ value: _v, ...column }) => column) },
    ]),
  ) as BulkManifest['kinds'];
  // Months in order, each kind and format in order; the seasons and forecast-pairs files last.
  const order = (f: BulkFile) =>
    `${f.month ?? '9999-99'}|${[...BULK_KINDS, 'seasons', 'forecast-pairs'].indexOf(f.kind)}|${FORMATS.indexOf(f.format)}`;
  const [first, last] = [months[0], months.at(-1)];
  return {
    from: first ? dayString(first.from) : null,
    to: last ? dayString(last.to) : null,
    kinds,
    files: [...files].sort((a, b) => (order(a) < order(b) ? -1 : 1)),
  };
}

/** A season of the seasons file: the city, the year, and the answer's fields, dates as day numbers. */
function seasonRow(city: string, year: number, c: CategorySeason): Row {
  const day = (date: string | null | undefined) => (date ? dayNumber(date) : null);
  const risk = c.season?.risk_days;
  return {
    city,
    year,
    category: c.category,
    from: day(c.from),
    to: day(c.to),
    days_with_data: c.days_with_data,
    closed: c.closed,
    complete: c.complete,
    through: day(c.through),
    apin: c.apin,
    basis: c.basis,
    start: day(c.season?.start),
    end: day(c.season?.end),
    season_days: c.season?.days ?? null,
    peak_date: day(c.season?.peak_date),
    peak_value: c.season?.peak_value ?? null,
    spin: c.season?.spin ?? null,
    days_none: risk?.None ?? null,
    days_low: risk?.Low ?? null,
    days_moderate: risk?.Moderate ?? null,
    days_high: risk?.High ?? null,
    days_very_high: risk?.['Very High'] ?? null,
    reason: c.reason,
    status: c.status.state,
    status_start: day(c.status.start),
    status_end: day(c.status.end),
  };
}

/** Cities per row group of the seasons file: about 5,000 rows (every year and category of each city). */
const SEASON_CITIES_PER_GROUP = 100;

/**
 * Writes the seasons file (Parquet and gzip CSV) with `put`: every served city's seasons in every
 * year held, on UTC days, by slug, year and category; says what each file holds.
 */
export async function writeSeasonsFiles(store: Store, put: (file: string, body: Uint8Array) => void, inputs: string): Promise<BulkFile[]> {
  const files = new KindFiles('seasons', bulkColumns(store).seasons, SEASON_CITIES_PER_GROUP);
  const categories = seasonCategories(store.shapes.all());
  for (const city of store.cities.set().slugs) {
    for (const [year, seasons] of seasonsByYear(allDailyRows(store, city, 'UTC'), categories))
      for (const c of seasons) files.add(seasonRow(city, year, c));
    await files.cityDone();
  }
  return files.finish(null, put, inputs);
}

/** The manifest's file under the publish folder. */
export const BULK_INDEX_FILE = `${BULK_DIR}/index.json`;

/** A bulk file the render writes: its URL path, kind and format. */
export interface BulkSlot {
  path: string;
  kind: BulkKind;
  format: BulkFormat;
}

/** The files of a month (or with `month` null the seasons file), as the manifest lists them. */
export const bulkSlots = (month: string | null): BulkSlot[] =>
  month === null
    ? FORMATS.map((format) => ({ path: `/${seasonsPath(format)}`, kind: 'seasons', format }))
    : BULK_KINDS.flatMap((kind) => FORMATS.map((format) => ({ path: `/${bulkPath(kind, month, format)}`, kind, format })));
