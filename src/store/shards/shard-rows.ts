/**
 * The store's rows as shards hold them (shard-format.ts): read in primary-key order, so the same
 * rows always make the same bytes.
 */
import { STORED_STATUSES } from '../../domain/day-status.js';
import type { Db } from '../database.js';
import type { CityRow, PollenRow, ValueRow, WeatherRow } from './shard-format.js';

const COMPLETE = STORED_STATUSES.complete;

export class ShardRows {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      cities: db.prepare('SELECT id, slug, name, state, lat, lon, timezone, active FROM city ORDER BY id').raw(),
      sources: db.prepare('SELECT id, name FROM source ORDER BY id').raw(),
      labels: db.prepare('SELECT id, text FROM label ORDER BY id').raw(),
      shapes: db.prepare('SELECT id, keys FROM species_shape ORDER BY id').raw(),
      pollenDays: db.prepare('SELECT city_id, day, mask, source_id FROM pollen_day WHERE mask <> 0 ORDER BY city_id, day').raw(),
      weatherDays: db.prepare(`SELECT city_id, day FROM weather_day WHERE status = ${COMPLETE} ORDER BY city_id, day`).raw(),
      valueDays: db.prepare('SELECT city_id, cut, day FROM day_value ORDER BY city_id, cut, day').raw(),
      cityPollen: db
        .prepare(
          'SELECT city_id, day, source_id, zone_id, mask, data FROM pollen_day WHERE city_id = ? AND day BETWEEN ? AND ? AND mask <> 0 ORDER BY day',
        )
        .raw(),
      cityWeather: db
        .prepare(
          `SELECT city_id, day, source_id, fetched_at, data FROM weather_day WHERE city_id = ? AND day BETWEEN ? AND ? AND status = ${COMPLETE} ORDER BY day`,
        )
        .raw(),
      cityValues: db
        .prepare('SELECT city_id, cut, day, data FROM day_value WHERE city_id = ? AND day BETWEEN ? AND ? ORDER BY cut, day')
        .raw(),
      // City by city through the primary key (CROSS JOIN keeps the city table outside): the day tables have no index by day (days-with-data.ts).
      dayPollen: db
        .prepare(
          'SELECT t.city_id, t.day, t.source_id, t.zone_id, t.mask, t.data FROM city c CROSS JOIN pollen_day t ON t.city_id = c.id AND t.day = ? WHERE t.mask <> 0 ORDER BY c.id',
        )
        .raw(),
      dayWeather: db
        .prepare(
          `SELECT t.city_id, t.day, t.source_id, t.fetched_at, t.data FROM city c CROSS JOIN weather_day t ON t.city_id = c.id AND t.day = ? WHERE t.status = ${COMPLETE} ORDER BY c.id`,
        )
        .raw(),
      dayValues: db
        .prepare(
          'SELECT t.city_id, t.cut, t.day, t.data FROM city c CROSS JOIN day_value t ON t.city_id = c.id AND t.cut = ? AND t.day = ? ORDER BY c.id',
        )
        .raw(),
      skills: db.prepare('SELECT c.slug, s.skill FROM forecast_skill s JOIN city c ON c.id = s.city_id ORDER BY c.slug').raw(),
      shapeIds: db.prepare('SELECT id FROM species_shape WHERE keys = ?').pluck(),
      // The statement of SpeciesShapes.all, word for word: its order is whatever plan SQLite makes of it.
      shapeKeys: db.prepare('SELECT keys FROM species_shape').pluck(),
    };
  }

  cities(): CityRow[] {
    return this.stmt.cities.all() as CityRow[];
  }

  sources(): Array<[number, string]> {
    return this.stmt.sources.all() as Array<[number, string]>;
  }

  labels(): Array<[number, string]> {
    return this.stmt.labels.all() as Array<[number, string]>;
  }

  shapes(): Array<[number, string]> {
    return this.stmt.shapes.all() as Array<[number, string]>;
  }

  /** The shapes' ids in the order `SpeciesShapes.all` gives them. */
  shapeOrder(): number[] {
    return (this.stmt.shapeKeys.all() as string[]).map((keys) => this.stmt.shapeIds.get(keys) as number);
  }

  /** Every pollen day with an hour: city, day, mask, provider. */
  pollenDays(): IterableIterator<[number, number, number, number]> {
    return this.stmt.pollenDays.iterate() as IterableIterator<[number, number, number, number]>;
  }

  weatherDays(): IterableIterator<[number, number]> {
    return this.stmt.weatherDays.iterate() as IterableIterator<[number, number]>;
  }

  valueDays(): IterableIterator<[number, 0 | 1, number]> {
    return this.stmt.valueDays.iterate() as IterableIterator<[number, 0 | 1, number]>;
  }

  /** A city's rows of the days `from` to `to`, by day. */
  cityRows(city: number, from: number, to: number): { pollen: PollenRow[]; weather: WeatherRow[]; values: ValueRow[] } {
    return {
      pollen: this.stmt.cityPollen.all(city, from, to) as PollenRow[],
      weather: this.stmt.cityWeather.all(city, from, to) as WeatherRow[],
      values: this.stmt.cityValues.all(city, from, to) as ValueRow[],
    };
  }

  /** Every city's rows of a day, by city. */
  dayRows(day: number): { pollen: PollenRow[]; weather: WeatherRow[]; values: ValueRow[] } {
    return {
      pollen: this.stmt.dayPollen.all(day) as PollenRow[],
      weather: this.stmt.dayWeather.all(day) as WeatherRow[],
      values: [...(this.stmt.dayValues.all(0, day) as ValueRow[]), ...(this.stmt.dayValues.all(1, day) as ValueRow[])],
    };
  }

  skills(): Array<[string, Uint8Array]> {
    return this.stmt.skills.all() as Array<[string, Uint8Array]>;
  }
}
