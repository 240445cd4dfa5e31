/**
 * The bulk files: every month of the served store as Parquet and as gzip CSV under /data/bulk/,
 * and their manifest. The rows are the API's own (`hourlyRow`, `dailyRow` and the weather row),
 * so a file agrees value for value with /api/pollen-range and /api/weather. One column set per
 * kind for the whole store (each species a column), so that many months read as one table; rows
 * sorted by city and time, in row groups of a few cities, so that a reader over HTTP fetches the
 * footer and one group, not the file.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip, gzipSync } from 'node:zlib';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter, type ColumnSource } from 'hyparquet-writer';
import { csvCell } from '../api/csv.js';
import { DATA_PREFIX } from '../api/routes.js';
import { slugify } from '../domain/cities.js';
import { DAY_MS, HOUR_MS, dayString } from '../domain/dates.js';
import { dailyRow } from '../domain/day-values.js';
import { byDay, hourlyRow } from '../domain/pollen-rows.js';
import type { Shape, Species } from '../domain/species.js';
import { INTEGER_FIELDS, TEXT_FIELDS, WEATHER_FIELDS } from '../domain/weather.js';
import type { BulkColumn, BulkFile, BulkFormat, BulkKind, BulkManifest, BulkType } from '../served/bulk-index.js';
import type { Store } from '../store/store.js';

export const BULK_DIR = `${DATA_PREFIX}/bulk`;
export const BULK_KINDS: readonly BulkKind[] = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
const FORMATS: readonly BulkFormat[] = ['parquet', 'csv.gz'];
/**
 * Snappy: every Parquet reader decodes it without an extra codec (hyparquet, the reader of
 * browsers, decodes gzip only with hyparquet-compressors). On these files gzip is within 2% of its
 * size and writes faster (`npm run bench`, B11): the readers decide.
 */
const CODEC: BulkCodec = 'SNAPPY';

type Value = string | number | Date | null;
/** A column and how to take its value from a row. */
export interface Field extends BulkColumn {
  value: (row: Record<string, unknown>) => Value;
}

const GRAINS = 'grains/m³';
const RISK = 'NAB risk label: None, Low, Moderate, High or Very High; empty when the value is missing';

const field = (name: string, type: BulkType, description: string, unit?: string, nullable = true): Field => ({
  name,
  type,
  nullable,
  description,
  ...(unit ? { unit } : {}),
  value: (row) => (row[name] as Value | undefined) ?? null,
});

/** `Cypress / Juniper / Cedar` -> `cypress_juniper_cedar`: a slug's words, joined as an identifier. */
const snake = (text: string) => slugify(text).replaceAll('-', '_');

/** One column per species of the store's shapes, in first-seen order: `tree_oak`, `others`. */
function speciesFields(shapes: readonly Shape[], taken: ReadonlySet<string>, what: string): Field[] {
  const fields = new Map<string, Field>();
  const add = (category: string, name: string | undefined) => {
    let column = snake(name === undefined ? category : `${category}_${name}`);
    if (taken.has(column)) column = `${column}_species`;
    if (fields.has(column)) return;
    const value = (row: Record<string, unknown>): number | null => {
      const group = (row.species as Species | null)?.[category];
      if (name === undefined) return typeof group === 'number' ? group : null;
      return group !== null && typeof group === 'object' ? (group[name] ?? null) : null;
    };
    fields.set(column, {
      name: column,
      type: 'DOUBLE',
      nullable: true,
      unit: GRAINS,
      description: `${name ?? category} (${category}), ${what}`,
      provider: { category, ...(name === undefined ? {} : { name }) },
      value,
    });
  };
  for (const shape of shapes)
    for (const [category, names] of shape) {
      if (!names) add(category, undefined);
      else for (const n of names) add(category, n);
    }
  return [...fields.values()];
}

const CITY = field('city', 'STRING', 'City slug, as GET /api/cities lists it', undefined, false);
const RISKS = ['tree', 'grass', 'weed'].map((c) => field(`risk_${c}`, 'STRING', `${c}: ${RISK}`));

