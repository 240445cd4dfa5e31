/**
 * Observations: pollen hours and weather days per city-day, each with the status ingest gave it,
 * and the log of ingest runs. Hourly rows are keyed WITHOUT ROWID by (city, hour number); what is
 * the same for every hour of a city-day lives once in `pollen_day`; species payloads are split
 * into a shared key shape and a packed value blob (domain/species.ts).
 */
import type { PollenHour, StoredHour } from '../domain/hours.js';
import { decodeSpecies, encodeValues, shapeKey, shapeOf, type Shape, type Species } from '../domain/species.js';
import { pollenStatus, STORED_STATUSES, statusOfCode, weatherStatus, type DataKind, type StoredStatus } from '../domain/status.js';
import { WEATHER_FIELDS, type StoredWeather, type WeatherValues } from '../domain/weather.js';
import type { Db, Names, Row } from './database.js';

/** Everything ingested for one city and UTC day, written in one transaction. */
export interface CityDayWrite {
  city: string;
  day: number;
  pollen?: {
    source: string;
    timezone: string | null;
    fetchedAt: number;
    hours: readonly PollenHour[];
    /** The hours that were asked for (default: the whole day); stored hours of the day outside them are kept. */
    asked?: { from: number; to: number };
  };
  weather?: { source: string; fetchedAt: number; values: WeatherValues };
}

/** What one ingest run did, as `/api/health` reports it. */
export interface IngestRun {
  startedAt: number;
  finishedAt: number;
  pollen: string;
  weather: string | null;
  counts: Record<string, number>;
}

const COMPLETE = STORED_STATUSES.complete;

export class Observations {
  protected readonly db: Db;
  protected readonly names: Names;
  private readonly shapes = new Map<number, Shape>();
  private readonly shapeIds = new Map<string, number>();
  private readonly stmt;

