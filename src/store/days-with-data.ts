/**
 * A day's rows across cities, for the day tables, which have no index by day (schema.ts, 9): read
 * city by city through the primary key (city_id, day), as day_value's are (day-values-table.ts, `across`).
 * Every city is one lookup per day, so that an ingest's commit writes no index pages
 * (docs/architecture.md, "The store"). `t` is the table's alias, `c` the city's; `hasData` says which rows count.
 */
import type { Db } from './database.js';
import type { Names } from './names.js';

/** What a day table's rows say day by day: the days with data, the newest and its provider, a day's cities. */
export class DaysWithData {
  private readonly table: string;
  private readonly hasData: string;
  private readonly db: Db;
  private readonly stmt;
  /** The newest day with data, and its provider: most answers ask, so a store nothing writes keeps them. */
  private readonly newest: () => number | null;
  private readonly provider: () => string | null;

  /** For day table `table` whose rows have data where `hasData` (on alias `t`) holds; `immutable`: nothing writes the file. */
  constructor(db: Db, names: Names, table: string, hasData: string, immutable: boolean) {
    [this.db, this.table, this.hasData] = [db, table, hasData];
    /** A city's newest day with data: its primary key read from the end, stopping at the first. */
    const newest = `(SELECT t.day FROM ${table} t WHERE t.city_id = c.id AND ${hasData} ORDER BY t.day DESC LIMIT 1)`;
    const end = (order: string) => `(SELECT t.day FROM ${table} t WHERE t.city_id = c.id ORDER BY t.day ${order} LIMIT 1)`;
    const latest = `SELECT max(${newest}) FROM city c`;
    this.stmt = {
      latest: db.prepare(latest).pluck(),
      // Each day from the newest held to the oldest, kept when a city has data on it.
      days: db
        .prepare(
          `WITH RECURSIVE bounds(lo, hi) AS (SELECT min(${end('ASC')}), max(${end('DESC')}) FROM city c),
             d(day) AS (SELECT hi FROM bounds WHERE hi IS NOT NULL UNION ALL SELECT d.day - 1 FROM d, bounds WHERE d.day > bounds.lo)
           SELECT day FROM d WHERE EXISTS (SELECT 1 FROM city c CROSS JOIN ${table} t ON t.city_id = c.id AND t.day = d.day WHERE ${hasData})
           ORDER BY day DESC`,
        )
        .pluck(),
      citiesOn: this.on('c.slug', 'AND c.active = 1 AND c.name IS NOT NULL ORDER BY c.slug').pluck(),
      // The provider of most of the newest day's rows with data (of the latest fetched, in a tie):
      // a few cities' days another provider replaced do not make it that provider's store.
      provider: this.on(
        't.source_id',
        'GROUP BY t.source_id ORDER BY count(*) DESC, max(t.fetched_at) DESC LIMIT 1',
        `(${latest})`,
      ).pluck(),
    };
    this.newest = keptIf(immutable, () => (this.stmt.latest.get() as number | null) ?? null);
    this.provider = keptIf(immutable, () => {
      const id = this.stmt.provider.get() as number | undefined;
      return id === undefined ? null : names.source(id);
    });
  }

  /**
   * `columns` of the rows with data on a day (`?`, or the SQL `day`), then `rest` (more conditions,
   * an order): CROSS JOIN keeps the city table outside.
   */
  on(columns: string, rest = '', day = '?') {
    return this.db.prepare(
      `SELECT ${columns} FROM city c CROSS JOIN ${this.table} t ON t.city_id = c.id AND t.day = ${day} WHERE ${this.hasData} ${rest}`,
    );
  }

  /** Every day with data, newest first. */
  days(): number[] {
    return this.stmt.days.all() as number[];
  }

  /** The newest day with data, or null for an empty table. */
  latestDay(): number | null {
    return this.newest();
  }

  /** The provider of most cities' newest day with data (the one that fills this store), or null before any. */
  latestSource(): string | null {
    return this.provider();
  }

  /** The served cities (active and named, as in the city set) with data on a day, by slug. */
  citiesOn(day: number): string[] {
    return this.stmt.citiesOn.all(day) as string[];
  }
}

/** An answer asked once and kept when `keep`, else asked each time. */
function keptIf<T>(keep: boolean, ask: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => {
    if (kept) return kept.value;
    const value = ask();
    if (keep) kept = { value };
    return value;
  };
}
