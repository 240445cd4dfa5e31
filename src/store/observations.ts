/**
 * Observations: one row per city-day of pollen (its hours packed, store/codec.ts) and of
 * weather, each with the status ingest gave it, and the log of ingest runs. Decoded days are
 * kept in a small cache, so the several answers a render makes from one day decode it once.
 */
import type { PollenHour, StoredHour } from '../domain/hours.js';
import { shapeKey, shapeOf, type Shape, type Species } from '../domain/species.js';
import { pollenStatus, STORED_STATUSES, statusOfCode, weatherStatus, type DataKind, type StoredStatus } from '../domain/status.js';
import type { StoredWeather, WeatherValues } from '../domain/weather.js';
import { decodeDay, decodeWeather, encodeDay, encodeWeather } from './codec.js';
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
const bitCount = (mask: number) => {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
};
/** The hours of a day's mask that fall in [fromHour, toHour). */
export const hoursIn = (day: number, mask: number, fromHour: number, toHour: number): number => {
  const lo = Math.max(0, fromHour - day * 24);
  const hi = Math.min(24, toHour - day * 24);
  return hi <= lo ? 0 : bitCount(mask & (((1 << hi) - 1) ^ ((1 << lo) - 1)));
};

/** Least recently used entries dropped past a capacity. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

/**
 * Decoded city-days kept (about 15 KB each). A render's day unit reads four UTC days of every
 * city (the map's three-day series in local days spans d-2 to d+1), and a worker renders runs of
 * consecutive days, so its next day shares three of them: 1,024 holds that for 256 cities. With
 * 256 the cache thrashed and a 200-city render took a fifth longer (measured with `build render`
 * on 200 cities x 90 days).
 */
const DECODED_DAYS = 1024;

export class Observations {
  protected readonly db: Db;
  protected readonly names: Names;
  private readonly shapes = new Map<number, Shape>();
  private readonly shapeIds = new Map<string, number>();
  /** Decoded hours of a city-day, keyed `cityId|day`; never mutated by readers. */
  private readonly decoded: Lru<StoredHour[]>;
  /** Per city, its days with pollen data, read once: only for an immutable store (OpenOptions.immutable). */
  private readonly dayIndex: Map<number, Set<number>> | undefined;
  private readonly stmt;