/** The columns of each kind, for the store's species. */
export function bulkColumns(store: Store): Record<BulkKind, Field[]> {
  const shapes = store.shapes.all();
  const categories = (what: string) => ['tree', 'grass', 'weed'].map((c) => field(c, 'DOUBLE', `${c} pollen, ${what}`, GRAINS));
  const hourly = [
    CITY,
    field('ts', 'TIMESTAMP', 'Start of the hour, UTC', undefined, false),
    ...categories('the hour'),
    field('total', 'DOUBLE', 'tree + grass + weed of the hour', GRAINS),
    ...RISKS,
    field('timezone', 'STRING', "The city's IANA zone as the provider reported it"),
  ];
  const daily = [
    CITY,
    field('date', 'DATE', 'UTC day', undefined, false),
    ...categories("mean of the UTC day's hours, rounded"),
    field('total', 'DOUBLE', 'Mean total of the day, rounded', GRAINS),
    ...RISKS.map((f) => ({ ...f, description: `${f.description} (graded on the unrounded mean)` })),
    field('timezone', 'STRING', "The city's IANA zone as the provider reported it"),
    ...['tree', 'grass', 'weed', 'total'].map((c) => field(`peak_${c}`, 'DOUBLE', `Highest hourly ${c} of the day`, GRAINS)),
    ...['tree', 'grass', 'weed'].map((c) => field(`peak_risk_${c}`, 'STRING', `Worst hourly ${c} risk of the day (${RISK})`)),
  ];
  const weather = [
    CITY,
    field('date', 'DATE', 'UTC day', undefined, false),
    ...WEATHER_FIELDS.map((f) =>
      field(f, TEXT_FIELDS.has(f) ? 'STRING' : INTEGER_FIELDS.has(f) ? 'INT32' : 'DOUBLE', WEATHER_MEANING[f][0], WEATHER_MEANING[f][1]),
    ),
    field('source', 'STRING', 'Provider of the row'),
    field('created_at', 'TIMESTAMP', 'When the provider answered, UTC', undefined, false),
  ];
  return {
    'pollen-hourly': [...hourly, ...speciesFields(shapes, new Set(hourly.map((f) => f.name)), 'the hour')],
    'pollen-daily': [...daily, ...speciesFields(shapes, new Set(daily.map((f) => f.name)), "mean of the UTC day's hours, rounded")],
    'weather-daily': weather,
  };
}

const WEATHER_MEANING: Record<(typeof WEATHER_FIELDS)[number], [string, string?]> = {
  tz: ['UTC offset of the city as the provider reported it'],
  timezone: ["The city's IANA zone"],
  temp_min_c: ['Lowest temperature of the day', '°C'],
  temp_max_c: ['Highest temperature of the day', '°C'],
  temp_day_c: ['Mean temperature of the day', '°C'],
  feels_like_day_c: ['Mean apparent temperature of the day', '°C'],
  humidity: ['Mean relative humidity', '%'],
  pressure_hpa: ['Mean sea-level pressure', 'hPa'],
  wind_speed_ms: ['Mean wind speed', 'm/s'],
  wind_deg: ['Wind direction', 'degrees'],
  clouds_pct: ['Cloud cover', '%'],
  precip_mm: ['Precipitation of the day', 'mm'],
  uvi: ['UV index'],
  weather_main: ['Weather group (OpenWeatherMap)'],
  weather_desc: ['Weather description'],
  aqi: ['Air-quality index, 1 (good) to 5 (very poor), OpenWeatherMap scale'],
  aqi_pm2_5: ['PM2.5', 'μg/m³'],
  aqi_pm10: ['PM10', 'μg/m³'],
  aqi_o3: ['Ozone', 'μg/m³'],
  aqi_no2: ['Nitrogen dioxide', 'μg/m³'],
  aqi_so2: ['Sulphur dioxide', 'μg/m³'],
  aqi_co: ['Carbon monoxide', 'μg/m³'],
};

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

