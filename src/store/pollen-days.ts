/**
 * Pollen days: one row per city and UTC day, its hours packed (store/codec.ts), with the status
 * ingest gave it. Reads go through the one city-day cache (day-cache.ts); an immutable store also
 * keeps there the days it found empty, so that a render never asks SQLite twice for a day.
 */

import { pollenStatus, STORED_STATUSES, type StoredStatus } from '../domain/day-status.js';
import type { PollenDayValue, PollenHour, StoredHour } from '../domain/hours.js';
import { SpeciesColumns } from '../domain/species/leaf-arrays.js';
import { decodeDay, encodeDay } from './codec.js';
import type { Db, Row } from './database.js';
import type { DayCache } from './day-cache.js';
import type { PackedNames } from './day-values-packing.js';
import { DaysWithData } from './days-with-data.js';
import { countUpTo, type DayMask } from './hour-counts.js';
import type { Names } from './names.js';
import type { CountWindow, PollenReader } from './reader.js';
import type { SpeciesShapes } from './species-shapes.js';
import { type StoredDay, storedDays } from './stored-days.js';
import { storedHour, storedHoursOf } from './stored-hours.js';

/** A city-day's pollen as ingest writes it. */
export interface PollenWrite {
  source: string;
  timezone: string | null;
  fetchedAt: number;
  hours: readonly PollenHour[];
  /** The hours that were asked for (default: the whole day); stored hours of the day outside them are kept. */
  asked?: { from: number; to: number };
}

/** A city-day's pollen from a provider that gives days: its one value, or none (a day its answer left out). */
export interface DailyWrite {
  source: string;
  timezone: string | null;
  fetchedAt: number;
  value: Omit<PollenHour, 'hour'> | null;
  levels: Readonly<Record<string, string>> | null;
}

/**
 * Where a pollen day row (alias `t`) has data: hours in its mask, or a provider's daily value
 * (a daily row is complete only with one).
 */
export const HAS_DATA = '(t.mask <> 0 OR (t.daily = 1 AND t.status = 1))';

export class PollenDays implements PollenReader {
  private readonly stmt;
  /** The days with data across cities (days-with-data.ts). */
  private readonly withData: DaysWithData;
  /** The names a row's ids stand for. */
  private readonly named: Pick<PackedNames, 'label' | 'source' | 'shape'>;

  constructor(
    db: Db,
    private readonly names: Names,
    private readonly shapes: SpeciesShapes,
    private readonly cache: DayCache,
    /** Nothing writes the file while it is open: days found empty stay known as empty. */
    private readonly immutable: boolean,
  ) {
    this.withData = new DaysWithData(db, names, 'pollen_day', HAS_DATA, immutable);
    this.named = { label: (id) => names.label(id), source: (id) => names.source(id), shape: (id) => shapes.shape(id) };
    this.stmt = {
      day: db.prepare('SELECT * FROM pollen_day WHERE city_id = ? AND day = ?'),
      upsert: db.prepare(
        `INSERT INTO pollen_day (city_id, day, source_id, zone_id, status, mask, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, zone_id = coalesce(excluded.zone_id, zone_id),
           status = excluded.status, mask = excluded.mask, fetched_at = excluded.fetched_at, data = excluded.data, daily = 0, levels = NULL`,
      ),
      upsertDaily: db.prepare(
        `INSERT INTO pollen_day (city_id, day, source_id, zone_id, status, mask, fetched_at, data, daily, levels) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 1, ?)
         ON CONFLICT (city_id, day) DO UPDATE SET source_id = excluded.source_id, zone_id = coalesce(excluded.zone_id, zone_id),
           status = excluded.status, mask = 0, fetched_at = excluded.fetched_at, data = excluded.data, daily = 1, levels = excluded.levels`,
      ),
      statusIn: db.prepare('SELECT day, status, source_id FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ?'),
      sourcesIn: db
        .prepare(
          'SELECT source_id FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND mask <> 0 GROUP BY source_id ORDER BY min(day)',
        )
        .pluck(),
      daysIn: db.prepare('SELECT * FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND mask <> 0 ORDER BY day'),
      dailyIn: db.prepare('SELECT * FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND daily = 1 ORDER BY day'),
      masksIn: db.prepare('SELECT day, mask FROM pollen_day WHERE city_id = ? AND day >= ? AND day <= ? AND mask <> 0 ORDER BY day'),
      masksOnDay: this.withData.on('t.mask').pluck(),
      cityDays: db.prepare(`SELECT day FROM pollen_day t WHERE city_id = ? AND ${HAS_DATA} ORDER BY day DESC LIMIT ?`).pluck(),
    };
  }

