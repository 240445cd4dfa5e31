/**
 * Digests of what a store holds, by day and by city: a render compares them with the previous
 * build's to reuse the files made from days that did not change (src/render/render-cache.ts).
 * Rows go into the digests as stored, packed; the names the packed bytes refer to by id, and the
 * cities' ids, have a digest of their own.
 */
import { createHash } from 'node:crypto';
import type { Db } from './database.js';

export interface StoreDigests {
  /** The sources, labels and species shapes, and the cities, by id. */
  names: Buffer;
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

/** The rows of `table` by `key`, in `order`, each as its `columns`' literals. */
const rowsBy = (table: string, key: string, order: string, columns: readonly string[], where = '') =>
  `SELECT ${key}, group_concat(${columns.map((c) => `quote(${c})`).join(" || ' ' || ")}, ',' ORDER BY ${order}) FROM ${table} ${where} GROUP BY ${key}`;

/** Reads the digests of the store's tables. */
export function storeDigests(db: Db): StoreDigests {
  // The names packed rows refer to by id, and the cities' ids: every digest below names a city by its id.
  const names = createHash('sha256');
  const nameRows = db.prepare(
    "SELECT 's' || id || ' ' || name FROM source UNION ALL SELECT 'l' || id || ' ' || text FROM label UNION ALL SELECT 'k' || id || ' ' || keys FROM species_shape UNION ALL SELECT 'c' || id || ' ' || slug FROM city",
  );
  for (const line of nameRows.pluck().iterate() as Iterable<string>) names.update(`${line}\n`);

  const VALUE = ['city_id', 'day', 'data'];
  // Not when pollen was fetched: a day fetched again with the same hours answers the same.
  const POLLEN = ['city_id', 'day', 'source_id', 'zone_id', 'status', 'mask', 'data'];
  const WEATHER = ['city_id', 'day', 'source_id', 'status', 'fetched_at', 'data'];
  const byDay = (table: string, columns: readonly string[], where = '') =>
    digestsBy<number>(db, rowsBy(table, 'day', 'city_id', columns, where));
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
  return {
    names: names.digest(),
    values: [byDay('day_value', VALUE, 'WHERE cut = 0'), byDay('day_value', VALUE, 'WHERE cut = 1')],
    pollen: byDay('pollen_day', POLLEN),
    weather: byDay('weather_day', WEATHER),
    cities,
  };
}

/** What a city without rows in a table digests as. */
const NONE = Buffer.alloc(0);