  constructor(db: Db, names: Names) {
    this.db = db;
    this.names = names;
    this.stmt = {
      shapeId: db.prepare('SELECT id FROM species_shape WHERE keys = ?').pluck(),
      addShape: db.prepare('INSERT INTO species_shape (keys) VALUES (?) ON CONFLICT (keys) DO NOTHING'),
      shapeKeys: db.prepare('SELECT keys FROM species_shape WHERE id = ?').pluck(),
      upsertPollenDay: db.prepare(
        `INSERT INTO pollen_day (city_id, day, source_id, timezone, hours, fetched_at, status) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, timezone = coalesce(excluded.timezone, timezone),
           hours = excluded.hours, fetched_at = excluded.fetched_at, status = excluded.status`,
      ),
      deleteHours: db.prepare('DELETE FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?'),
      upsertHour: db.prepare(
        `INSERT INTO pollen_hour (city_id, hour, tree, grass, weed, total, shape_id, species) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, hour) DO UPDATE SET tree = excluded.tree, grass = excluded.grass, weed = excluded.weed,
           total = excluded.total, shape_id = excluded.shape_id, species = excluded.species`,
      ),
      upsertWeather: db.prepare(
        `INSERT INTO weather_day (city_id, day, source_id, fetched_at, status, ${WEATHER_FIELDS.join(', ')})
         VALUES (?, ?, ?, ?, ?, ${WEATHER_FIELDS.map(() => '?').join(', ')})
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, fetched_at = excluded.fetched_at, status = excluded.status,
           ${WEATHER_FIELDS.map((f) => `${f} = excluded.${f}`).join(', ')}`,
      ),
      pollenStatusIn: db.prepare('SELECT day, status FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      weatherStatusIn: db.prepare('SELECT day, status FROM weather_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      hours: db.prepare(
        `SELECT hour, tree, grass, weed, total, shape_id, species FROM pollen_hour
         WHERE city_id = ? AND hour >= ? AND hour < ? ORDER BY hour`,
      ),
      daysMeta: db.prepare('SELECT day, timezone, source_id FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      countHours: db.prepare('SELECT count(*) FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?').pluck(),
      countHourDays: db.prepare('SELECT count(DISTINCT hour / 24) FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?').pluck(),
      daysWithData: db.prepare('SELECT DISTINCT day FROM pollen_day WHERE hours > 0 ORDER BY day DESC').pluck(),
      latestDay: db.prepare('SELECT max(day) FROM pollen_day WHERE hours > 0').pluck(),
      latestHour: db.prepare(
        `SELECT max((SELECT max(hour) FROM pollen_hour h WHERE h.city_id = d.city_id AND h.hour >= d.day * 24 AND h.hour < d.day * 24 + 24))
         FROM pollen_day d WHERE d.day = (SELECT max(day) FROM pollen_day WHERE hours > 0)`,
      ).pluck(),
      latestSource: db.prepare('SELECT source_id FROM pollen_day WHERE hours > 0 ORDER BY day DESC, fetched_at DESC LIMIT 1').pluck(),
      cityDaysWithData: db.prepare('SELECT day FROM pollen_day WHERE city_id = ? AND hours > 0 ORDER BY day DESC LIMIT ?').pluck(),
      weatherOne: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND day = ? AND status = ${COMPLETE}`),
      weatherForCity: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND status = ${COMPLETE} ORDER BY day DESC LIMIT ?`),
      weatherForDay: db.prepare(`SELECT w.*, c.slug FROM weather_day w JOIN city c ON c.id = w.city_id WHERE w.day = ? AND w.status = ${COMPLETE}`),
      pollenDaysByCity: db.prepare('SELECT c.slug, d.day FROM pollen_day d JOIN city c ON c.id = d.city_id WHERE d.hours > 0 ORDER BY c.slug, d.day DESC'),
      weatherDaysByCity: db.prepare(`SELECT c.slug, w.day FROM weather_day w JOIN city c ON c.id = w.city_id WHERE w.status = ${COMPLETE} ORDER BY c.slug, w.day DESC`),
      fetchTimes: db.prepare(
        `SELECT 'pollen' AS kind, c.slug, d.day, d.fetched_at FROM pollen_day d JOIN city c ON c.id = d.city_id
         UNION ALL SELECT 'weather', c.slug, w.day, w.fetched_at FROM weather_day w JOIN city c ON c.id = w.city_id`,
      ),
      pollenDayVersions: db.prepare('SELECT day, fetched_at FROM pollen_day WHERE city_id = ? AND hours > 0'),
      weatherDays: db.prepare(`SELECT DISTINCT day FROM weather_day WHERE status = ${COMPLETE} ORDER BY day DESC`).pluck(),
      latestWeatherDay: db.prepare(`SELECT max(day) FROM weather_day WHERE status = ${COMPLETE}`).pluck(),
      addRun: db.prepare('INSERT INTO ingest_run (started_at, finished_at, pollen, weather, counts) VALUES (?, ?, ?, ?, ?)'),
      lastRun: db.prepare('SELECT * FROM ingest_run ORDER BY finished_at DESC, id DESC LIMIT 1'),
    };
  }

  private shapeIdFor(species: Species): number {
    const key = shapeKey(species);
    let id = this.shapeIds.get(key);
    if (id === undefined) {
      const keys = JSON.stringify(shapeOf(species));
      this.stmt.addShape.run(keys);
      id = this.stmt.shapeId.get(keys) as number;
      this.shapeIds.set(key, id);
    }
    return id;
  }

  private shape(id: number): Shape {
    let shape = this.shapes.get(id);
    if (shape === undefined) {
      shape = JSON.parse(this.stmt.shapeKeys.get(id) as string) as Shape;
      this.shapes.set(id, shape);
    }
    return shape;
  }

  /**
   * Writes one city-day atomically, with the status its content gives it (24 hours complete, some
   * partial, none empty; weather with values complete, else empty). Hours of a re-fetched day that
   * the provider no longer sends are removed.
   */
  writeCityDay(write: CityDayWrite): { pollen?: StoredStatus; weather?: StoredStatus } {
    return this.db.transaction(() => {
      const written: { pollen?: StoredStatus; weather?: StoredStatus } = {};
      const city = this.names.id('city', write.city)!;
      if (write.pollen) {
        const p = write.pollen;
        const first = write.day * 24;
        const asked = p.asked ?? { from: first, to: first + 24 };
        if (asked.from < first || asked.to > first + 24 || asked.from > asked.to) throw new RangeError(`hours ${asked.from}..${asked.to} are not within day ${write.day}`);
        this.stmt.deleteHours.run(city, asked.from, asked.to);
        for (const h of p.hours) {
          if (h.hour < asked.from || h.hour >= asked.to) throw new RangeError(`hour ${h.hour} is outside the hours asked of day ${write.day}`);
          const species = h.species === null ? [null, null] : [this.shapeIdFor(h.species), encodeValues(h.species)];
          this.stmt.upsertHour.run(city, h.hour, h.tree, h.grass, h.weed, h.total, ...species);
        }
        const hours = this.stmt.countHours.get(city, first, first + 24) as number;
        written.pollen = pollenStatus(hours);
        this.stmt.upsertPollenDay.run(city, write.day, this.names.id('source', p.source), p.timezone, hours, p.fetchedAt, STORED_STATUSES[written.pollen]);
      }
      if (write.weather) {
        const w = write.weather;
        written.weather = weatherStatus(w.values);
        this.stmt.upsertWeather.run(city, write.day, this.names.id('source', w.source), w.fetchedAt, STORED_STATUSES[written.weather], ...WEATHER_FIELDS.map((f) => w.values[f] ?? null));
      }
      return written;
    })();
  }

  /** The stored status of each of a city's days in [from, to] of one kind of data; days never asked are absent. */
  statuses(city: string, kind: DataKind, from: number, to: number): Map<number, StoredStatus> {
    const id = this.names.id('city', city);
    const stmt = kind === 'pollen' ? this.stmt.pollenStatusIn : this.stmt.weatherStatusIn;
    return new Map(id === undefined ? [] : (stmt.all(id, from, to) as Row[]).map((r) => [r.day as number, statusOfCode(r.status as number)]));
  }

  /** Hourly rows of a city with hour numbers in [fromHour, toHour), ascending. */
  hours(city: string, fromHour: number, toHour: number): StoredHour[] {
    const id = this.names.id('city', city);
    if (id === undefined) return [];
    const meta = this.dayMeta(id, fromHour, toHour);
    return (this.stmt.hours.all(id, fromHour, toHour) as Row[]).map((r) => this.toHour(r, meta));
  }

  /** Time zone and source of each city-day in an hour range, read once rather than joined per hour. */
  private dayMeta(id: number, fromHour: number, toHour: number): Map<number, { timezone: string | null; source: string }> {
    const rows = this.stmt.daysMeta.all(id, Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)) as Row[];
    return new Map(rows.map((r) => [r.day as number, { timezone: r.timezone as string | null, source: this.names.source(r.source_id as number) }]));
  }