  /**
   * Writes a city-day's pollen (inside the caller's transaction), with the status its hours give it,
   * and says the day's hours as they now read back, with their species leaves. Only the hours
   * the answer gives are replaced: a re-asked day keeps its provider's other hours.
   */
  put(city: number, day: number, p: PollenWrite): { status: StoredStatus; hours: readonly StoredHour[]; columns: SpeciesColumns | null } {
    const first = day * 24;
    const asked = p.asked ?? { from: first, to: first + 24 };
    if (asked.from < first || asked.to > first + 24 || asked.from > asked.to)
      throw new RangeError(`hours ${asked.from}..${asked.to} are not within day ${day}`);
    for (const h of p.hours)
      if (h.hour < asked.from || h.hour >= asked.to) throw new RangeError(`hour ${h.hour} is outside the hours asked of day ${day}`);
    // What was stored is kept where the write does not replace it: hours not asked, the zone when none is given.
    const whole = asked.from === first && asked.to === first + 24;
    const old = whole && p.timezone !== null ? undefined : (this.stmt.day.get(city, day) as Row | undefined);
    const source = this.names.id('source', p.source);
    // A row has one provider: another provider's hours are replaced, never relabelled as this one's.
    // Its own hours the answer left out are kept: a provider whose history is its forecast's
    // today (WeatherAPI.com below Enterprise) answers a re-asked day without its earlier hours.
    const given = new Set(p.hours.map((h) => h.hour));
    const kept = old && old.source_id === source ? this.decode(old).filter((h) => !given.has(h.hour)) : [];
    const hours =
      kept.length === 0 && p.hours.every((h, i) => i === 0 || h.hour > p.hours[i - 1]!.hour)
        ? p.hours
        : [...kept.map(({ timezone: _t, source: _s, ...h }) => h), ...p.hours].sort((a, b) => a.hour - b.hour);
    // The payloads' leaves read once: the packing and the day's values next both use them.
    const columns = SpeciesColumns.of(hours);
    const packed = encodeDay(day, hours, (s) => this.shapes.idFor(s), columns);
    const status = pollenStatus(hours.length);
    const zone = p.timezone === null ? null : this.names.id('label', p.timezone)!;
    this.stmt.upsert.run(city, day, source, zone, STORED_STATUSES[status], packed.mask, p.fetchedAt, packed.data);
    // The day as it now reads back (the zone kept when none was given), so that the day values
    // made next in the same transaction read it without decoding what was just encoded.
    const timezone = p.timezone ?? (old?.zone_id == null ? null : this.names.label(old.zone_id as number));
    const stored = hours.map((h) => storedHour(h, timezone, p.source));
    this.cache.set(city, day, stored);
    return { status, hours: stored, columns };
  }

