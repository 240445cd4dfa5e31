/**
 * The SQLite store: the only place better-sqlite3 is used. `Store` composes one module per job on
 * one file: pollen days, weather days, ingest runs, species shapes, the city set, the call ledger
 * and the local forecast cache; and it keeps the file as a whole (its checks, compaction and
 * copies). Handlers see only `StoreReader` (reader.ts).
 */

import type { StoredStatus } from '../domain/day-status.js';
import { StoreChecks } from './checks.js';
import { CityTable } from './city-set.js';
import { type Db, foldWal, openDatabase } from './database.js';
import { DayCache } from './day-cache.js';
import { DAY_VALUES_VERSION, DayValuesTable, localDaysOf, type WrittenDay } from './day-values-table.js';
import { checkDerived, type Derivation, renewDerived } from './derived.js';
import { refreshDayDigests } from './digests.js';
import { ForecastTable } from './forecast-cache.js';
import { IngestRuns } from './ingest-runs.js';
import { IssuedForecasts } from './issued-forecasts.js';
import { Ledger } from './ledger.js';
import { Names } from './names.js';
import { KeptOutlooks } from './outlooks-table.js';
import { type DailyWrite, PollenDays, type PollenWrite } from './pollen-days.js';
import type { StoreReader } from './reader.js';
import { MIGRATIONS } from './schema.js';
import { ShardRows } from './shards/shard-rows.js';
import { ForecastSkills } from './skills-table.js';
import { SpeciesShapes } from './species-shapes.js';
import { WeatherDays, type WeatherWrite } from './weather-days.js';

