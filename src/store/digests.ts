/**
 * Digests of what a store holds, by day and by city: a render compares them with the previous
 * build's to reuse the files made from days that did not change (src/render/cache/render-cache.ts).
 * Rows go into the digests as stored, packed; the names the packed bytes refer to by id, and the
 * cities' ids, have a digest of their own. The days' digests are kept in the store (`day_digest`)
 * and made again only for the days written since (`day_digest_stale`, marked by triggers): a day
 * ingested changes one day's digests, not the 730 a render would otherwise read every row of. A
 * city's digests are made from its rows each time: every city gains a day each day.
 */
import { createHash } from 'node:crypto';
import type { Db } from './database.js';

export interface StoreDigests {
  /** The sources, labels and species shapes, and the cities, by id. */
  names: Buffer;
  /** Each day's kept rows of every city: the forecasts issued that UTC day, the outlooks issued that day, the climatologies of that target day. */
  kept: { forecasts: Map<number, Buffer>; outlooks: Map<number, Buffer>; climatologies: Map<number, Buffer> };
  /** Each day's day values of every city: by UTC day [0] and by local day [1]. */
  values: [Map<number, Buffer>, Map<number, Buffer>];
  /** Each UTC day's hours of every city. */
  pollen: Map<number, Buffer>;
  /** Each UTC day's weather of every city. */
  weather: Map<number, Buffer>;
  /** Each city's day values, weather days and forecast skill. */
  cities: Map<string, Buffer>;
}

/**
 * A digest per key, of its rows as SQLite joins them: `sql` gives each key with its rows, each
 * row's columns as SQL literals (`quote`, unambiguous for every value, blobs in hex) in key order.
 * One string per key crosses into JavaScript, not a value per row: a store of 200 cities' 730
 * days has 584,000 rows in its day tables, and reading them one by one took most of the time.
 */
function digestsBy<K>(db: Db, sql: string): Map<K, Buffer> {
  const digests = new Map<K, Buffer>();
  for (const [key, rows] of db.prepare(sql).raw().iterate() as Iterable<[K, string]>)
    digests.set(key, createHash('sha256').update(rows).digest());
  return digests;
}

/** The rows of `table` (as `t`) by `key`, in `order`, each as its `columns`' literals; `from`: the table, or a join with it. */
const rowsBy = (table: string, key: string, order: string, columns: readonly string[], where = '', from = `${table} t`) =>
  `SELECT ${key}, group_concat(${columns.map((c) => `quote(t.${c})`).join(" || ' ' || ")}, ',' ORDER BY ${order}) FROM ${from} ${where} GROUP BY ${key}`;

const VALUE = ['city_id', 'day', 'data'];
const FORECAST = ['city_id', 'issued_at', 'source_id', 'origin', 'days'];
const OUTLOOK = ['city_id', 'issue_day', 'source_id', 'origin', 'data'];
// Not when pollen was fetched: a day fetched again with the same hours answers the same.
const POLLEN = ['city_id', 'day', 'source_id', 'zone_id', 'status', 'mask', 'data', 'daily', 'levels'];
const WEATHER = ['city_id', 'day', 'source_id', 'status', 'fetched_at', 'data'];

/**
 * Each part of `day_digest` (schema.ts, 8 and 10): the rows a day's digest is made of, every
 * city's in id order (then by `order`); `day` is the SQL of a row's day, `at` of the rows of day
 * `s.day` found through the table's primary key.
 */
const DAY_PARTS: ReadonlyArray<{ table: string; columns: readonly string[]; where?: string; day: string; at: string; order: string }> = [
  { table: 'day_value', columns: VALUE, where: 't.cut = 0', day: 't.day', at: 't.day = s.day', order: 't.city_id' },
  { table: 'day_value', columns: VALUE, where: 't.cut = 1', day: 't.day', at: 't.day = s.day', order: 't.city_id' },
  { table: 'pollen_day', columns: POLLEN, day: 't.day', at: 't.day = s.day', order: 't.city_id' },
  { table: 'weather_day', columns: WEATHER, day: 't.day', at: 't.day = s.day', order: 't.city_id' },
  {
    table: 'forecast_issued',
    columns: FORECAST,
    day: 't.issued_at / 86400000',
    at: 't.issued_at >= s.day * 86400000 AND t.issued_at < (s.day + 1) * 86400000',
    order: 't.city_id, t.issued_at',
  },
  { table: 'outlook_issued', columns: OUTLOOK, day: 't.issue_day', at: 't.issue_day = s.day', order: 't.city_id' },
  { table: 'climatology_issued', columns: VALUE, day: 't.day', at: 't.day = s.day', order: 't.city_id' },
];

/** The days of `part` the writes since the last refresh left stale, as SQL. */
const staleOf = (part: number) => `SELECT day FROM day_digest_stale WHERE part = ${part}`;
/** Whether more of a part's days are stale than have a digest kept. */
const MANY_STALE =
  'SELECT (SELECT count(*) FROM day_digest_stale WHERE part = @part) > (SELECT count(*) FROM day_digest WHERE part = @part)';

/**
 * Digests a part's days: those the writes since the last refresh left stale, or every day. The
 * day tables have no index by day (days-with-data.ts): a few stale days (a daily ingest) are read city by
 * city through the primary key; when more days are stale than have a digest kept (a first ingest),
 * one pass over the table, sorted by day (1.4 s for 730 days of 200 cities, where a lookup per
 * city and day took 1.2 to 2.2 s).
 */
