/**
 * Cached forecasts, one per city and provider, in a writable store (the local cache; Netlify Blobs
 * when deployed): the hours as the provider's answer normalised them, and the zone it gave; for a
 * provider that gives days, its days instead.
 */
import type { PollenHour } from '../domain/hours.js';
import type { Db, Row } from './database.js';
import type { Names } from './names.js';

/** One date of a daily provider's forecast: its values as checked at fetch, and its own levels in its words. */
export interface CachedDay extends Omit<PollenHour, 'hour'> {
  /** `YYYY-MM-DD`, in the sense of the provider's `dayMeans`. */
  date: string;
  levels: Record<string, string> | null;
}

/** A daily provider's forecast as cached: enough to read its dates' leads again without the provider or the city. */
export interface CachedDays {
  /** What its dates mean: the place's calendar day, or the UTC day. */
  dayMeans: 'local' | 'utc';
  /** The place's zone: the issue day of a provider whose dates are the place's is its date at `fetchedAt`. */
  zone: string;
  /** Ascending, from the issue day. */
  days: CachedDay[];
}

export interface CachedForecast {
  source: string;
  /** When the provider answered, ms since epoch. */
  fetchedAt: number;
  timezone: string | null;
  /** Ascending; empty for a provider that gives days. */
  hours: PollenHour[];
  /** A daily provider's forecast; absent for an hourly one's. */
  daily?: CachedDays;
}

export class ForecastTable {
  private readonly stmt;

  constructor(
    db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      get: db.prepare('SELECT fetched_at, zone, hours, days FROM forecast_cache WHERE city_id = ? AND source_id = ?'),
      put: db.prepare(
        `INSERT INTO forecast_cache (city_id, source_id, fetched_at, zone, hours, days) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, source_id) DO UPDATE SET fetched_at = excluded.fetched_at, zone = excluded.zone, hours = excluded.hours, days = excluded.days`,
      ),
    };
  }

  /** The cached forecast of a city that `source` made, if any. */
  get(city: string, source: string): CachedForecast | undefined {
    const id = this.names.id('city', city);
    const sourceId = this.names.id('source', source);
    const row = id === undefined || sourceId === undefined ? undefined : (this.stmt.get.get(id, sourceId) as Row | undefined);
    if (!row) return undefined;
    const forecast: CachedForecast = {
      source,
      fetchedAt: row.fetched_at as number,
      timezone: row.zone as string | null,
      hours: JSON.parse(row.hours as string) as PollenHour[],
    };
    return row.days === null ? forecast : { ...forecast, daily: JSON.parse(row.days as string) as CachedDays };
  }

  /** Replaces the city's cached forecast of its provider (`forecast.source`). */
  put(city: string, forecast: CachedForecast): void {
    this.stmt.put.run(
      this.names.id('city', city),
      this.names.id('source', forecast.source),
      forecast.fetchedAt,
      forecast.timezone,
      JSON.stringify(forecast.hours),
      forecast.daily ? JSON.stringify(forecast.daily) : null,
    );
  }
}
