/**
 * A day's rows across cities, for the day tables, which have no index by day (schema.ts, 9): read
 * city by city through the primary key (city_id, day), as day_value's are (day-values.ts, `across`).
 * Every city is one lookup per day, where an index by day cost each ingest's commit about twenty
 * pages at 200 cities. `t` is the table's alias, `c` the city's; `hasData` says which rows count.
 */

/** SQL for a day table `table` whose rows have data where `hasData` (on alias `t`) holds. */
export function byDay(table: string, hasData: string) {
  /** A city's newest day with data: its primary key read from the end, stopping at the first. */
  const newest = `(SELECT t.day FROM ${table} t WHERE t.city_id = c.id AND ${hasData} ORDER BY t.day DESC LIMIT 1)`;
  const end = (order: string) => `(SELECT t.day FROM ${table} t WHERE t.city_id = c.id ORDER BY t.day ${order} LIMIT 1)`;
  /** The newest day with data of any city. */
  const latest = `SELECT max(${newest}) FROM city c`;
  return {
    latest,
    /** Every day with data, newest first: each day from the newest held to the oldest, kept when a city has data on it. */
    days: `WITH RECURSIVE bounds(lo, hi) AS (SELECT min(${end('ASC')}), max(${end('DESC')}) FROM city c),
        d(day) AS (SELECT hi FROM bounds WHERE hi IS NOT NULL UNION ALL SELECT d.day - 1 FROM d, bounds WHERE d.day > bounds.lo)
      SELECT day FROM d WHERE EXISTS (SELECT 1 FROM city c CROSS JOIN ${table} t ON t.city_id = c.id AND t.day = d.day WHERE ${hasData})
      ORDER BY day DESC`,
    /** `columns` of the rows with data on day `?` (CROSS JOIN keeps the city table outside). */
    on: (columns: string) => `SELECT ${columns} FROM city c CROSS JOIN ${table} t ON t.city_id = c.id AND t.day = ? WHERE ${hasData}`,
    /** The served cities (active and named, as in the city set) with data on day `?`, by slug. */
    citiesOn: `SELECT c.slug FROM city c CROSS JOIN ${table} t ON t.city_id = c.id AND t.day = ?
      WHERE ${hasData} AND c.active = 1 AND c.name IS NOT NULL ORDER BY c.slug`,
    /** The newest day's rows with data, the latest fetched first: its provider. */
    latestSource: `SELECT t.source_id FROM city c CROSS JOIN ${table} t ON t.city_id = c.id AND t.day = (${latest})
      WHERE ${hasData} ORDER BY t.fetched_at DESC LIMIT 1`,
  };
}
