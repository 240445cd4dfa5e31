/**
 * What a store holds, counted and checked: the tests, the bench and the snapshot's push read
 * these to compare two stores or to refuse a broken one.
 */
import { createHash } from 'node:crypto';
import { statusOfCode } from '../domain/day-status.js';
import { decodeDay, decodeWeather } from './codec.js';
import type { Db, Row } from './database.js';
import { dayDigestsOf, type StoreDigests, shardDigestsOf, storeDigests } from './digests.js';
import { hoursIn } from './hour-counts.js';
import type { Names } from './names.js';
import { DATA_TABLES } from './schema.js';
import type { SpeciesShapes } from './species-shapes.js';

export class StoreChecks {
  constructor(
    private readonly db: Db,
    private readonly names: Names,
    private readonly shapes: SpeciesShapes,
  ) {}

  /** Digests of what the store holds, by day and by city (digests.ts). */
  digests(): StoreDigests {
    return storeDigests(this.db);
  }

  /** The days' digests alone, with the names' (digests.ts): what the forecast-skill step's parts are made from. */
  dayDigests(): Pick<StoreDigests, 'names' | 'values' | 'kept'> {
    return dayDigestsOf(this.db);
  }

  /** The days' digests of what shards hold, with the names' (digests.ts): what each shard of a quarter or a day is made from. */
  shardDigests(): Pick<StoreDigests, 'names' | 'values' | 'pollen' | 'weather'> {
    return shardDigestsOf(this.db);
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
    for (const r of this.db.prepare('SELECT city_id, day, status, mask, data, daily FROM pollen_day').iterate() as Iterable<Row>) {
      const at = { city_id: r.city_id as number, day: r.day as number };
      try {
        // A daily row holds its one value where an hour would be, and no hour in its mask.
        const daily = r.daily === 1;
        if (daily && r.mask !== 0) throw new Error(`a daily day with hours in its mask (${r.mask as number})`);
        const mask = daily ? (r.data === null ? 0 : 1) : (r.mask as number);
        const hours = decodeDay(at.day, { mask, data: r.data as Uint8Array | null }, (id) => this.shapes.shape(id));
        const expected = daily
          ? hours.length === 1
            ? 'complete'
            : 'empty'
          : hours.length >= 24
            ? 'complete'
            : hours.length > 0
              ? 'partial'
              : 'empty';
        if (statusOfCode(r.status as number) !== expected)
          out.push({ ...at, problem: `status ${statusOfCode(r.status as number)} for ${hours.length} hours` });
      } catch (error) {
        out.push({ ...at, problem: (error as Error).message });
      }
    }
    return out;
  }

  /** The `user_version` written in the file. */
  schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** `PRAGMA integrity_check`: "ok" for a sound file. */
  integrity(): string {
    return (this.db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
  }
}
