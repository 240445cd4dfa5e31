/**
 * The bulk files read back by two independent readers (DuckDB on a downloaded copy, hyparquet
 * over HTTP with byte ranges from the local server), against the JSON API for the same rows.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkColumn, BulkManifest } from '../../src/deploy-data/bulk-index.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { render } from '../../src/render/render.js';
import { openStore, type Store } from '../../src/store/store.js';
import { buildStore, useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const CITIES = ['austin', 'honolulu', 'scranton', 'tulsa', 'wichita'];
const SPAN = { from: dayNumber('2025-03-25'), to: dayNumber('2025-04-06') };
const ODD_DAY = dayNumber('2025-04-03');

/** Writes a day that only the bulk files' column set must absorb: a species seen in one month, nulls, 38.5. */
function writeOddDay(store: Store): void {
  const hours = Array.from({ length: 24 }, (_, h) => ({
    hour: ODD_DAY * 24 + h,
    tree: h === 5 ? null : 38.5 + h,
    grass: null,
    weed: 0.25,
    total: 38.75 + h,
    species:
      h === 7
        ? null
        : {
            Tree: { Oak: 38.5, 'Cypress / Juniper / Cedar': null },
            Weed: { Ragweed: 0.25, 'Mugwort, "wild"': 1.5 },
            Others: h === 3 ? null : 2,
          },
  }));
  store.writeCityDay({
    city: 'austin',
    day: ODD_DAY,
    pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: Date.UTC(2025, 3, 4), hours },
  });
}

/** A value of a file as the JSON API writes it. */
function asApi(value: unknown, column: BulkColumn): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'TIMESTAMP') return (value as Date).toISOString();
  if (column.type === 'DATE') return (value as Date).toISOString().slice(0, 10);
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** The species column's value in an API row's species payload. */
function speciesValue(species: Json | null, provider: NonNullable<BulkColumn['provider']>): unknown {
  const group = species?.[provider.category];
  if (provider.name === undefined) return typeof group === 'number' ? group : null;
  return group !== null && typeof group === 'object' ? (group[provider.name] ?? null) : null;
}

/** An API row laid out as a file's columns. */
/** The provider of an API row: its own when the answer mixes providers, else the answer's. */
const providerOf = (body: Json, row: Json): string => (row.providers as string[] | undefined)?.join('+') ?? body.provider;

function expectedRow(columns: readonly BulkColumn[], api: Json, rename: Record<string, string> = {}): Json {
  return Object.fromEntries(
    columns.map((c) => [c.name, c.provider ? speciesValue(api.species, c.provider) : (api[rename[c.name] ?? c.name] ?? null)]),
  );
}

