/** Weather days: one row per city and UTC day, its measured fields packed (store/codec.ts). */

import { STORED_STATUSES, type StoredStatus, weatherStatus } from '../domain/day-status.js';
import type { StoredWeather, WeatherValues } from '../domain/weather.js';
import { decodeWeather, encodeWeather } from './codec.js';
import type { Db, Row } from './database.js';
import { DaysWithData } from './days-with-data.js';
import type { Names } from './names.js';
import type { WeatherReader } from './reader.js';
import { type StoredDay, storedDays } from './stored-days.js';

/** A city-day's weather as ingest writes it. */
export interface WeatherWrite {
  source: string;
  fetchedAt: number;
  values: WeatherValues;
}

const COMPLETE = STORED_STATUSES.complete;

/** A stored weather day, its packed fields decoded (texts by `label`). */
export function weatherOf(
  city: string,
  day: number,
  source: string,
  fetchedAt: number,
  data: Uint8Array,
  label: (id: number) => string,
): StoredWeather {
  return { city, day, source, fetchedAt, values: decodeWeather(data, label) };
}

export class WeatherDays implements WeatherReader {
  private readonly stmt;
  /** The days with data across cities (days-with-data.ts). */
  private readonly withData: DaysWithData;

  constructor(
    db: Db,
    private readonly names: Names,
    /** Nothing writes the file while it is open. */
    immutable = false,
  ) {
    this.withData = new DaysWithData(db, names, 'weather_day', `t.status = ${COMPLETE}`, immutable);
    this.stmt = {
      upsert: db.prepare(
        `INSERT INTO weather_day (city_id, day, source_id, status, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, status = excluded.status,
           fetched_at = excluded.fetched_at, data = excluded.data`,
      ),
      statusIn: db.prepare('SELECT day, status, source_id FROM weather_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      one: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND day = ? AND status = ${COMPLETE}`),
      forCity: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND status = ${COMPLETE} ORDER BY day DESC LIMIT ?`),
      span: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND day >= ? AND day <= ? AND status = ${COMPLETE} ORDER BY day`),
      forDay: this.withData.on('t.*, c.slug'),
    };
  }

  /** Writes a city-day's weather (inside the caller's transaction): complete with values, else empty. */
  put(city: number, day: number, w: WeatherWrite): StoredStatus {
    const status = weatherStatus(w.values);
    const data = encodeWeather(w.values, (text) => this.names.id('label', text)!);
    this.stmt.upsert.run(city, day, this.names.id('source', w.source), STORED_STATUSES[status], w.fetchedAt, data);
    return status;
  }

  /** The stored status of each of a city's days in [from, to]; days never asked are absent. */
  statuses(city: string, from: number, to: number): Map<number, StoredStatus> {
    return new Map([...this.storedDays(city, from, to)].map(([day, d]) => [day, d.status]));
  }

  /** Each of a city's stored days in [from, to] with its status and the provider that wrote it. */
  storedDays(city: string, from: number, to: number): Map<number, StoredDay> {
    return storedDays(this.names, this.stmt.statusIn, city, from, to);
  }

  /** One city-day of weather, or undefined. */
  cityDay(city: string, day: number): StoredWeather | undefined {
    const id = this.names.id('city', city);
    const row = id === undefined ? undefined : (this.stmt.one.get(id, day) as Row | undefined);
    return row && this.toWeather(city, row);
  }

  /** A city's most recent weather rows, newest first. */
  forCity(city: string, limit: number): StoredWeather[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.forCity.all(id, limit) as Row[]).map((r) => this.toWeather(city, r));
  }

  /** A city's weather rows of the days in [from, to], ascending. */
  span(city: string, from: number, to: number): StoredWeather[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.span.all(id, from, to) as Row[]).map((r) => this.toWeather(city, r));
  }

  /** Every city's weather on one day, in no particular order. */
  forDay(day: number): StoredWeather[] {
    return (this.stmt.forDay.all(day) as Row[]).map((r) => this.toWeather(r.slug as string, r));
  }

  /** Every day with a weather row, newest first. */
  days(): number[] {
    return this.withData.days();
  }

  /** The latest day with a weather row, or null. */
  latestDay(): number | null {
    return this.withData.latestDay();
  }

  /** The provider of the newest weather day, or null before any (asked once of a store nothing writes). */
  latestSource(): string | null {
    return this.withData.latestSource();
  }

  /** The served cities with a weather row on a UTC day, by slug. */
  citiesOn(day: number): string[] {
    return this.withData.citiesOn(day);
  }

  private toWeather(city: string, r: Row): StoredWeather {
    return weatherOf(city, r.day as number, this.names.source(r.source_id as number), r.fetched_at as number, r.data as Uint8Array, (id) =>
      this.names.label(id),
    );
  }
}