  /**
   * Writes a city-day of a provider that gives days (inside the caller's transaction): its value
   * packed as one hour would be, with no hour in the mask, and complete; a day the answer left out
   * is empty. Says the status and the value as it now reads back.
   */
  putDaily(city: number, day: number, p: DailyWrite): { status: StoredStatus; value: PollenDayValue | null } {
    const source = this.names.id('source', p.source);
    const zone = p.timezone === null ? null : this.names.id('label', p.timezone)!;
    const old = p.timezone === null ? (this.stmt.day.get(city, day) as Row | undefined) : undefined;
    const timezone = p.timezone ?? (old?.zone_id == null ? null : this.names.label(old.zone_id as number));
    const status: StoredStatus = p.value === null ? 'empty' : 'complete';
    const data = p.value === null ? null : encodeDay(day, [{ ...p.value, hour: day * 24 }], (s) => this.shapes.idFor(s)).data;
    const levels = p.levels === null || p.value === null ? null : JSON.stringify(p.levels);
    this.stmt.upsertDaily.run(city, day, source, zone, STORED_STATUSES[status], p.fetchedAt, data, levels);
    this.cache.set(city, day, []);
    return { status, value: p.value === null ? null : { day, ...p.value, timezone, source: p.source, levels: p.levels } };
  }

  /** A city's daily value of a day (a provider that gives days), if it has one. */
  dailyOn(city: string, day: number): PollenDayValue | undefined {
    const id = this.names.id('city', city);
    const r = id === undefined ? undefined : (this.stmt.day.get(id, day) as Row | undefined);
    return r === undefined ? undefined : this.dailyOf(r);
  }

  /** The daily value a row holds, if it is a daily row with a value. */
  private dailyOf(r: Row): PollenDayValue | undefined {
    if (r.daily !== 1 || r.data === null) return undefined;
    const [h] = decodeDay(r.day as number, { mask: 1, data: r.data as Uint8Array }, (id) => this.shapes.shape(id));
    if (!h) return undefined;
    const { hour: _hour, ...values } = h;
    return {
      day: r.day as number,
      ...values,
      timezone: r.zone_id === null ? null : this.names.label(r.zone_id as number),
      source: this.names.source(r.source_id as number),
      levels: r.levels === null ? null : (JSON.parse(r.levels as string) as Record<string, string>),
    };
  }

  /** The days of a city in [from, to] its providers gave as daily values, by day. */
  dailyIn(city: string, from: number, to: number): Map<number, PollenDayValue> {
    const id = this.names.id('city', city);
    const out = new Map<number, PollenDayValue>();
    if (id === undefined) return out;
    for (const r of this.stmt.dailyIn.all(id, from, to) as Row[]) {
      const v = this.dailyOf(r);
      if (v) out.set(v.day, v);
    }
    return out;
  }

  /** Forgets what the cache holds of a city-day (a write that was rolled back). */
  forget(city: number, day: number): void {
    this.cache.delete(city, day);
  }

  /** The stored status of each of a city's days in [from, to]; days never asked are absent. */
  statuses(city: string, from: number, to: number): Map<number, StoredStatus> {
    return new Map([...this.storedDays(city, from, to)].map(([day, d]) => [day, d.status]));
  }

  /** The providers of a city's hours in [from, to): each once, the one of the earliest day first. */
  sourcesIn(city: string, from: number, to: number): string[] {
    const id = this.names.id('city', city);
    if (id === undefined || to <= from) return [];
    return (this.stmt.sourcesIn.all(id, Math.floor(from / 24), Math.floor((to - 1) / 24)) as number[]).map((s) => this.names.source(s));
  }

  /** Each of a city's stored days in [from, to] with its status and the provider that wrote it. */
  storedDays(city: string, from: number, to: number): Map<number, StoredDay> {
    return storedDays(this.names, this.stmt.statusIn, city, from, to);
  }

  /** The hours of a stored day row, exactly as ingested, with the day's zone and source. */
  private decode(r: Row): StoredHour[] {
    return storedHoursOf(
      r.day as number,
      { mask: r.mask as number, data: r.data as Uint8Array | null },
      r.zone_id as number | null,
      r.source_id as number,
      this.named,
    );
  }