const CSV_FIELD = /("(?:[^"]|"")*"|[^,\n]*)(,|\n|$)/y;
/** RFC 4180 lines into fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  CSV_FIELD.lastIndex = 0;
  while (CSV_FIELD.lastIndex < text.length) {
    const m = CSV_FIELD.exec(text)!;
    row.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replaceAll('""', '"') : m[1]!);
    if (m[2] !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

describe('the bulk files', () => {
  const site = useSite({ cities: CITIES, span: SPAN, prepare: writeOddDay });
  let dir: string;
  let manifest: BulkManifest;
  let duck: DuckDBInstance;
  let con: DuckDBConnection;
  const url = (path: string) => `${site.server.url}${path}`;
  const api = async (path: string) => (await (await fetch(url(path))).json()) as Json;
  const download = async (path: string) => Buffer.from(await (await fetch(url(path))).arrayBuffer());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-bulk-'));
    manifest = (await api('/data/bulk/index.json')) as BulkManifest;
    duck = await DuckDBInstance.create(':memory:');
    con = await duck.connect();
  });
  afterAll(() => {
    con?.closeSync();
    duck?.closeSync();
  });

  /** The rows of a file as DuckDB reads a downloaded copy, in file order. */
  const duckRows = async (path: string): Promise<Json[]> => {
    const local = join(dir, path.split('/').at(-1)!);
    writeFileSync(local, await download(path));
    return (await con.runAndReadAll(`SELECT * FROM read_parquet('${local}')`)).getRowObjectsJS() as Json[];
  };
  const normalized = (rows: Json[], columns: readonly BulkColumn[]) =>
    rows.map((r) => Object.fromEntries(columns.map((c) => [c.name, asApi(r[c.name], c)])));
  const monthWindow = (month: string) => {
    const from = dayNumber(`${month}-01`);
    const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 1));
    return { from: dayString(from), to: next.toISOString().slice(0, 10) };
  };
  const inMonth = (month: string) => (r: Json) => String(r.date ?? r.periodStart).startsWith(month);

  /** What /api/season answers for every city and year held, as the seasons file's columns. */
  async function seasonRows(columns: readonly BulkColumn[]): Promise<Json[]> {
    const rows: Json[] = [];
    for (const city of DEFAULT_CITIES.slugs) {
      const latest = await fetch(url(`/api/season?city=${city}`));
      if (latest.status === 404) continue; // no daily values: no seasons
      const years = [...new Set(((await latest.json()) as Json).years.map((y: Json) => y.year as number))].sort();
      for (const year of years) {
        for (const c of (await api(`/api/season?city=${city}&year=${year}`)).categories as Json[]) {
          const risk = c.season?.risk_days ?? {};
          const flat = {
            ...c,
            ...(c.season ?? {}),
            city,
            year,
            season_days: c.season?.days ?? null,
            status: c.status.state,
            status_start: c.status.start,
            status_end: c.status.end,
          };
          const days = {
            days_none: risk.None,
            days_low: risk.Low,
            days_moderate: risk.Moderate,
            days_high: risk.High,
            days_very_high: risk['Very High'],
          };
          rows.push(expectedRow(columns, { ...flat, ...days }));
        }
      }
    }
    return rows;
  }

  /** What the JSON API answers for the rows of a kind's month (or the seasons), as the file's columns. */
  async function apiRows(kind: string, month: string | null, columns: readonly BulkColumn[]): Promise<Json[]> {
    if (kind === 'seasons') return seasonRows(columns);
    const { from, to } = monthWindow(month!);
    if (kind === 'pollen-hourly') {
      const body = await api(`/api/pollen-range?from=${from}&to=${to}&limit=50000`);
      expect(body.truncated).toBe(false);
      return (body.rows as Json[]).map((r) => expectedRow(columns, { ...r, provider: providerOf(body, r) }, { ts: 'periodStart' }));
    }
    const rows: Json[] = [];
    for (const city of [...CITIES].sort()) {
      if (kind === 'pollen-daily') {
        const body = await api(`/api/pollen?city=${city}`);
        const daily = (body.rows as Json[]).filter(inMonth(month!)).reverse();
        rows.push(...daily.map((r) => expectedRow(columns, { ...r, city, provider: providerOf(body, r) })));
      } else {
        const weather = ((await api(`/api/weather?city=${city}`)).rows as Json[]).filter(inMonth(month!)).reverse();
        rows.push(...weather.map((r) => expectedRow(columns, r, { city: 'city_slug' })));
      }
    }
    return rows;
  }

  it('lists every month of the served store, three kinds in two formats, with one column set per kind', () => {
    expect([manifest.from, manifest.to]).toEqual(['2025-03-25', '2025-04-06']);
    expect(manifest.files.map((f) => f.path.split('/').at(-1))).toEqual([
      ...['2025-03', '2025-04'].flatMap((m) =>
        ['pollen-hourly', 'pollen-daily', 'weather-daily', 'forecast-pairs'].flatMap((k) => [`${k}-${m}.parquet`, `${k}-${m}.csv.gz`]),
      ),
      'seasons.parquet',
      'seasons.csv.gz',
    ]);
    const hourly = manifest.kinds['pollen-hourly'].columns;
    expect(hourly.slice(0, 10).map((c) => `${c.name}:${c.type}`)).toEqual([
      'city:STRING',
      'ts:TIMESTAMP',
      'tree:DOUBLE',
      'grass:DOUBLE',
      'weed:DOUBLE',
      'total:DOUBLE',
      'risk_tree:STRING',
      'risk_grass:STRING',
      'risk_weed:STRING',
      'timezone:STRING',
    ]);
    // Species columns in snake case, each mapped back to the provider's category and name.
    expect(hourly.find((c) => c.name === 'tree_cypress_juniper_cedar')?.provider).toEqual({
      category: 'Tree',
      name: 'Cypress / Juniper / Cedar',
    });
    expect(hourly.find((c) => c.name === 'others')?.provider).toEqual({ category: 'Others' });
    expect(hourly.find((c) => c.name === 'weed_mugwort_wild')?.provider).toEqual({ category: 'Weed', name: 'Mugwort, "wild"' });
    for (const f of manifest.files) expect(f.columns).toEqual(manifest.kinds[f.kind].columns.map((c) => c.name));
  });

  it('gives each file its true size and SHA-256', async () => {
    for (const f of manifest.files) {
      const bytes = await download(f.path);
      expect(bytes.length, f.path).toBe(f.bytes);
      expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
    }
  });

  it('reads back in DuckDB, typed, value for value as the JSON API answers (hourly, daily with peaks, weather, seasons)', async () => {
    for (const f of manifest.files.filter((x) => x.format === 'parquet')) {
      const columns = manifest.kinds[f.kind].columns;
      const local = join(dir, `described-${f.path.split('/').at(-1)}`);
      writeFileSync(local, await download(f.path));
      const described = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${local}')`)).getRowObjectsJS() as Json[];
      const duckType: Record<string, string> = {
        STRING: 'VARCHAR',
        TIMESTAMP: 'TIMESTAMP WITH TIME ZONE',
        DATE: 'DATE',
        DOUBLE: 'DOUBLE',
        INT32: 'INTEGER',
        BOOLEAN: 'BOOLEAN',
      };
      expect(
        described.map((d) => `${d.column_name} ${d.column_type}`),
        f.path,
      ).toEqual(columns.map((c) => `${c.name} ${duckType[c.type]}`));
      const rows = normalized(await duckRows(f.path), columns);
      expect(rows.length, f.path).toBe(f.rows);
      // The forecast pairs answer no JSON row: the scores of /api/forecast-skill are computed again from them instead.
      if (f.kind !== 'forecast-pairs') expect(rows, f.path).toEqual(await apiRows(f.kind, f.month, columns));
    }
  });

  it("agrees with pollen-range's daily rows (aggregate=day) on the daily means", async () => {
    for (const f of manifest.files.filter((x) => x.kind === 'pollen-daily' && x.format === 'parquet')) {
      const { from, to } = monthWindow(f.month!);
      const body = await api(`/api/pollen-range?from=${from}&to=${to}&aggregate=day&limit=50000`);
      const ranged = (body.rows as Json[]).map((r) => ({ ...r, date: String(r.periodStart).slice(0, 10), provider: providerOf(body, r) }));
      const means = manifest.kinds['pollen-daily'].columns.filter((c) => !c.name.startsWith('peak_'));
      expect(normalized(await duckRows(f.path), means)).toEqual(ranged.map((r) => expectedRow(means, r)));
    }
  });

  it('keeps nulls, 38.5, and a species seen in one month only (null in the others)', async () => {
    const april = normalized(await duckRows('/data/bulk/pollen-hourly-2025-04.parquet'), manifest.kinds['pollen-hourly'].columns);
    const odd = april.filter((r) => r.city === 'austin' && String(r.ts).startsWith(dayString(ODD_DAY)));
    expect(odd).toHaveLength(24);
    expect(odd[0]).toMatchObject({
      tree: 38.5,
      grass: null,
      weed: 0.25,
      tree_oak: 38.5,
      tree_cypress_juniper_cedar: null,
      weed_mugwort_wild: 1.5,
      others: 2,
    });
    expect(odd[5]!.tree).toBeNull();
    expect(odd[3]!.others).toBeNull();
    expect(odd[7]).toMatchObject({ tree_oak: null, weed_mugwort_wild: null, others: null });
    const march = normalized(await duckRows('/data/bulk/pollen-hourly-2025-03.parquet'), manifest.kinds['pollen-hourly'].columns);
    expect(march.length).toBeGreaterThan(0);
    expect(march.every((r) => r.weed_mugwort_wild === null)).toBe(true);
  });

  it('reads back with hyparquet over HTTP, by byte ranges from the local server, as DuckDB does', async () => {
    for (const f of manifest.files.filter((x) => x.format === 'parquet')) {
      const columns = manifest.kinds[f.kind].columns;
      const file = await asyncBufferFromUrl({ url: url(f.path) });
      expect(file.byteLength).toBe(f.bytes);
      const rows = normalized((await parquetReadObjects({ file })) as Json[], columns);
      expect(rows, f.path).toEqual(normalized(await duckRows(f.path), columns));
    }
  });

  it("fetches a small part of the file for one city's month", async () => {
    const f = manifest.files.find((x) => x.kind === 'pollen-hourly' && x.month === '2025-04' && x.format === 'parquet')!;
    const reads: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      expect([init?.method ?? 'GET', res.status]).toEqual(['GET', 206]);
      reads.push(Number(res.headers.get('content-length')));
      return res;
    };
    const file = await asyncBufferFromUrl({ url: url(f.path), byteLength: f.bytes, fetch: counting });
    // A reader's first read of the tail is 512 KB by default, more than this small test file: ask for the footer's size.
    const metadata = await parquetMetadataAsync(file, { initialFetchSize: 8 * 1024 });
    // Row groups of four cities, in slug order; statistics give each group's first and last city.
    const stats = metadata.row_groups.map((g) => g.columns[0]!.meta_data!.statistics!);
    expect(stats.map((st) => [st.min_value, st.max_value])).toEqual([
      ['austin', 'tulsa'],
      ['wichita', 'wichita'],
    ]);
    const rows = (await parquetReadObjects({ file, metadata, filter: { city: { $eq: 'wichita' } } })) as Json[];
    expect(rows.length).toBeGreaterThan(100);
    expect(new Set(rows.map((r) => r.city))).toEqual(new Set(['wichita']));
    // Two reads: the file's tail with the footer, then exactly Wichita's row group.
    const group = metadata.row_groups[1]!;
    const starts = group.columns.map((c) => Number(c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset));
    const ends = group.columns.map((c, i) => starts[i]! + Number(c.meta_data!.total_compressed_size));
    expect(reads).toEqual([8 * 1024, Math.max(...ends) - Math.min(...starts)]);
    expect(reads[1]! / f.bytes).toBeLessThan(0.3); // one city's group of five; B12 measures 200 cities
  });

  it("says in the manifest and in each Parquet file's metadata whose values the rows are, and that the sample's are simulated", async () => {
    for (const f of manifest.files) {
      const named = manifest.kinds[f.kind].columns.some((c) => c.name === 'provider');
      // The pollen files' rows name their provider; the weather, seasons and pairs files' do not.
      expect([f.path, f.providers, f.simulated]).toEqual(named ? [f.path, ['sample'], true] : [f.path, undefined, undefined]);
      if (f.format !== 'parquet') continue;
      const metadata = await parquetMetadataAsync(await asyncBufferFromUrl({ url: url(f.path) }));
      const kv = Object.fromEntries((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      expect([f.path, kv['pollen-api:providers'], kv['pollen-api:simulated']]).toEqual(
        named ? [f.path, '["sample"]', 'true'] : [f.path, undefined, undefined],
      );
    }
    expect(manifest.files.filter((f) => f.providers).length).toBeGreaterThan(0);
  });

  it('writes a CSV twin of every Parquet file with the same rows', async () => {
    for (const f of manifest.files.filter((x) => x.format === 'csv.gz')) {
      const res = await fetch(url(f.path), { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers.get('content-encoding'), f.path).toBeNull(); // a gzip file, not a gzip encoding
      const [header, ...lines] = parseCsv(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8'));
      const columns = manifest.kinds[f.kind].columns;
      expect(header).toEqual(columns.map((c) => c.name));
      const twin = manifest.files.find((x) => x.kind === f.kind && x.month === f.month && x.format === 'parquet')!;
      const asText = normalized(await duckRows(twin.path), columns).map((r) =>
        columns.map((c) => (r[c.name] === null ? '' : String(r[c.name]))),
      );
      expect(lines.length).toBe(f.rows);
      expect(lines).toEqual(asText);
    }
  });

  describe('byte ranges on the local server', () => {
    const path = '/data/bulk/pollen-hourly-2025-04.parquet';
    const get = (range?: string, method = 'GET') => fetch(url(path), { method, headers: range ? { range } : {} });

    it.each([
      ['bytes=0-3', 0, 3],
      ['bytes=4-', 4, -1],
      ['bytes=-8', -8, -1],
      ['bytes=10-99999999', 10, -1],
    ])('answers %s with 206 and the bytes asked for', async (range, start, end) => {
      const whole = await download(path);
      const res = await get(range);
      const [from, to] = [start < 0 ? whole.length + start : start, end < 0 ? whole.length - 1 : end];
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${from}-${to}/${whole.length}`);
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('access-control-expose-headers')).toBe('Content-Range, Accept-Ranges, Content-Length');
      expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(from, to + 1))).toBe(true);
    });

    it('starts and ends with PAR1', async () => {
      expect(Buffer.from(await (await get('bytes=0-3')).arrayBuffer()).toString('latin1')).toBe('PAR1');
      expect(Buffer.from(await (await get('bytes=-4')).arrayBuffer()).toString('latin1')).toBe('PAR1');
    });

    it('answers 416 with the size for a range past the end, and the whole file for a range it ignores', async () => {
      const size = (await download(path)).length;
      for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
        const res = await get(range);
        expect(res.status, range).toBe(416);
        expect(res.headers.get('content-range'), range).toBe(`bytes */${size}`);
      }
      for (const range of ['bytes=5-2', 'bytes=0-1,4-5', 'items=0-3', 'bytes=a-b']) {
        const res = await get(range);
        expect(res.status, range).toBe(200);
        expect(Number(res.headers.get('content-length')), range).toBe(size);
      }
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const head = await get('bytes=0-3', 'HEAD');
      expect([head.status, head.headers.get('content-range'), head.headers.get('content-length'), await head.text()]).toEqual([
        206,
        `bytes 0-3/${(await download(path)).length}`,
        '4',
        '',
      ]);
      const whole = await get(undefined, 'HEAD');
      expect([whole.status, whole.headers.get('accept-ranges')]).toEqual([200, 'bytes']);
    });
  });
});

describe('a daily render of the bulk files', () => {
  it('changes only the months that hold a changed city-day, and the month the window trims', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pollen-bulk-churn-'));
    const cities = ['austin', 'tulsa'];
    const db = await buildStore(dir, cities, { from: dayNumber('2025-01-20'), to: dayNumber('2025-04-12') });
    // 2025-01-23 .. 2025-04-12, then 2025-01-24 .. 2025-04-13: both from the first of January (its month
    // kept whole), that is from the store's first day, 20 January.
    const serveDays = 80;
    const renderOnce = async () => {
      const store = openStore(db, { readonly: true });
      try {
        await render(store, join(dir, 'publish'), { serveDays, workers: 0 });
      } finally {
        store.close();
      }
      const m = JSON.parse(
        await (await import('node:fs/promises')).readFile(join(dir, 'publish', 'data', 'bulk', 'index.json'), 'utf8'),
      ) as BulkManifest;
      return new Map(m.files.map((f) => [f.path, f.sha256]));
    };
    const before = await renderOnce();

    const store = openStore(db);
    const sample = new SampleProvider();
    const chosen = cities.map((c) => DEFAULT_CITIES.get(c)!);
    await ingest({
      store,
      pollen: sample,
      weather: sample,
      cities: chosen,
      span: { from: dayNumber('2025-04-13'), to: dayNumber('2025-04-13') },
    });
    // A provider's revision of one February hour.
    const feb = dayNumber('2025-02-15');
    const hours = store.pollen
      .hours('tulsa', feb * 24, (feb + 1) * 24)
      .map((h) => ({ hour: h.hour, tree: h.tree, grass: h.grass, weed: h.weed, total: h.total, species: h.species }));
    hours[0] = { ...hours[0]!, tree: (hours[0]!.tree ?? 0) + 5000, total: hours[0]!.total + 5000 };
    store.writeCityDay({
      city: 'tulsa',
      day: feb,
      pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: Date.UTC(2025, 3, 14), hours },
    });
    store.close();
    const after = await renderOnce();

    expect([...after.keys()]).toEqual([...before.keys()]);
    const changed = [...after].filter(([path, sum]) => before.get(path) !== sum).map(([path]) => path.split('/').at(-1));
    const months = (m: string, kinds: string[]) => kinds.flatMap((k) => [`${k}-${m}.parquet`, `${k}-${m}.csv.gz`]);
    const all = ['pollen-hourly', 'pollen-daily', 'weather-daily'];
    // February: the revised hour (pollen, and the pairs observed that day); April: the new day, its
    // pairs too; the seasons file, whose year gained a day. January stays as it was: the window's
    // first month is kept whole until all its days have left it.
    expect(changed.sort()).toEqual(
      [
        ...months('2025-02', ['pollen-hourly', 'pollen-daily', 'forecast-pairs']),
        ...months('2025-04', [...all, 'forecast-pairs']),
        'seasons.parquet',
        'seasons.csv.gz',
      ].sort(),
    );
  });
});
