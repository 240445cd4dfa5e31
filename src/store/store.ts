/**
 * The SQLite store: the only place better-sqlite3 is used. `Store` composes one module per job on
 * one file: pollen days, weather days, ingest runs, species shapes, the city set, the call ledger
 * and the local forecast cache; and it keeps the file as a whole (its checks, compaction and
 * copies). Handlers see only `StoreReader` (reader.ts).
 */
import { createHash } from 'node:crypto';
import { statusOfCode } from '../domain/status.js';
import { CityTable } from './cities.js';
import { decodeDay, decodeWeather } from './codec.js';
import { Names, openDatabase, type Db, type Row } from './database.js';
import { DayCache } from './day-cache.js';
import { ForecastTable } from './forecast-cache.js';
import { IngestRuns } from './ingest-runs.js';
import { Ledger } from './ledger.js';
import { hoursIn, PollenDays, type PollenWrite } from './pollen-days.js';
import type { StoreReader } from './reader.js';
import { DATA_TABLES } from './schema.js';
import { SpeciesShapes } from './species-shapes.js';
import { WeatherDays, type WeatherWrite } from './weather-days.js';
import type { StoredStatus } from '../domain/status.js';

export { CityConflictError, type CitySetChange } from './cities.js';
export { StoreVersionError } from './database.js';
export type { CachedForecast } from './forecast-cache.js';
export type { IngestRun } from './ingest-runs.js';
export type { CallPurpose } from './ledger.js';
export type { StoreReader } from './reader.js';

/** Everything ingested for one city and UTC day, written in one transaction. */
export interface CityDayWrite {
  city: string;
  day: number;
  pollen?: PollenWrite;
  weather?: WeatherWrite;
}

export interface OpenOptions {
  readonly?: boolean;
  /**
   * Nothing writes the file while it is open (a served copy render wrote, which a new render
   * replaces by rename, never in place): readers may then keep what they derive from it.
   */
  immutable?: boolean;
}

/** Opens (and, unless read-only, creates and migrates) the store at `path`. */
export function openStore(path: string, options: OpenOptions = {}): Store {
  return new Store(path, options.readonly ?? false, options.immutable ?? false);
}

export class Store implements StoreReader {
  private readonly db: Db;
  private readonly names: Names;
  /** Nothing writes the file while it is open (OpenOptions.immutable). */
  readonly immutable: boolean;
  readonly shapes: SpeciesShapes;
  readonly pollen: PollenDays;
  readonly weather: WeatherDays;
  readonly runs: IngestRuns;
  /** The city set served. */
  readonly cities: CityTable;
  /** Upstream calls per provider and UTC day. */
  readonly ledger: Ledger;
  /** The local forecast cache. */
  readonly forecasts: ForecastTable;

  constructor(
    readonly path: string,
    readonly readonly: boolean,
    immutable = false,
  ) {
    this.db = openDatabase(path, readonly);
    this.names = new Names(this.db, readonly);
    this.immutable = readonly && immutable;
    this.shapes = new SpeciesShapes(this.db);
    this.pollen = new PollenDays(this.db, this.names, this.shapes, new DayCache(), this.immutable);
    this.weather = new WeatherDays(this.db, this.names);
    this.runs = new IngestRuns(this.db);
    this.cities = new CityTable(this.db, this.names);
    this.ledger = new Ledger(this.db);
    this.forecasts = new ForecastTable(this.db, this.names);
  }

  /** Writes one city-day atomically, pollen and weather together; says the status each got. */
  writeCityDay(write: CityDayWrite): { pollen?: StoredStatus; weather?: StoredStatus } {
    return this.db.transaction(() => {
      const city = this.names.id('city', write.city)!;
      return {
        ...(write.pollen ? { pollen: this.pollen.put(city, write.day, write.pollen) } : {}),
        ...(write.weather ? { weather: this.weather.put(city, write.day, write.weather) } : {}),
      };
    })();
  }

  /** Bytes of the longest stored label, as UTF-8. */
  longestLabelBytes(): number {
    return this.names.longestLabelBytes();
  }

  /** Row counts of the data tables, and `hours`: the hourly rows their city-days hold. */
  counts(): Record<string, number> {
    let hours = 0;
    for (const mask of this.db.prepare('SELECT mask FROM pollen_day WHERE mask <> 0').pluck().iterate() as Iterable<number>)
      hours += hoursIn(0, mask, 0, 24);
    return {
      ...Object.fromEntries(DATA_TABLES.map(([t]) => [t, this.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number])),
      hours,
    };
  }

