/** Cached forecasts, one per city, in a writable store (the local cache; Netlify Blobs when deployed). */
import type { Db, Names, Row } from './database.js';

export interface CachedForecast {
  source: string;
  fetchedAt: number;
  rows: unknown[];
}

export class ForecastTable {
  private readonly stmt;

  constructor(
    db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      get: db.prepare('SELECT source_id, fetched_at, rows FROM forecast_cache WHERE city_id = ?'),
      put: db.prepare(
        `INSERT INTO forecast_cache (city_id, source_id, fetched_at, rows) VALUES (?, ?, ?, ?)
         ON CONFLICT (city_id) DO UPDATE SET source_id = excluded.source_id, fetched_at = excluded.fetched_at, rows = excluded.rows`,
      ),
    };
  }

  /** The cached forecast of a city, if any. */
  get(city: string): CachedForecast | undefined {
    const id = this.names.id('city', city);
    const row = id === undefined ? undefined : (this.stmt.get.get(id) as Row | undefined);
    return (
      row && {
        source: this.names.source(row.source_id as number),
        fetchedAt: row.fetched_at as number,
        rows: JSON.parse(row.rows as string) as unknown[],
      }
    );
  }

  /** Replaces the cached forecast of a city. */
  put(city: string, forecast: CachedForecast): void {
    this.stmt.put.run(
      this.names.id('city', city),
      this.names.id('source', forecast.source),
      forecast.fetchedAt,
      JSON.stringify(forecast.rows),
    );
  }
}