function digestDays(db: Db, part: number, stale = false): Map<number, Buffer> {
  const { table, columns, where, day, at, order } = DAY_PARTS[part]!;
  const many = stale && db.prepare(MANY_STALE).pluck().get({ part }) === 1;
  if (!stale || many) {
    const conditions = [where, many && `${day} IN (${staleOf(part)})`].filter(Boolean);
    return digestsBy<number>(db, rowsBy(table, day, order, columns, conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''));
  }
  const from = `day_digest_stale s CROSS JOIN city c CROSS JOIN ${table} t ON t.city_id = c.id AND ${at}`;
  const conditions = [`s.part = ${part}`, where].filter(Boolean).join(' AND ');
  return digestsBy<number>(db, rowsBy(table, 's.day', order, columns, `WHERE ${conditions}`, from));
}

/**
 * Digests the stale days again and keeps them, in one transaction: a day without rows left loses
 * its digest. Only a writer can; a day's digest reads every city's rows of the day, so a writer
 * does it once it is done (an ingest at its end), not at each write.
 */
export function refreshDayDigests(db: Db): void {
  db.transaction(() => {
    const put = db.prepare(
      'INSERT INTO day_digest (part, day, digest) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET digest = excluded.digest',
    );
    for (const part of DAY_PARTS.keys()) {
      db.prepare(`DELETE FROM day_digest WHERE part = ? AND day IN (${staleOf(part)})`).run(part);
      for (const [day, digest] of digestDays(db, part, true)) put.run(part, day, digest);
    }
    db.exec('DELETE FROM day_digest_stale');
  })();
}

/**
 * Each part's day digests: as kept, and those of the days still stale made here (a reader
 * cannot keep them). The same as digesting every day's rows (test/store/digests.test.ts).
 */
function dayDigests(db: Db): Array<Map<number, Buffer>> {
  const parts = DAY_PARTS.map(() => new Map<number, Buffer>());
  for (const [part, day, digest] of db.prepare('SELECT part, day, digest FROM day_digest').raw().iterate() as Iterable<
    [number, number, Buffer]
  >)
    parts[part]!.set(day, digest);
  for (const part of DAY_PARTS.keys()) {
    const stale = db.prepare(staleOf(part)).pluck().all() as number[];
    if (stale.length === 0) continue;
    for (const day of stale) parts[part]!.delete(day);
    for (const [day, digest] of digestDays(db, part, true)) parts[part]!.set(day, digest);
  }
  return parts;
}

/** Each part's digest of every day, from the rows alone: what the kept ones must equal. */
export const dayDigestsFromRows = (db: Db): Array<Map<number, Buffer>> => DAY_PARTS.map((_, part) => digestDays(db, part));

/** The digest of the names packed rows refer to by id, and the cities' ids: every day's digest names a city by its id. */
function namesDigest(db: Db): Buffer {
  const names = createHash('sha256');
  const nameRows = db.prepare(
    "SELECT 's' || id || ' ' || name FROM source UNION ALL SELECT 'l' || id || ' ' || text FROM label UNION ALL SELECT 'k' || id || ' ' || keys FROM species_shape UNION ALL SELECT 'c' || id || ' ' || slug FROM city",
  );
  for (const line of nameRows.pluck().iterate() as Iterable<string>) names.update(`${line}\n`);
  return names.digest();
}

/** The days' digests alone (each part's, as kept), with the names': no city's rows read. */
export function dayDigestsOf(db: Db): Pick<StoreDigests, 'names' | 'values' | 'kept'> {
  const [utc, local, , , forecasts, outlooks, climatologies] = dayDigests(db);
  return {
    names: namesDigest(db),
    values: [utc!, local!],
    kept: { forecasts: forecasts!, outlooks: outlooks!, climatologies: climatologies! },
  };
}

/** The days' digests of the rows shards hold (day values in both cuts, hours, weather), with the names': no city's rows read. */
export function shardDigestsOf(db: Db): Pick<StoreDigests, 'names' | 'values' | 'pollen' | 'weather'> {
  const [utc, local, pollen, weather] = dayDigests(db);
  return { names: namesDigest(db), values: [utc!, local!], pollen: pollen!, weather: weather! };
}

/** Reads the digests of the store's tables. */
export function storeDigests(db: Db): StoreDigests {
  const names = namesDigest(db);

  // A city's: its day values of both cuts, its weather days, and its forecast skill as a render wrote it (its forecast-skill answer).
  const slugs = new Map(db.prepare('SELECT id, slug FROM city').raw().all() as Array<[number, string]>);
  const parts = [
    rowsBy('day_value', 'city_id', 'cut, day', ['cut', 'day', 'data']),
    rowsBy('weather_day', 'city_id', 'day', WEATHER),
    rowsBy('forecast_skill', 'city_id', 'city_id', ['skill']),
  ].map((sql) => digestsBy<number>(db, sql));
  const cities = new Map<string, Buffer>();
  for (const [id, slug] of slugs) {
    const hash = createHash('sha256');
    for (const [i, part] of parts.entries()) hash.update(`${i}\n`).update(part.get(id) ?? NONE);
    cities.set(slug, hash.digest());
  }
  const [utc, local, pollen, weather, forecasts, outlooks, climatologies] = dayDigests(db);
  return {
    names,
    values: [utc!, local!],
    pollen: pollen!,
    weather: weather!,
    cities,
    kept: { forecasts: forecasts!, outlooks: outlooks!, climatologies: climatologies! },
  };
}

/** What a city without rows in a table digests as. */
const NONE = Buffer.alloc(0);