/** Rows of a month, each kind's city by city (slugs in byte order), in time order. */
export type MonthRows = Record<BulkKind, Array<Array<Record<string, unknown>>>>;

/** One city's rows of a month, each kind in time order: its hours are read once for both pollen kinds. */
function cityRows(store: Store, city: string, month: Month): Record<BulkKind, Array<Record<string, unknown>>> {
  const hours = store.pollen.hours(city, month.from * 24, (month.to + 1) * 24);
  const weather = [];
  for (let day = month.from; day <= month.to; day++) {
    const w = store.weather.cityDay(city, day);
    if (w) weather.push({ city, date: w.day, ...w.values, source: w.source, created_at: new Date(w.fetchedAt) });
  }
  return {
    'pollen-hourly': hours.map((h) => ({ city, ...hourlyRow(h), ts: new Date(h.hour * HOUR_MS) })),
    'pollen-daily': [...byDay(hours)].map(([day, dayHours]) => ({ city, ...dailyRow(day, dayHours), date: day })),
    'weather-daily': weather,
  };
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

const PARQUET_TYPE: Record<BulkType, Omit<SchemaElement, 'name' | 'repetition_type'>> = {
  STRING: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  // UTC instants: DuckDB reads them as TIMESTAMP WITH TIME ZONE, pandas as datetime64[ms, UTC].
  TIMESTAMP: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MILLIS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
  },
  DATE: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  DOUBLE: { type: 'DOUBLE' },
  INT32: { type: 'INT32' },
};

/** Codecs the bench compares (`npm run bench`, B11); the files use CODEC. */
export type BulkCodec = 'SNAPPY' | 'GZIP' | 'UNCOMPRESSED';
const COMPRESSORS = { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) };

const schemaOf = (fields: readonly Field[]): SchemaElement[] => [
  { name: 'root', num_children: fields.length },
  ...fields.map((f): SchemaElement => ({ name: f.name, ...PARQUET_TYPE[f.type], repetition_type: f.nullable ? 'OPTIONAL' : 'REQUIRED' })),
];

/** One row group's columns. */
function columnsOf(fields: readonly Field[], rows: ReadonlyArray<Record<string, unknown>>): ColumnSource[] {
  return fields.map((f) => {
    const data = rows.map(f.value);
    // Statistics on the sort keys only: they let readers skip row groups, and the footer stays small.
    const keyed = f.name === 'city' || f.type === 'TIMESTAMP' || f.type === 'DATE';
    return {
      name: f.name,
      data: f.type === 'DATE' ? data.map((d) => (d === null ? null : new Date((d as number) * DAY_MS))) : data,
      statistics: keyed,
      offsetIndex: false, // a page per column chunk: an offset index would only add bytes
      ...(f.type === 'STRING'
        ? { encoding: 'RLE_DICTIONARY' as const }
        : f.type === 'TIMESTAMP'
          ? { encoding: 'DELTA_BINARY_PACKED' as const }
          : {}),
    };
  });
}

/** A Parquet file written a row group at a time, so a month's rows are never held whole. */
class ParquetSink {
  private readonly out = new ByteWriter();
  private readonly writer: ParquetWriter;
  rows = 0;

  constructor(
    private readonly fields: readonly Field[],
    codec: BulkCodec = CODEC,
  ) {
    this.writer = new ParquetWriter({
      writer: this.out,
      schema: schemaOf(fields),
      codec,
      compressors: COMPRESSORS,
      statisticsTruncateLength: Infinity,
      createdBy: 'pollen-api (hyparquet-writer)',
    });
  }

  group(rows: ReadonlyArray<Record<string, unknown>>): void {
    if (rows.length === 0) return;
    // Synchronous into a ByteWriter: it returns a promise only for an asynchronous writer.
    if (this.writer.write({ columnData: columnsOf(this.fields, rows), rowGroupSize: rows.length }) !== undefined)
      throw new Error('the Parquet writer went asynchronous');
    this.rows += rows.length;
  }