  /**
   * SHA-256 over what the store holds, decoded and keyed by slug, so that two stores with the same
   * content agree whatever ids their rows got. `ignore` leaves out fields such as `fetched_at`, to
   * compare two stores filled at different moments.
   */
  checksum(ignore: readonly string[] = []): string {
    const hash = createHash('sha256');
    const put = (row: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(row)) if (!ignore.includes(k)) hash.update(`${k}=${JSON.stringify(v)};`);
      hash.update('\n');
    };
    hash.update('#city\n');
    for (const r of this.db
      .prepare('SELECT slug, name, state, lat, lon, timezone, active FROM city ORDER BY slug')
      .iterate() as Iterable<Row>)
      put(r);
    hash.update('#pollen_day\n');
    const pollen = 'SELECT c.slug, p.* FROM pollen_day p JOIN city c ON c.id = p.city_id ORDER BY c.slug, p.day';
    for (const r of this.db.prepare(pollen).iterate() as Iterable<Row>) {
      const hours = decodeDay(r.day as number, { mask: r.mask as number, data: r.data as Uint8Array | null }, (id) =>
        this.shapes.shape(id),
      );
      const zone = r.zone_id === null ? null : this.names.label(r.zone_id as number);
      put({
        city: r.slug,
        day: r.day,
        source: this.names.source(r.source_id as number),
        zone,
        status: r.status,
        fetched_at: r.fetched_at,
        hours,
      });
    }
    hash.update('#weather_day\n');
    const weather = 'SELECT c.slug, w.* FROM weather_day w JOIN city c ON c.id = w.city_id ORDER BY c.slug, w.day';
    for (const r of this.db.prepare(weather).iterate() as Iterable<Row>) {
      const values = decodeWeather(r.data as Uint8Array, (id) => this.names.label(id));
      put({
        city: r.slug,
        day: r.day,
        source: this.names.source(r.source_id as number),
        status: r.status,
        fetched_at: r.fetched_at,
        values,
      });
    }
    return hash.digest('hex');
  }

  /** Bytes each table and index takes in the file (SQLite's dbstat). */
  tableBytes(): Record<string, number> {
    const rows = this.db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Row[];
    return Object.fromEntries(rows.map((r) => [r.name as string, r.bytes as number]));
  }

  /**
   * Every pollen city-day that does not read back whole (its packed hours fail to decode, or
   * disagree with its mask or status): empty for a sound store.
   */
  incompleteDays(): Array<{ city_id: number; day: number; problem: string }> {
    const out: Array<{ city_id: number; day: number; problem: string }> = [];
    for (const r of this.db.prepare('SELECT city_id, day, status, mask, data FROM pollen_day').iterate() as Iterable<Row>) {
      const at = { city_id: r.city_id as number, day: r.day as number };
      try {
        const hours = decodeDay(at.day, { mask: r.mask as number, data: r.data as Uint8Array | null }, (id) => this.shapes.shape(id));
        const expected = hours.length >= 24 ? 'complete' : hours.length > 0 ? 'partial' : 'empty';
        if (statusOfCode(r.status as number) !== expected)
          out.push({ ...at, problem: `status ${statusOfCode(r.status as number)} for ${hours.length} hours` });
      } catch (error) {
        out.push({ ...at, problem: (error as Error).message });
      }
    }
    return out;
  }

  /**
   * Rewrites the file compactly (VACUUM) when the day tables' unused bytes and the free pages
   * come to more than `looseness` of those tables: rows written newest day first across cities
   * land all over the tree and leave pages half full (a 730-day backfill of 200 cities: 60.5 MB,
   * 42.6 MB compacted). Returns the file's sizes when it compacted.
   */
  compactIfLoose(looseness = 0.2): { before: number; after: number } | undefined {
    const loose = this.db
      .prepare("SELECT sum(pgsize) AS size, sum(unused) AS unused FROM dbstat WHERE name LIKE 'pollen_day%' OR name LIKE 'weather_day%'")
      .get() as { size: number | null; unused: number | null };
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    const free = (this.db.pragma('freelist_count', { simple: true }) as number) * pageSize;
    if ((loose.unused ?? 0) + free <= looseness * (loose.size ?? 0)) return undefined;
    const file = () => (this.db.pragma('page_count', { simple: true }) as number) * pageSize;
    const before = file();
    this.db.exec('VACUUM');
    return { before, after: file() };
  }

  /** A compact copy of the whole store at `path` (SQLite's VACUUM INTO). */
  copyTo(path: string): void {
    this.db.prepare('VACUUM INTO ?').run(path);
  }

  /**
   * Keeps only the served cities' observations of `fromDay` on, and nothing a reader does not need (the call
   * ledger, the local forecast cache), then compacts the file: the store functions carry.
   */
  keepServedDays(fromDay: number): void {
    this.db.transaction(() => {
      // Cities dropped from the set keep their data in the store, not in what functions carry.
      const unserved = 'city_id IN (SELECT id FROM city WHERE active = 0)';
      this.db.prepare(`DELETE FROM pollen_day WHERE day < ? OR ${unserved}`).run(fromDay);
      this.db.prepare(`DELETE FROM weather_day WHERE day < ? OR ${unserved}`).run(fromDay);
      this.db.exec('DELETE FROM upstream_call; DELETE FROM forecast_cache;');
    })();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.pragma('journal_mode = DELETE');
    this.db.exec('VACUUM');
  }

  /** How many pollen and weather city-days the store holds. */
  cityDays(): number {
    return this.db.prepare('SELECT (SELECT count(*) FROM pollen_day) + (SELECT count(*) FROM weather_day)').pluck().get() as number;
  }

  /** The `user_version` written in the file. */
  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
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
