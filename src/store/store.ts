/** The SQLite store: the only module that talks to better-sqlite3. */
import { createHash } from 'node:crypto';
import { mkdirSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { decodeSpecies, encodeValues, shapeKey, shapeOf, type Shape, type Species } from '../domain/species.js';
import { WEATHER_FIELDS, type WeatherValues } from '../domain/weather.js';
import { DATA_TABLES, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** One stored hour of pollen, as the API reads it. */
export interface PollenHour {
  hour: number;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  total: number;
  species: Species | null;
}

/** Everything ingested for one city and UTC day, written in one transaction. */
export interface CityDayWrite {
  city: string;
  day: number;
  pollen?: { source: string; timezone: string | null; fetchedAt: number; hours: readonly PollenHour[] };
  weather?: { source: string; fetchedAt: number; values: WeatherValues };
}

/** A stored hour with what its city-day says about it. */
export interface StoredHour extends PollenHour {
  timezone: string | null;
  source: string;
}

/** A stored weather row. */
export interface StoredWeather {
  city: string;
  day: number;
  source: string;
  fetchedAt: number;
  values: WeatherValues;
}

export interface CachedForecast {
  source: string;
  fetchedAt: number;
  rows: unknown[];
}

export type CallPurpose = 'ingest' | 'forecast';

export interface OpenOptions {
  readonly?: boolean;
}

/** Default store location, overridable with POLLEN_DB. */
export const DEFAULT_DB_PATH = 'snapshots/pollen.db';

export class StoreVersionError extends Error {}

type Row = Record<string, unknown>;

/** Opens (and, unless read-only, creates and migrates) the store at `path`. */
export function openStore(path: string, options: OpenOptions = {}): Store {
  return new Store(path, options.readonly ?? false);
}

export class Store {
  readonly path: string;
  readonly readonly: boolean;
  private readonly db: Database.Database;
  private readonly ids = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly shapes = new Map<number, Shape>();
  private readonly shapeIds = new Map<string, number>();
  private readonly stmt: ReturnType<Store['prepare']>;

  constructor(path: string, readonly: boolean) {
    this.path = path;
    this.readonly = readonly;
    if (!readonly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    if (readonly && !existsSync(path)) throw new StoreVersionError(`no store at ${path}; run \`npm run ingest\` first`);
    this.db = new Database(path, { readonly, fileMustExist: readonly });
    if (readonly) {
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version !== SCHEMA_VERSION) {
        this.db.close();
        throw new StoreVersionError(`store ${path} has schema version ${version}, this code reads ${SCHEMA_VERSION}`);
      }
    } else {
      // WAL keeps per-day commits cheap and is crash-safe; close() folds it back into one file.
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('foreign_keys = ON');
      this.migrate();
    }
    this.stmt = this.prepare();
  }

  private migrate(): void {
    const current = this.db.pragma('user_version', { simple: true }) as number;
    for (let v = current; v < MIGRATIONS.length; v++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]!);
        this.db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  private prepare() {
    const db = this.db;
    return {
      cityId: db.prepare('SELECT id FROM city WHERE slug = ?').pluck(),
      addCity: db.prepare('INSERT INTO city (slug) VALUES (?) ON CONFLICT (slug) DO NOTHING'),
      sourceId: db.prepare('SELECT id FROM source WHERE name = ?').pluck(),
      addSource: db.prepare('INSERT INTO source (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
      sourceName: db.prepare('SELECT name FROM source WHERE id = ?').pluck(),
      shapeId: db.prepare('SELECT id FROM species_shape WHERE keys = ?').pluck(),
      addShape: db.prepare('INSERT INTO species_shape (keys) VALUES (?) ON CONFLICT (keys) DO NOTHING'),
      shapeKeys: db.prepare('SELECT keys FROM species_shape WHERE id = ?').pluck(),
      upsertPollenDay: db.prepare(
        `INSERT INTO pollen_day (city_id, day, source_id, timezone, hours, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, timezone = excluded.timezone,
           hours = excluded.hours, fetched_at = excluded.fetched_at`,
      ),
      deleteHours: db.prepare('DELETE FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?'),
      upsertHour: db.prepare(
        `INSERT INTO pollen_hour (city_id, hour, tree, grass, weed, total, shape_id, species) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, hour) DO UPDATE SET tree = excluded.tree, grass = excluded.grass, weed = excluded.weed,
           total = excluded.total, shape_id = excluded.shape_id, species = excluded.species`,
      ),
      upsertWeather: db.prepare(
        `INSERT INTO weather_day (city_id, day, source_id, fetched_at, ${WEATHER_FIELDS.join(', ')})
         VALUES (?, ?, ?, ?, ${WEATHER_FIELDS.map(() => '?').join(', ')})
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, fetched_at = excluded.fetched_at,
           ${WEATHER_FIELDS.map((f) => `${f} = excluded.${f}`).join(', ')}`,
      ),
      pollenDaysIn: db.prepare('SELECT day FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?').pluck(),
      weatherDaysIn: db.prepare('SELECT day FROM weather_day WHERE city_id = ? AND day >= ? AND day <= ?').pluck(),
      hours: db.prepare(
        `SELECT hour, tree, grass, weed, total, shape_id, species FROM pollen_hour
         WHERE city_id = ? AND hour >= ? AND hour < ? ORDER BY hour`,
      ),
      daysMeta: db.prepare('SELECT day, timezone, source_id FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      countHours: db.prepare('SELECT count(*) FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?').pluck(),
      countHourDays: db.prepare('SELECT count(DISTINCT hour / 24) FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ?').pluck(),
      daysWithData: db.prepare('SELECT DISTINCT day FROM pollen_day WHERE hours > 0 ORDER BY day DESC').pluck(),
      latestDay: db.prepare('SELECT max(day) FROM pollen_day WHERE hours > 0').pluck(),
      cityDaysWithData: db.prepare(
        'SELECT day FROM pollen_day WHERE city_id = ? AND hours > 0 ORDER BY day DESC LIMIT ?',
      ).pluck(),
      weatherOne: db.prepare('SELECT * FROM weather_day WHERE city_id = ? AND day = ?'),
      weatherForCity: db.prepare('SELECT * FROM weather_day WHERE city_id = ? ORDER BY day DESC LIMIT ?'),
      weatherForDay: db.prepare('SELECT w.*, c.slug FROM weather_day w JOIN city c ON c.id = w.city_id WHERE w.day = ?'),
      pollenDaysByCity: db.prepare('SELECT c.slug, d.day FROM pollen_day d JOIN city c ON c.id = d.city_id WHERE d.hours > 0 ORDER BY c.slug, d.day DESC'),
      weatherDaysByCity: db.prepare('SELECT c.slug, w.day FROM weather_day w JOIN city c ON c.id = w.city_id ORDER BY c.slug, w.day DESC'),
      fetchTimes: db.prepare(
        `SELECT 'pollen' AS kind, c.slug, d.day, d.fetched_at FROM pollen_day d JOIN city c ON c.id = d.city_id
         UNION ALL SELECT 'weather', c.slug, w.day, w.fetched_at FROM weather_day w JOIN city c ON c.id = w.city_id`,
      ),
      pollenDayVersions: db.prepare('SELECT day, fetched_at FROM pollen_day WHERE city_id = ? AND hours > 0'),
      weatherDays: db.prepare('SELECT DISTINCT day FROM weather_day ORDER BY day DESC').pluck(),
      latestWeatherDay: db.prepare('SELECT max(day) FROM weather_day').pluck(),
      forecast: db.prepare('SELECT source_id, fetched_at, rows FROM forecast_cache WHERE city_id = ?'),
      putForecast: db.prepare(
        `INSERT INTO forecast_cache (city_id, source_id, fetched_at, rows) VALUES (?, ?, ?, ?)
         ON CONFLICT (city_id) DO UPDATE SET source_id = excluded.source_id, fetched_at = excluded.fetched_at, rows = excluded.rows`,
      ),
      addCalls: db.prepare(
        `INSERT INTO upstream_call (provider, day, purpose, calls) VALUES (?, ?, ?, ?)
         ON CONFLICT (provider, day, purpose) DO UPDATE SET calls = calls + excluded.calls`,
      ),
      callsOn: db.prepare('SELECT purpose, calls FROM upstream_call WHERE provider = ? AND day = ?'),
    };
  }

  /** Id of a named row in a lookup table, created when writing and missing. */
  private idOf(kind: 'city' | 'source', name: string): number | undefined {
    const key = `${kind}:${name}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const [find, add] = kind === 'city' ? [this.stmt.cityId, this.stmt.addCity] : [this.stmt.sourceId, this.stmt.addSource];
    let id = find.get(name) as number | undefined;
    if (id === undefined && !this.readonly) {
      add.run(name);
      id = find.get(name) as number;
    }
    if (id !== undefined) this.ids.set(key, id);
    return id;
  }

  private sourceName(id: number): string {
    const key = String(id);
    let name = this.names.get(key);
    if (name === undefined) {
      name = this.stmt.sourceName.get(id) as string;
      this.names.set(key, name);
    }
    return name;
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

  /** Writes one city-day atomically; hours of a re-fetched day that the provider no longer sends are removed. */
  writeCityDay(write: CityDayWrite): void {
    this.db.transaction(() => {
      const city = this.idOf('city', write.city)!;
      if (write.pollen) {
        const p = write.pollen;
        const first = write.day * 24;
        this.stmt.deleteHours.run(city, first, first + 24);
        for (const h of p.hours) {
          if (h.hour < first || h.hour >= first + 24) throw new RangeError(`hour ${h.hour} is outside day ${write.day}`);
          const species = h.species === null ? [null, null] : [this.shapeIdFor(h.species), encodeValues(h.species)];
          this.stmt.upsertHour.run(city, h.hour, h.tree, h.grass, h.weed, h.total, ...species);
        }
        this.stmt.upsertPollenDay.run(city, write.day, this.idOf('source', p.source), p.timezone, p.hours.length, p.fetchedAt);
      }
      if (write.weather) {
        const w = write.weather;
        this.stmt.upsertWeather.run(
          city, write.day, this.idOf('source', w.source), w.fetchedAt, ...WEATHER_FIELDS.map((f) => w.values[f] ?? null),
        );
      }
    })();
  }

  /** Days in [from, to] already stored for a city, per kind of data. */
  storedDays(city: string, from: number, to: number): { pollen: Set<number>; weather: Set<number> } {
    const id = this.idOf('city', city);
    if (id === undefined) return { pollen: new Set(), weather: new Set() };
    return {
      pollen: new Set(this.stmt.pollenDaysIn.all(id, from, to) as number[]),
      weather: new Set(this.stmt.weatherDaysIn.all(id, from, to) as number[]),
    };
  }

  /** Hourly rows of a city with hour numbers in [fromHour, toHour), ascending. */
  hours(city: string, fromHour: number, toHour: number): StoredHour[] {
    const id = this.idOf('city', city);
    if (id === undefined) return [];
    const meta = this.dayMeta(id, fromHour, toHour);
    return (this.stmt.hours.all(id, fromHour, toHour) as Row[]).map((r) => this.toHour(r, meta));
  }

  /** Time zone and source of each city-day in an hour range, read once rather than joined per hour. */
  private dayMeta(id: number, fromHour: number, toHour: number): Map<number, { timezone: string | null; source: string }> {
    const rows = this.stmt.daysMeta.all(id, Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)) as Row[];
    return new Map(rows.map((r) => [r.day as number, { timezone: r.timezone as string | null, source: this.sourceName(r.source_id as number) }]));
  }

  /** The same rows as `hours`, read one at a time, so a large range is never held whole. */
  *iterateHours(city: string, fromHour: number, toHour: number): Generator<StoredHour> {
    const id = this.idOf('city', city);
    if (id === undefined) return;
    // A statement of its own: concurrent streams would otherwise share one cursor and clash.
    const stmt = this.db.prepare(this.stmt.hours.source);
    const meta = this.dayMeta(id, fromHour, toHour);
    for (const r of stmt.iterate(id, fromHour, toHour) as Iterable<Row>) yield this.toHour(r, meta);
  }

  /** How many hourly rows, or distinct UTC days with rows, a city has in [fromHour, toHour). */
  countHours(city: string, fromHour: number, toHour: number, per: 'hour' | 'day' = 'hour'): number {
    const id = this.idOf('city', city);
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

  /** The most recent days (newest first, at most `limit`) with observations for a city. */
  cityDaysWithData(city: string, limit: number): number[] {
    const id = this.idOf('city', city);
    return id === undefined ? [] : (this.stmt.cityDaysWithData.all(id, limit) as number[]);
  }

  /** One city-day of weather, or undefined. */
  weather(city: string, day: number): StoredWeather | undefined {
    const id = this.idOf('city', city);
    const row = id === undefined ? undefined : (this.stmt.weatherOne.get(id, day) as Row | undefined);
    return row && this.toWeather(city, row);
  }

  /** A city's most recent weather rows, newest first. */
  weatherForCity(city: string, limit: number): StoredWeather[] {
    const id = this.idOf('city', city);
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
    const id = this.idOf('city', city);
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
    return { city, day: r.day as number, source: this.sourceName(r.source_id as number), fetchedAt: r.fetched_at as number, values: values as WeatherValues };
  }

  /** The cached forecast of a city, if any. */
  cachedForecast(city: string): CachedForecast | undefined {
    const id = this.idOf('city', city);
    const row = id === undefined ? undefined : (this.stmt.forecast.get(id) as Row | undefined);
    return row && { source: this.sourceName(row.source_id as number), fetchedAt: row.fetched_at as number, rows: JSON.parse(row.rows as string) as unknown[] };
  }

  /** Replaces the cached forecast of a city. */
  putForecast(city: string, forecast: CachedForecast): void {
    this.db.transaction(() => {
      this.stmt.putForecast.run(this.idOf('city', city), this.idOf('source', forecast.source), forecast.fetchedAt, JSON.stringify(forecast.rows));
    })();
  }

  /** Counts upstream calls against a provider's UTC day. */
  recordCalls(provider: string, day: string, purpose: CallPurpose, calls = 1): void {
    this.stmt.addCalls.run(provider, day, purpose, calls);
  }

  /** Upstream calls made to a provider on a UTC day, per purpose. */
  callsOn(provider: string, day: string): Record<CallPurpose, number> {
    const out: Record<CallPurpose, number> = { ingest: 0, forecast: 0 };
    for (const r of this.stmt.callsOn.all(provider, day) as Row[]) out[r.purpose as CallPurpose] = r.calls as number;
    return out;
  }

  /** Row counts of the data tables. */
  counts(): Record<string, number> {
    return Object.fromEntries(
      DATA_TABLES.map(([t]) => [t, this.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
    );
  }

  /**
   * SHA-256 over every data table in key order. `ignore` leaves out columns such as fetch times,
   * to compare two stores filled at different moments.
   */
  checksum(ignore: readonly string[] = []): string {
    const hash = createHash('sha256');
    for (const [table, orderBy] of DATA_TABLES) {
      hash.update(`\n#${table}\n`);
      for (const row of this.db.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).iterate() as Iterable<Row>) {
        for (const [k, v] of Object.entries(row)) {
          if (ignore.includes(k)) continue;
          hash.update(v instanceof Uint8Array ? `${k}=x${Buffer.from(v).toString('hex')};` : `${k}=${JSON.stringify(v)};`);
        }
        hash.update('\n');
      }
    }
    return hash.digest('hex');
  }

  /** Bytes each table and index takes in the file (SQLite's dbstat). */
  tableBytes(): Record<string, number> {
    const rows = this.db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Row[];
    return Object.fromEntries(rows.map((r) => [r.name as string, r.bytes as number]));
  }

  /** Every pollen city-day whose recorded hour count differs from the hours stored: empty when whole. */
  incompleteDays(): Array<{ city_id: number; day: number; hours: number; stored: number }> {
    return this.db
      .prepare(
        `SELECT d.city_id, d.day, d.hours, (SELECT count(*) FROM pollen_hour h WHERE h.city_id = d.city_id AND h.hour >= d.day * 24 AND h.hour < d.day * 24 + 24) AS stored
         FROM pollen_day d WHERE stored <> d.hours`,
      )
      .all() as Array<{ city_id: number; day: number; hours: number; stored: number }>;
  }

  /** `PRAGMA integrity_check`: "ok" for a sound file. */
  integrity(): string {
    return (this.db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
  }

  /** Closes the store; a writer first folds the WAL back so the file stands alone, as functions open it. */
  close(): void {
    if (!this.readonly && this.db.open) {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.pragma('journal_mode = DELETE');
    }
    this.db.close();
  }
}