  finish(): Uint8Array {
    if (this.writer.finish() !== undefined) throw new Error('the Parquet writer went asynchronous');
    return new Uint8Array(this.out.getBuffer());
  }
}

/** The Parquet bytes of a month's rows (cities' groups), a row group per `perGroup` cities with rows: for the bench. */
export function parquetOf(
  fields: readonly Field[],
  groups: ReadonlyArray<ReadonlyArray<Record<string, unknown>>>,
  perGroup: number,
  codec: BulkCodec = CODEC,
): Uint8Array {
  const sink = new ParquetSink(fields, codec);
  const cities = groups.filter((g) => g.length > 0);
  for (let i = 0; i < cities.length; i += perGroup) sink.group(cities.slice(i, i + perGroup).flat());
  return sink.finish();
}

/** A CSV field: times as the API writes them, the rest as every CSV answer does. */
function csvField(value: Value, type: BulkType): string {
  if (value !== null && type === 'TIMESTAMP') return (value as Date).toISOString();
  if (value !== null && type === 'DATE') return dayString(value as number);
  return csvCell(value);
}

/** A gzip CSV file written a city at a time (a header, then the rows), waiting for zlib when it lags. */
class CsvSink {
  private readonly gzip = createGzip({ level: 6 });
  private readonly chunks: Buffer[] = [];

  constructor(private readonly fields: readonly Field[]) {
    this.gzip.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.gzip.write(`${fields.map((f) => f.name).join(',')}\n`);
  }

  async rows(rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    if (rows.length === 0) return;
    const text = rows.map((row) => `${this.fields.map((f) => csvField(f.value(row), f.type)).join(',')}\n`).join('');
    if (!this.gzip.write(text)) await once(this.gzip, 'drain');
  }

  async finish(): Promise<Uint8Array> {
    const ended = once(this.gzip, 'end');
    this.gzip.end();
    await ended;
    return Buffer.concat(this.chunks);
  }
}

const KIND_MEANING: Record<BulkKind, string> = {
  'pollen-hourly': 'One row per city-hour: the rows of /api/pollen-range (aggregate=none), species as columns.',
  'pollen-daily': 'One row per city and UTC day with data: the daily rows of /api/pollen?city=, peaks included, species means as columns.',
  'weather-daily': 'One row per city and UTC day: the rows of /api/weather?city= (city_slug is city).',
};

/**
 * Writes one month's files (three kinds in two formats) with `put`, and says what each holds.
 * Rows are made a city at a time and leave memory with their row group.
 */
export async function writeBulkMonth(
  store: Store,
  month: Month,
  put: (file: string, body: Uint8Array) => void,
  columns = bulkColumns(store),
): Promise<BulkFile[]> {
  const sinks = BULK_KINDS.map((kind) => ({
    kind,
    parquet: new ParquetSink(columns[kind]),
    csv: new CsvSink(columns[kind]),
    pending: [] as Array<Array<Record<string, unknown>>>,
  }));
  const flush = async (sink: (typeof sinks)[number]) => {
    const rows = sink.pending.flat();
    sink.pending = [];
    sink.parquet.group(rows);
    await sink.csv.rows(rows);
  };
  for (const city of store.cities.set().slugs) {
    const rows = cityRows(store, city, month);
    for (const sink of sinks) {
      if (rows[sink.kind].length === 0) continue;
      sink.pending.push(rows[sink.kind]);
      if (sink.pending.length === CITIES_PER_GROUP[sink.kind]) await flush(sink);
    }
  }
  const files: BulkFile[] = [];
  for (const sink of sinks) {
    await flush(sink);
    const bodies: Record<BulkFormat, Uint8Array> = { parquet: sink.parquet.finish(), 'csv.gz': await sink.csv.finish() };
    for (const format of FORMATS) {
      const path = `${BULK_DIR}/${sink.kind}-${month.month}.${format}`;
      const bytes = bodies[format];
      files.push({
        path: `/${path}`,
        kind: sink.kind,
        format,
        month: month.month,
        rows: sink.parquet.rows,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        columns: columns[sink.kind].map((f) => f.name),
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