export { CityConflictError, type CitySetChange } from './city-set.js';
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
  /** Pollen of a provider that gives days: the day is its date. */
  pollenDaily?: DailyWrite;
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
  /** Each city-day's daily values, by UTC and local day, kept with the hours. */
  readonly values: DayValuesTable;
  readonly runs: IngestRuns;
  /** The city set served. */
  readonly cities: CityTable;
  /** Counts and checks of what the file holds. */
  readonly checks: StoreChecks;
  /** Upstream calls per provider and UTC day. */
  readonly ledger: Ledger;
  /** The local forecast cache. */
  readonly forecasts: ForecastTable;
  /** Every forecast kept as issued (not in the served store). */
  readonly issued: IssuedForecasts;
  /** Every outlook kept as issued, with its references (not in the served store). */
  readonly outlooks: KeptOutlooks;
  /** Each city's forecast skill, in the served store a render writes. */
  readonly skills: ForecastSkills;

  constructor(
    readonly path: string,
    readonly readonly: boolean,
    immutable = false,
  ) {
    this.db = openDatabase(path, readonly, MIGRATIONS);
    this.names = new Names(this.db, readonly);
    this.immutable = readonly && immutable;
    this.shapes = new SpeciesShapes(this.db);
    this.pollen = new PollenDays(this.db, this.names, this.shapes, new DayCache(), this.immutable);
    this.weather = new WeatherDays(this.db, this.names, this.immutable);
    this.values = new DayValuesTable(this.db, this.names, this.shapes, this.pollen, this.immutable);
    this.runs = new IngestRuns(this.db);
    this.cities = new CityTable(this.db, this.names);
    this.ledger = new Ledger(this.db);
    this.forecasts = new ForecastTable(this.db, this.names);
    this.issued = new IssuedForecasts(this.db, this.names);
    this.outlooks = new KeptOutlooks(this.db, this.names);
    this.skills = new ForecastSkills(this.db, this.names);
    this.checks = new StoreChecks(this.db, this.names, this.shapes);
    const derivations: Derivation[] = [
      { name: 'day_value', version: DAY_VALUES_VERSION, renew: () => this.values.renew((slug) => this.cities.zoneOf(slug)) },
    ];
    if (readonly) checkDerived(this.db, path, derivations);
    else renewDerived(this.db, derivations);
  }

  /**
   * Writes one city-day atomically, pollen and weather together, with the day values its hours
   * change; says the status each got.
   */
  writeCityDay(write: CityDayWrite): { pollen?: StoredStatus; weather?: StoredStatus } {
    return this.writeCityDays([write])[0]!;
  }

  /**
   * Writes city-days in one transaction, each with the day values its hours change: each UTC
   * day's from the hours just written, and each local day they touch once, after all of them;
   * says the status each got.
   */
  writeCityDays(writes: readonly CityDayWrite[]): Array<{ pollen?: StoredStatus; weather?: StoredStatus }> {
    try {
      return this.writeAll(writes);
    } catch (error) {
      // Rolled back: the decoded days the writes left in the cache are not the stored ones.
      for (const w of writes) if (w.pollen || w.pollenDaily) this.pollen.forget(this.names.id('city', w.city)!, w.day);
      throw error;
    }
  }

  private writeAll(writes: readonly CityDayWrite[]): Array<{ pollen?: StoredStatus; weather?: StoredStatus }> {
    return this.db.transaction(() => {
      // Each city's local days the writes touch, and the UTC days written, as they now read back.
      const locals = new Map<string, { zone: string; days: Set<number>; written: Map<number, WrittenDay> }>();
      const zones = new Map<string, string | undefined>();
      const out = writes.map((write) => {
        const city = this.names.id('city', write.city)!;
        const written: { pollen?: StoredStatus; weather?: StoredStatus } = {};
        if (write.pollen) {
          const { status, hours, columns } = this.pollen.put(city, write.day, write.pollen);
          written.pollen = status;
          this.values.refreshUtc(write.city, write.day, hours, columns);
          if (!zones.has(write.city)) zones.set(write.city, this.cities.zoneOf(write.city));
          const zone = zones.get(write.city);
          if (zone !== undefined) {
            let local = locals.get(write.city);
            if (!local) locals.set(write.city, (local = { zone, days: new Set(), written: new Map() }));
            for (const day of localDaysOf(zone, write.day)) local.days.add(day);
            local.written.set(write.day, { hours, columns });
          }
        }
        if (write.pollenDaily) {
          const { status, value } = this.pollen.putDaily(city, write.day, write.pollenDaily);
          written.pollen = status;
          if (!zones.has(write.city)) zones.set(write.city, this.cities.zoneOf(write.city));
          const zone = zones.get(write.city);
          this.values.refreshDaily(write.city, zone, value, write.day);
          if (zone !== undefined) {
            // The local days beside it lose whatever hours the day held before.
            let local = locals.get(write.city);
            if (!local) locals.set(write.city, (local = { zone, days: new Set(), written: new Map() }));
            for (const day of localDaysOf(zone, write.day)) if (day !== write.day) local.days.add(day);
            local.written.set(write.day, { hours: [], columns: null });
          }
        }
        if (write.weather) written.weather = this.weather.put(city, write.day, write.weather);
        return written;
      });
      for (const [city, { zone, days, written }] of locals) this.values.refreshLocal(city, zone, days, written);
      return out;
    })();
  }

  /**
   * Makes `cities` the served set (CityTable.replace), and computes the local days of the cities
   * whose zone it gives or changes, in the same transaction.
   */
  replaceCities(cities: Parameters<CityTable['replace']>[0]): ReturnType<CityTable['replace']> {
    return this.db.transaction(() => {
      const before = new Map(cities.map((c) => [c.slug, this.cities.zoneOf(c.slug)]));
      const change = this.cities.replace(cities);
      for (const c of cities) if (before.get(c.slug) !== c.timezone) this.values.rebuild(c.slug, c.timezone);
      return change;
    })();
  }

  /** The rows as shards hold them (shards/shard-writer.ts cuts them). */
  shardRows(): ShardRows {
    return new ShardRows(this.db);
  }

  /** Bytes of the longest stored label, as UTF-8. */
  longestLabelBytes(): number {
    return this.names.longestLabelBytes();
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

  /**
   * A copy of the whole store at `path`, page for page, with what its WAL holds (SQLite's backup
   * API): what a reader sees, even after a writer was killed, and without a writer's lock.
   */
  backupTo(path: string): Promise<unknown> {
    return this.db.backup(path);
  }

  /** A compact copy of the whole store at `path` (SQLite's VACUUM INTO). */
  copyTo(path: string): void {
    this.db.prepare('VACUUM INTO ?').run(path);
  }

  /**
   * Keeps only the served cities' observations of `fromDay` on, and nothing a reader does not need (the call
   * ledger, the local forecast cache, the forecasts kept), then compacts the file: the store functions carry.
   */
  keepServedDays(fromDay: number): void {
    this.db.transaction(() => {
      // Cities dropped from the set keep their data in the store, not in what functions carry.
      const unserved = 'city_id IN (SELECT id FROM city WHERE active = 0)';
      this.db.prepare(`DELETE FROM pollen_day WHERE day < ? OR ${unserved}`).run(fromDay);
      this.db.prepare(`DELETE FROM weather_day WHERE day < ? OR ${unserved}`).run(fromDay);
      // A local day before fromDay holds hours that are no longer there: its values go with them.
      this.db.prepare(`DELETE FROM day_value WHERE day < ? OR ${unserved}`).run(fromDay);
      // The forecasts and outlooks kept stay in the store: what functions carry is the skill a render makes of them.
      this.db.exec(
        'DELETE FROM upstream_call; DELETE FROM forecast_cache; DELETE FROM forecast_issued; DELETE FROM outlook_issued; DELETE FROM climatology_issued;',
      );
    })();
    // The days trimmed lose their digests here, once, rather than in each reader of the copy.
    this.refreshDigests();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.pragma('journal_mode = DELETE');
    this.db.exec('VACUUM');
  }

  /** How many pollen and weather city-days the store holds. */
  cityDays(): number {
    return this.db.prepare('SELECT (SELECT count(*) FROM pollen_day) + (SELECT count(*) FROM weather_day)').pluck().get() as number;
  }

  /** Digests again the days written since the last time (digests.ts); a writer's close does it too. */
  refreshDigests(): void {
    refreshDayDigests(this.db);
  }

  /**
   * Closes the store; a writer first digests the days it wrote (so whatever wrote them, the next
   * reader finds their digests kept) and folds the WAL back so the file stands alone, unless another
   * connection holds the file (foldWal).
   */
  close(): void {
    if (!this.readonly && this.db.open) {
      this.refreshDigests();
      foldWal(this.db);
    }
    this.db.close();
  }
}