  /** The same rows as `hours`, read one at a time, so a large range is never held whole. */
  *iterateHours(city: string, fromHour: number, toHour: number): Generator<StoredHour> {
    const id = this.names.id('city', city);
    if (id === undefined) return;
    // A statement of its own: concurrent streams would otherwise share one cursor and clash.
    const stmt = this.db.prepare(this.stmt.hours.source);
    const meta = this.dayMeta(id, fromHour, toHour);
    for (const r of stmt.iterate(id, fromHour, toHour) as Iterable<Row>) yield this.toHour(r, meta);
  }

  /** How many hourly rows, or distinct UTC days with rows, a city has in [fromHour, toHour). */
  countHours(city: string, fromHour: number, toHour: number, per: 'hour' | 'day' = 'hour'): number {
    const id = this.names.id('city', city);
    return id === undefined ? 0 : ((per === 'hour' ? this.stmt.countHours : this.stmt.countHourDays).get(id, fromHour, toHour) as number);
  }

  private toHour(r: Row, meta: Map<number, { timezone: string | null; source: string }>): StoredHour {
    const day = meta.get(Math.floor((r.hour as number) / 24));
    return {
      hour: r.hour as number,
      tree: r.tree as number | null,
      grass: r.grass as number | null,
      weed: r.weed as number | null,
      total: r.total as number,
      species: r.shape_id === null ? null : decodeSpecies(this.shape(r.shape_id as number), r.species as Uint8Array),
      timezone: day?.timezone ?? null,
      source: day?.source ?? 'unknown',
    };
  }