  constructor(db: Db, names: Names, immutable = false) {
    this.db = db;
    this.names = names;
    this.dayIndex = immutable ? new Map() : undefined;
    this.decoded = new Lru(DECODED_DAYS);
    this.stmt = {
      shapeId: db.prepare('SELECT id FROM species_shape WHERE keys = ?').pluck(),
      addShape: db.prepare('INSERT INTO species_shape (keys) VALUES (?) ON CONFLICT (keys) DO NOTHING'),
      shapeKeys: db.prepare('SELECT keys FROM species_shape WHERE id = ?').pluck(),
      allShapes: db.prepare('SELECT keys FROM species_shape').pluck(),
      longestLabel: db.prepare('SELECT coalesce(max(length(CAST(text AS BLOB))), 0) FROM label').pluck(),
      pollenDay: db.prepare('SELECT * FROM pollen_day WHERE city_id = ? AND day = ?'),
      upsertPollenDay: db.prepare(
        `INSERT INTO pollen_day (city_id, day, source_id, zone_id, status, mask, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, zone_id = coalesce(excluded.zone_id, zone_id),
           status = excluded.status, mask = excluded.mask, fetched_at = excluded.fetched_at, data = excluded.data`,
      ),
      upsertWeather: db.prepare(
        `INSERT INTO weather_day (city_id, day, source_id, status, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, status = excluded.status,
           fetched_at = excluded.fetched_at, data = excluded.data`,
      ),
      pollenStatusIn: db.prepare('SELECT day, status FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      weatherStatusIn: db.prepare('SELECT day, status FROM weather_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      daysIn: db.prepare('SELECT * FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND mask <> 0 ORDER BY day'),
      daysOfCity: db.prepare('SELECT day FROM pollen_day WHERE city_id = ? AND mask <> 0').pluck(),
      masksIn: db.prepare('SELECT day, mask FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND mask <> 0 ORDER BY day'),
      daysWithData: db.prepare('SELECT DISTINCT day FROM pollen_day WHERE mask <> 0 ORDER BY day DESC').pluck(),
      latestDay: db.prepare('SELECT max(day) FROM pollen_day WHERE mask <> 0').pluck(),
      masksOnDay: db.prepare('SELECT mask FROM pollen_day WHERE day = ? AND mask <> 0').pluck(),
      latestSource: db.prepare('SELECT source_id FROM pollen_day WHERE mask <> 0 ORDER BY day DESC, fetched_at DESC LIMIT 1').pluck(),
      citiesWithDataOn: db
        .prepare(
          'SELECT c.slug FROM pollen_day p JOIN city c ON c.id = p.city_id WHERE p.day = ? AND p.mask <> 0 AND c.active = 1 AND c.name IS NOT NULL ORDER BY c.slug',
        )
        .pluck(),
      citiesWithWeatherOn: db
        .prepare(
          `SELECT c.slug FROM weather_day w JOIN city c ON c.id = w.city_id WHERE w.day = ? AND w.status = ${COMPLETE} AND c.active = 1 AND c.name IS NOT NULL ORDER BY c.slug`,
        )
        .pluck(),
      cityDaysWithData: db.prepare('SELECT day FROM pollen_day WHERE city_id = ? AND mask <> 0 ORDER BY day DESC LIMIT ?').pluck(),
      weatherOne: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND day = ? AND status = ${COMPLETE}`),
      weatherForCity: db.prepare(`SELECT * FROM weather_day WHERE city_id = ? AND status = ${COMPLETE} ORDER BY day DESC LIMIT ?`),
      weatherForDay: db.prepare(
        `SELECT w.*, c.slug FROM weather_day w JOIN city c ON c.id = w.city_id WHERE w.day = ? AND w.status = ${COMPLETE}`,
      ),
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

  protected shape(id: number): Shape {
    let shape = this.shapes.get(id);
    if (shape === undefined) {
      shape = JSON.parse(this.stmt.shapeKeys.get(id) as string) as Shape;
      this.shapes.set(id, shape);
    }
    return shape;
  }

  /**
   * The hours of a stored day row, decoded once and then taken from the cache; `cache: false` for
   * a long stream, whose days would only push out the others and live long enough to burden the
   * old generation of the heap.
   */
  private hoursOf(cityId: number, r: Row, cache = true): StoredHour[] {
    const key = `${cityId}|${r.day as number}`;
    const cached = this.decoded.get(key);
    if (cached) return cached;
    const timezone = r.zone_id === null ? null : this.names.label(r.zone_id as number);
    const source = this.names.source(r.source_id as number);
    const hours = decodeDay(r.day as number, { mask: r.mask as number, data: r.data as Uint8Array | null }, (id) => this.shape(id)).map(
      // Written out, not spread: V8 promotes spread copies to the old generation, which grew a
      // server streaming ranges by 60 MB of garbage (npm run bench, B3).
      (h): StoredHour => ({
        hour: h.hour,
        tree: h.tree,
        grass: h.grass,
        weed: h.weed,
        total: h.total,
        species: h.species,
        timezone,
        source,
      }),
    );
    if (cache) this.decoded.set(key, hours);
    return hours;
  }

  /**
   * Writes one city-day atomically, with the status its content gives it (24 hours complete, some
   * partial, none empty; weather with values complete, else empty). Only the hours asked for are
   * replaced: a re-asked day keeps its hours outside them.
   */
  writeCityDay(write: CityDayWrite): { pollen?: StoredStatus; weather?: StoredStatus } {
    return this.db.transaction(() => {
      const written: { pollen?: StoredStatus; weather?: StoredStatus } = {};
      const city = this.names.id('city', write.city)!;
      this.decoded.delete(`${city}|${write.day}`);
      if (write.pollen) {
        const p = write.pollen;
        const first = write.day * 24;
        const asked = p.asked ?? { from: first, to: first + 24 };
        if (asked.from < first || asked.to > first + 24 || asked.from > asked.to)
          throw new RangeError(`hours ${asked.from}..${asked.to} are not within day ${write.day}`);
        for (const h of p.hours)
          if (h.hour < asked.from || h.hour >= asked.to)
            throw new RangeError(`hour ${h.hour} is outside the hours asked of day ${write.day}`);
        const old = this.stmt.pollenDay.get(city, write.day) as Row | undefined;
        const kept = old ? this.hoursOf(city, old).filter((h) => h.hour < asked.from || h.hour >= asked.to) : [];
        this.decoded.delete(`${city}|${write.day}`);
        const hours = [...kept.map(({ timezone: _t, source: _s, ...h }) => h), ...p.hours].sort((a, b) => a.hour - b.hour);
        const packed = encodeDay(write.day, hours, (s) => this.shapeIdFor(s));
        written.pollen = pollenStatus(hours.length);
        const zone = p.timezone === null ? null : this.names.id('label', p.timezone)!;
        this.stmt.upsertPollenDay.run(
          city,
          write.day,
          this.names.id('source', p.source),
          zone,
          STORED_STATUSES[written.pollen],
          packed.mask,
          p.fetchedAt,
          packed.data,
        );
      }
      if (write.weather) {
        const w = write.weather;
        written.weather = weatherStatus(w.values);
        const data = encodeWeather(w.values, (text) => this.names.id('label', text)!);
        this.stmt.upsertWeather.run(
          city,
          write.day,
          this.names.id('source', w.source),
          STORED_STATUSES[written.weather],
          w.fetchedAt,
          data,
        );
      }
      return written;
    })();
  }

  /** The stored status of each of a city's days in [from, to] of one kind of data; days never asked are absent. */
  statuses(city: string, kind: DataKind, from: number, to: number): Map<number, StoredStatus> {
    const id = this.names.id('city', city);
    const stmt = kind === 'pollen' ? this.stmt.pollenStatusIn : this.stmt.weatherStatusIn;
    return new Map(
      id === undefined ? [] : (stmt.all(id, from, to) as Row[]).map((r) => [r.day as number, statusOfCode(r.status as number)]),
    );
  }

  /** Hourly rows of a city with hour numbers in [fromHour, toHour), ascending. */
  hours(city: string, fromHour: number, toHour: number): StoredHour[] {
    // A plain loop, not the generator below: renders ask for a few hundred thousand short spans,
    // mostly of days decoded already. An immutable store knows its days without a query, and
    // reads a day's blob only when it is not decoded.
    const out: StoredHour[] = [];
    const id = this.names.id('city', city);
    if (id === undefined || toHour <= fromHour) return out;
    const add = (hours: readonly StoredHour[]) => {
      for (const h of hours) if (h.hour >= fromHour && h.hour < toHour) out.push(h);
    };
    const days = this.indexedDays(id);
    if (!days) {
      for (const r of this.stmt.daysIn.all(id, Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)) as Row[]) add(this.hoursOf(id, r));
      return out;
    }
    for (let day = Math.floor(fromHour / 24); day <= Math.floor((toHour - 1) / 24); day++) {
      if (days.has(day)) add(this.decoded.get(`${id}|${day}`) ?? this.hoursOf(id, this.stmt.pollenDay.get(id, day) as Row));
    }
    return out;
  }

  /** An immutable store's days with pollen data for a city (undefined otherwise). */
  private indexedDays(id: number): Set<number> | undefined {
    if (!this.dayIndex) return undefined;
    let days = this.dayIndex.get(id);
    if (!days) this.dayIndex.set(id, (days = new Set(this.stmt.daysOfCity.all(id) as number[])));
    return days;
  }

  /** The same rows as `hours`, a day at a time and past the cache, so a large range is never held whole. */
  *iterateHours(city: string, fromHour: number, toHour: number, cache = false): Generator<StoredHour> {
    const id = this.names.id('city', city);
    if (id === undefined || toHour <= fromHour) return;
    // One city's day rows are small (a few bytes of mask and blob a day), so they are read whole:
    // no cursor stays open between yields for concurrent streams to clash on.
    const rows = this.stmt.daysIn.all(id, Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)) as Row[];
    for (const r of rows) for (const h of this.hoursOf(id, r, cache)) if (h.hour >= fromHour && h.hour < toHour) yield h;
  }

  /**
   * Whether the rows of each city's window [from, to) number more than `limit`, and how many there
   * are up to it: hours, or with `dayOf` the days (as it groups hours) with an hour. Read from the
   * days' masks, stopping at the limit.
   */
  countUpTo(
    windows: ReadonlyArray<{ city: string; from: number; to: number; dayOf?: (hour: number) => number }>,
    limit: number,
  ): { count: number; more: boolean } {
    let count = 0;
    for (const { city, from, to, dayOf } of windows) {
      const id = this.names.id('city', city);
      if (id === undefined || to <= from) continue;
      let lastDay: number | undefined;
      for (const r of this.stmt.masksIn.iterate(id, Math.floor(from / 24), Math.floor((to - 1) / 24)) as Iterable<Row>) {
        const day = r.day as number;
        const mask = r.mask as number;
        if (!dayOf) count += hoursIn(day, mask, from, to);
        else {
          for (let h = Math.max(from, day * 24); h < Math.min(to, day * 24 + 24); h++) {
            if (!(mask & (1 << (h - day * 24)))) continue;
            const d = dayOf(h);
            if (d !== lastDay) {
              lastDay = d;
              count++;
            }
          }
        }
        if (count > limit) return { count: limit, more: true };
      }
    }
    return { count, more: false };
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
    const day = this.latestDay();
    if (day === null) return null;
    const highest = Math.max(...(this.stmt.masksOnDay.all(day) as number[]).map((m) => 31 - Math.clz32(m)));
    return day * 24 + highest;
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

  /** Every species key shape the store holds: what a species object of any of its hours can look like. */
  speciesShapes(): Shape[] {
    return (this.stmt.allShapes.all() as string[]).map((keys) => JSON.parse(keys) as Shape);
  }

  /** Bytes of the longest stored label (a zone an hour reports, a weather description), as UTF-8. */
  longestLabelBytes(): number {
    return this.stmt.longestLabel.get() as number;
  }

  /** The served cities (active and named, as in the city set) with a pollen observation on a UTC day, by slug. */
  citiesWithDataOn(day: number): string[] {
    return this.stmt.citiesWithDataOn.all(day) as string[];
  }

  /** The cities with a weather row on a UTC day, by slug. */
  citiesWithWeatherOn(day: number): string[] {
    return this.stmt.citiesWithWeatherOn.all(day) as string[];
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

  /** Every day with a weather row, newest first. */
  weatherDays(): number[] {
    return this.stmt.weatherDays.all() as number[];
  }

  /** The latest day with a weather row, or null. */
  latestWeatherDay(): number | null {
    return (this.stmt.latestWeatherDay.get() as number | null) ?? null;
  }

  private toWeather(city: string, r: Row): StoredWeather {
    const values = decodeWeather(r.data as Uint8Array, (id) => this.names.label(id));
    return { city, day: r.day as number, source: this.names.source(r.source_id as number), fetchedAt: r.fetched_at as number, values };
  }

  /** Logs a finished ingest run. */
  recordIngestRun(run: IngestRun): void {
    this.stmt.addRun.run(run.startedAt, run.finishedAt, run.pollen, run.weather, JSON.stringify(run.counts));
  }

  /** The most recent ingest run, if any. */
  lastIngestRun(): IngestRun | undefined {
    const r = this.stmt.lastRun.get() as Row | undefined;
    return (
      r && {
        startedAt: r.started_at as number,
        finishedAt: r.finished_at as number,
        pollen: r.pollen as string,
        weather: r.weather as string | null,
        counts: JSON.parse(r.counts as string) as Record<string, number>,
      }
    );
  }
}
