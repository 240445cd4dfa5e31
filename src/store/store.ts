/**
 * The SQLite store: the only place better-sqlite3 is used. `Store` is the observations (the main
 * job) plus the call ledger and the forecast cache, each a module of its own, on one file.
 */
import { createHash } from 'node:crypto';
import { openDatabase, Names, type Row } from './database.js';
import { ForecastTable } from './forecast-cache.js';
import { Ledger } from './ledger.js';
import { Observations } from './observations.js';
import { DATA_TABLES } from './schema.js';

export { DEFAULT_DB_PATH, StoreVersionError } from './database.js';
export type { CityDayWrite, IngestRun } from './observations.js';
export type { CachedForecast } from './forecast-cache.js';
export type { CallPurpose } from './ledger.js';

export interface OpenOptions {
  readonly?: boolean;
}

/** Opens (and, unless read-only, creates and migrates) the store at `path`. */
export function openStore(path: string, options: OpenOptions = {}): Store {
  return new Store(path, options.readonly ?? false);
}

export class Store extends Observations {
  readonly path: string;
  readonly readonly: boolean;
  /** Upstream calls per provider and UTC day. */
  readonly ledger: Ledger;
  /** The local forecast cache. */
  readonly forecasts: ForecastTable;

  constructor(path: string, readonly: boolean) {
    const db = openDatabase(path, readonly);
    const names = new Names(db, readonly);
    super(db, names);
    this.path = path;
    this.readonly = readonly;
    this.ledger = new Ledger(db);
    this.forecasts = new ForecastTable(db, names);
  }

  /** Row counts of the data tables. */
  counts(): Record<string, number> {
    return Object.fromEntries(DATA_TABLES.map(([t]) => [t, this.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]));
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