  /** Every UTC day with at least one pollen observation, newest first. */
  daysWithData(): number[] {
    return this.stmt.daysWithData.all() as number[];
  }

  /** The latest UTC day with a pollen observation, or null for an empty store. */
  latestDay(): number | null {
    return (this.stmt.latestDay.get() as number | null) ?? null;
  }

  /** The newest stored hour (hours since epoch), or null for an empty store. */
  latestHour(): number | null {
    return (this.stmt.latestHour.get() as number | null) ?? null;
  }

  /** The provider of the newest pollen day: the one that fills this store. */
  latestSource(): string | null {
    const id = this.stmt.latestSource.get() as number | undefined;
    return id === undefined ? null : this.names.source(id);
  }

  /** The most recent days (newest first, at most `limit`) with observations for a city. */
  cityDaysWithData(city: string, limit: number): number[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.cityDaysWithData.all(id, limit) as number[]);
  }

  /** One city-day of weather, or undefined. */
  weather(city: string, day: number): StoredWeather | undefined {
    const id = this.names.id('city', city);
    const row = id === undefined ? undefined : (this.stmt.weatherOne.get(id, day) as Row | undefined);
    return row && this.toWeather(city, row);
  }

  /** A city's most recent weather rows, newest first. */
  weatherForCity(city: string, limit: number): StoredWeather[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.weatherForCity.all(id, limit) as Row[]).map((r) => this.toWeather(city, r));
  }

  /** Every city's weather on one day, in no particular order. */
  weatherForDay(day: number): StoredWeather[] {
    return (this.stmt.weatherForDay.all(day) as Row[]).map((r) => this.toWeather(r.slug as string, r));
  }

  /** The days with data of every city that has any, newest first. */
  daysByCity(kind: 'pollen' | 'weather'): Map<string, number[]> {
    const out = new Map<string, number[]>();
    const stmt = kind === 'pollen' ? this.stmt.pollenDaysByCity : this.stmt.weatherDaysByCity;
    for (const { slug, day } of stmt.all() as Array<{ slug: string; day: number }>) {
      const list = out.get(slug);
      if (list) list.push(day);
      else out.set(slug, [day]);
    }
    return out;
  }

  /** When each stored city-day was fetched, keyed `kind|city|day`: what a render compares to find changes. */
  fetchTimes(): Map<string, number> {
    const rows = this.stmt.fetchTimes.all() as Array<{ kind: string; slug: string; day: number; fetched_at: number }>;
    return new Map(rows.map((r) => [`${r.kind}|${r.slug}|${r.day}`, r.fetched_at]));
  }

  /** When each of a city's days with pollen data was fetched: the version of that day's answers. */
  pollenDayVersions(city: string): Map<number, number> {
    const id = this.names.id('city', city);
    const rows = id === undefined ? [] : (this.stmt.pollenDayVersions.all(id) as Array<{ day: number; fetched_at: number }>);
    return new Map(rows.map((r) => [r.day, r.fetched_at]));
  }

  /** Every day with a weather row, newest first. */
  weatherDays(): number[] {
    return this.stmt.weatherDays.all() as number[];
  }

  /** The latest day with a weather row, or null. */
  latestWeatherDay(): number | null {
    return (this.stmt.latestWeatherDay.get() as number | null) ?? null;
  }

  private toWeather(city: string, r: Row): StoredWeather {
    const values: Record<string, unknown> = {};
    for (const f of WEATHER_FIELDS) if (r[f] !== null) values[f] = r[f];
    return { city, day: r.day as number, source: this.names.source(r.source_id as number), fetchedAt: r.fetched_at as number, values: values as WeatherValues };
  }

  /** Logs a finished ingest run. */
  recordIngestRun(run: IngestRun): void {
    this.stmt.addRun.run(run.startedAt, run.finishedAt, run.pollen, run.weather, JSON.stringify(run.counts));
  }

  /** The most recent ingest run, if any. */
  lastIngestRun(): IngestRun | undefined {
    const r = this.stmt.lastRun.get() as Row | undefined;
    return r && { startedAt: r.started_at as number, finishedAt: r.finished_at as number, pollen: r.pollen as string, weather: r.weather as string | null, counts: JSON.parse(r.counts as string) as Record<string, number> };
  }
}
