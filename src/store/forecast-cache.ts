/**
 * Cached forecasts, one per city, in a writable store (the local cache; Netlify Blobs when
 * deployed): the hours as the provider's answer normalised them, and the zone it gave.
 */
import type { PollenHour } from '../domain/hours.js';
import type { Db, Row } from './database.js';
import type { Names } from './names.js';

export interface CachedForecast {
  source: string;
  /** When the provider answered, ms since epoch. */
  fetchedAt: number;
  timezone: string | null;
  /** Ascending. */
  hours: PollenHour[];
}

export class ForecastTable {
  private readonly stmt;

  constructor(
    db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      get: db.prepare('SELECT source_id, fetched_at, zone, hours FROM forecast_cache WHERE city_id = ?'),
      put: db.prepare(
        `INSERT INTO forecast_cache (city_id, source_id, fetched_at, zone, hours) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (city_id) DO UPDATE SET source_id = excluded.source_id, fetched_at = excluded.fetched_at, zone = excluded.zone, hours = excluded.hours`,
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
        timezone: row.zone as string | null,
        hours: JSON.parse(row.hours as string) as PollenHour[],
      }
    );
  }

  /** Replaces the cached forecast of a city. */
  put(city: string, forecast: CachedForecast): void {
    this.stmt.put.run(
      this.names.id('city', city),
      this.names.id('source', forecast.source),
      forecast.fetchedAt,
      forecast.timezone,
      JSON.stringify(forecast.hours),
    );
  }
}