  /** A row's hours through the cache. */
  private cached(city: number, r: Row): readonly StoredHour[] {
    let hours = this.cache.get(city, r.day as number);
    if (hours === undefined) this.cache.set(city, r.day as number, (hours = this.decode(r)));
    return hours;
  }

  /** Hourly rows of a city with hour numbers in [fromHour, toHour), ascending. */
  hours(city: string, fromHour: number, toHour: number): StoredHour[] {
    // A plain loop, not the generator below: renders ask for a few hundred thousand short spans,
    // mostly of days decoded already.
    const out: StoredHour[] = [];
    const id = this.names.id('city', city);
    if (id === undefined || toHour <= fromHour) return out;
    const add = (hours: readonly StoredHour[]) => {
      for (const h of hours) if (h.hour >= fromHour && h.hour < toHour) out.push(h);
    };
    const [first, last] = [Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)];
    if (!this.immutable) {
      for (const r of this.stmt.daysIn.all(id, first, last) as Row[]) add(this.cached(id, r));
      return out;
    }
    for (let day = first; day <= last; day++) {
      let hours = this.cache.get(id, day);
      if (hours === undefined) {
        const r = this.stmt.day.get(id, day) as Row | undefined;
        this.cache.set(id, day, (hours = r === undefined || r.mask === 0 ? [] : this.decode(r)));
      }
      add(hours);
    }
    return out;
  }

  /** The same rows as `hours`, a day at a time and past the cache, so a large range is never held whole. */
  *iterateHours(city: string, fromHour: number, toHour: number): Generator<StoredHour> {
    const id = this.names.id('city', city);
    if (id === undefined || toHour <= fromHour) return;
    // One city's day rows are small (a few bytes of mask and blob a day), so they are read whole:
    // no cursor stays open between yields for concurrent streams to clash on. Past the cache: a
    // long stream's days would only push out the others, and live long enough to burden the old
    // generation of the heap.
    const rows = this.stmt.daysIn.all(id, Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24)) as Row[];
    for (const r of rows) for (const h of this.decode(r)) if (h.hour >= fromHour && h.hour < toHour) yield h;
  }

  /**
   * Whether the rows of each city's window [from, to) number more than `limit`, and how many there
   * are up to it: hours, or with `dayOf` the days (as it groups hours) with an hour. Read from the
   * days' masks, stopping at the limit.
   */
  countUpTo(windows: readonly CountWindow[], limit: number): { count: number; more: boolean } {
    return countUpTo(windows, limit, (city, first, last) => {
      const id = this.names.id('city', city);
      return id === undefined ? undefined : (this.stmt.masksIn.iterate(id, first, last) as Iterable<DayMask>);
    });
  }

  /** Every UTC day with at least one pollen observation, newest first. */
  daysWithData(): number[] {
    return this.withData.days();
  }

  /** The latest UTC day with a pollen observation, or null for an empty store. */
  latestDay(): number | null {
    return this.withData.latestDay();
  }

  /** The newest stored hour (hours since epoch; a daily value's day, its last hour), or null for an empty store. */
  latestHour(): number | null {
    const day = this.latestDay();
    if (day === null) return null;
    // A daily value (no hour in its mask) stands for the whole day.
    const highest = Math.max(...(this.stmt.masksOnDay.all(day) as number[]).map((m) => (m === 0 ? 23 : 31 - Math.clz32(m))));
    return day * 24 + highest;
  }

  /** The provider of the newest pollen day: the one that fills this store (asked once of a store nothing writes: every answer names it). */
  latestSource(): string | null {
    return this.withData.latestSource();
  }

  /** The most recent days (newest first, at most `limit`) with observations for a city. */
  cityDaysWithData(city: string, limit: number): number[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.cityDays.all(id, limit) as number[]);
  }

  /** The served cities (active and named, as in the city set) with a pollen observation on a UTC day, by slug. */
  citiesWithDataOn(day: number): string[] {
    return this.withData.citiesOn(day);
  }
}
