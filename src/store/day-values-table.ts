/**
 * Day values: each city-day's daily values (domain/day-values.ts), for UTC days and for the
 * city's local days, packed beside the hours and written in the same transaction as them. A UTC
 * day's write refreshes its own values and those of the local days it touches (two, for every US
 * zone), so every reader (render, functions, MCP) assembles lists, cross-city rows and maps from
 * values that always agree with the hours.
 */

import { type DayCut, dayHours, localMidnight } from '../domain/day-cuts.js';
import { type DayValues, dailyDayValues, dayValues } from '../domain/day-values.js';
import type { PollenDayValue, StoredHour } from '../domain/hours.js';
import { SpeciesColumns } from '../domain/species/leaf-arrays.js';
import type { Db, Row } from './database.js';
import { RecentlyUsed } from './day-cache.js';
import { DayValuesPacking } from './day-values-packing.js';
import type { Names } from './names.js';
import { HAS_DATA, type PollenDays } from './pollen-days.js';
import type { DayValuesReader } from './reader.js';
import type { SpeciesShapes } from './species-shapes.js';

const CUT_CODE: Record<DayCut, number> = { UTC: 0, local: 1 };

/**
 * The version of how day values are derived and packed (day-values-packing.ts): bump it whenever
 * `dayValues` or the packing below changes, and every store makes its values again once.
 */
export const DAY_VALUES_VERSION = 3;

/**
 * The local days of a zone that UTC day `day`'s hours fall in (two for every US zone): those whose
 * hours [midnight, next midnight) meet the day's, from the cached local midnights.
 */
export function localDaysOf(zone: string, day: number): number[] {
  const [first, end] = [day * 24, day * 24 + 24];
  const days: number[] = [];
  for (let local = day - 1; local <= day + 1; local++)
    if (localMidnight(zone, local) < end && localMidnight(zone, local + 1) > first) days.push(local);
  return days;
}

/** A UTC day a write has just made, as it reads back, with its species leaves. */
export interface WrittenDay {
  hours: readonly StoredHour[];
  columns: SpeciesColumns | null;
}
type WrittenDays = ReadonlyMap<number, WrittenDay>;

/**
 * The hours in [from, to) of the UTC days given, and their species leaves taken from the days'
 * (undefined where they cannot be: SpeciesColumns.within); undefined when a day they fall in is not given.
 */
function hoursWithin(
  days: WrittenDays,
  from: number,
  to: number,
): { hours: StoredHour[]; columns: SpeciesColumns | null | undefined } | undefined {
  const hours: StoredHour[] = [];
  const sets: WrittenDay[] = [];
  for (let day = Math.floor(from / 24); day <= Math.floor((to - 1) / 24); day++) {
    const written = days.get(day);
    if (written === undefined) return undefined;
    sets.push(written);
    for (const h of written.hours) if (h.hour >= from && h.hour < to) hours.push(h);
  }
  return { hours, columns: SpeciesColumns.within(sets, from, to) };
}

/** City-cuts (a city's UTC or local days) a store nothing writes keeps decoded (wholeCuts). */
const CUTS_KEPT = 4;

export class DayValuesTable implements DayValuesReader {
  private readonly stmt;
  /**
   * Every day of the last city-cuts read, decoded, in a store nothing writes: a city's files ask
   * for its days more than once (its list and its seasons, in each cut), and so does the fallback
   * function, answering a city's list and its seasons.
   */
  private readonly wholeCuts = new RecentlyUsed<DayValues[]>(CUTS_KEPT);
  private readonly packing: DayValuesPacking;

  constructor(
    db: Db,
    private readonly names: Names,
    shapes: SpeciesShapes,
    private readonly pollen: Pick<PollenDays, 'hours' | 'dailyOn'>,
    /** Nothing writes the file while it is open. */
    private readonly immutable = false,
  ) {
    this.packing = new DayValuesPacking(names, shapes);
    this.stmt = {
      put: db.prepare(
        'INSERT INTO day_value (city_id, cut, day, data) VALUES (?, ?, ?, ?) ON CONFLICT (city_id, cut, day) DO UPDATE SET data = excluded.data',
      ),
      drop: db.prepare('DELETE FROM day_value WHERE city_id = ? AND cut = ? AND day = ?'),
      dropCut: db.prepare('DELETE FROM day_value WHERE city_id = ? AND cut = ?'),
      one: db.prepare('SELECT data FROM day_value WHERE city_id = ? AND cut = ? AND day = ?').pluck(),
      any: db.prepare('SELECT 1 FROM day_value WHERE city_id = ? AND cut = ? LIMIT 1').pluck(),
      newest: db.prepare('SELECT day, data FROM day_value WHERE city_id = ? AND cut = ? ORDER BY day DESC LIMIT ?'),
      // Rows as arrays, not objects: a city's list reads its 730 days in each cut.
      span: db.prepare('SELECT day, data FROM day_value WHERE city_id = ? AND cut = ? AND day >= ? AND day <= ? ORDER BY day').raw(),
      across: db.prepare(
        // City by city through the primary key (CROSS JOIN keeps the city table outside): the table has no index by day.
        'SELECT c.slug, v.day, v.data FROM city c CROSS JOIN day_value v ON v.city_id = c.id AND v.cut = ? AND v.day >= ? AND v.day <= ?',
      ),
      pollenDays: db.prepare(`SELECT day, daily FROM pollen_day t WHERE city_id = ? AND ${HAS_DATA} ORDER BY day`),
      dropAll: db.prepare('DELETE FROM day_value'),
      citiesWithPollen: db.prepare('SELECT DISTINCT c.slug FROM pollen_day p JOIN city c ON c.id = p.city_id').pluck(),
    };
  }

  /**
   * Recomputes, inside the caller's transaction, the values of a UTC day after a write of its
   * hours (`hours`, as they read back, and their species leaves).
   */
  refreshUtc(city: string, day: number, hours: readonly StoredHour[], columns: SpeciesColumns | null): void {
    this.write(this.names.id('city', city)!, 'UTC', day, hours, columns);
  }

  /**
   * Writes, inside the caller's transaction, the values of a day a provider gave as one value,
   * in both cuts: its date is the place's day, and its value stands for that date in either
   * (there are no hours to cut otherwise). A day it left out is made again from what hours there are.
   */
  refreshDaily(city: string, zone: string | undefined, value: PollenDayValue | null, day: number): void {
    const id = this.names.id('city', city)!;
    if (value === null) {
      this.stmt.drop.run(id, CUT_CODE.UTC, day);
      if (zone !== undefined) this.compute(id, city, 'local', zone, day);
      return;
    }
    const packed = this.packing.pack(dailyDayValues(value));
    this.stmt.put.run(id, CUT_CODE.UTC, day, packed);
    if (zone !== undefined) this.stmt.put.run(id, CUT_CODE.local, day, packed);
  }

  /**
   * Recomputes, inside the caller's transaction, the values of a city's local days (those a
   * write's hours fall in: `localDaysOf`), from the UTC days just `written` where a local day's
   * hours are all among them, else as the store reads them.
   */
  refreshLocal(city: string, zone: string, days: Iterable<number>, written: WrittenDays): void {
    const id = this.names.id('city', city)!;
    for (const local of days) {
      // A local day a provider gave as one value keeps it: its hours' neighbours do not make it.
      if (this.writeDaily(id, city, 'local', local)) continue;
      const { from, to } = dayHours('local', zone, local);
      const within = hoursWithin(written, from, to);
      if (within === undefined) this.write(id, 'local', local, this.pollen.hours(city, from, to));
      else this.write(id, 'local', local, within.hours, within.columns === undefined ? SpeciesColumns.of(within.hours) : within.columns);
    }
  }

  /** Recomputes every value of a city from its hours (a new store version, or a zone it did not have). */
  rebuild(city: string, zone: string | undefined): void {
    const id = this.names.id('city', city)!;
    this.stmt.dropCut.run(id, CUT_CODE.local);
    const locals = new Set<number>();
    for (const { day, daily } of this.stmt.pollenDays.all(id) as Array<{ day: number; daily: number }>) {
      this.compute(id, city, 'UTC', zone, day);
      if (zone !== undefined) for (const l of daily === 1 ? [day] : localDaysOf(zone, day)) locals.add(l);
    }
    for (const local of locals) this.compute(id, city, 'local', zone, local);
  }

  /** Every city's values made again from its hours (derived.ts), each city's local days in the zone `zoneOf` gives. */
  renew(zoneOf: (city: string) => string | undefined): void {
    this.stmt.dropAll.run();
    for (const city of this.stmt.citiesWithPollen.all() as string[]) this.rebuild(city, zoneOf(city));
  }

  private compute(id: number, city: string, cut: DayCut, zone: string | undefined, day: number): void {
    if (this.writeDaily(id, city, cut, day)) return;
    const { from, to } = dayHours(cut, zone ?? 'UTC', day);
    this.write(id, cut, day, this.pollen.hours(city, from, to));
  }

  /** Writes a day's values from its provider's daily value, when it has one; says whether it had. */
  private writeDaily(id: number, city: string, cut: DayCut, day: number): boolean {
    const value = this.pollen.dailyOn(city, day);
    if (value === undefined) return false;
    this.stmt.put.run(id, CUT_CODE[cut], day, this.packing.pack(dailyDayValues(value)));
    return true;
  }

  /** Writes the values of a city-day's hours, or drops the day's values when it has none. */
  private write(id: number, cut: DayCut, day: number, hours: readonly StoredHour[], columns = SpeciesColumns.of(hours)): void {
    if (hours.length === 0) this.stmt.drop.run(id, CUT_CODE[cut], day);
    else this.stmt.put.run(id, CUT_CODE[cut], day, this.packing.pack(dayValues(day, hours, columns)));
  }

  /** The values of a city-day of a cut, if it has data. */
  on(city: string, cut: DayCut, day: number): DayValues | undefined {
    const id = this.names.id('city', city);
    const data = id === undefined ? undefined : (this.stmt.one.get(id, CUT_CODE[cut], day) as Uint8Array | undefined);
    return data && this.packing.unpack(day, data);
  }

  /** Whether a city has any day with data in a cut (nothing decoded). */
  has(city: string, cut: DayCut): boolean {
    const id = this.names.id('city', city);
    return id !== undefined && this.stmt.any.get(id, CUT_CODE[cut]) !== undefined;
  }

  /** A city's newest days with data of a cut, newest first, at most `limit`. */
  newest(city: string, cut: DayCut, limit: number): DayValues[] {
    const id = this.names.id('city', city);
    if (id === undefined) return [];
    // A list holds nearly every served day: in a store nothing writes, it reads the whole cut.
    if (this.immutable) {
      const days = this.whole(id, cut);
      return days.slice(Math.max(0, days.length - limit)).reverse();
    }
    return (this.stmt.newest.all(id, CUT_CODE[cut], limit) as Row[]).map((r) => this.packing.unpack(r.day as number, r.data as Uint8Array));
  }

  /** A city's days with data of a cut in [from, to], by day. */
  span(city: string, cut: DayCut, from: number, to: number): Map<number, DayValues> {
    const id = this.names.id('city', city);
    if (id === undefined) return new Map();
    // Every day (a city's seasons), or the days of a cut kept whole; a month of the bulk files reads its own.
    const kept = this.immutable && (this.wholeCuts.has(`${id}|${cut}`) || (from <= 0 && to >= Number.MAX_SAFE_INTEGER));
    if (kept) {
      const days = new Map<number, DayValues>();
      for (const v of this.whole(id, cut)) if (v.day >= from && v.day <= to) days.set(v.day, v);
      return days;
    }
    const rows = this.stmt.span.all(id, CUT_CODE[cut], from, to) as Array<[number, Uint8Array]>;
    return new Map(rows.map(([day, data]) => [day, this.packing.unpack(day, data)]));
  }

  /** Every day of a city's cut, oldest first, kept for the next asks (a store nothing writes only: nothing stales them). */
  private whole(id: number, cut: DayCut): DayValues[] {
    const key = `${id}|${cut}`;
    let days = this.wholeCuts.get(key);
    if (!days) {
      const rows = this.stmt.span.all(id, CUT_CODE[cut], Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) as Array<[number, Uint8Array]>;
      this.wholeCuts.set(key, (days = rows.map(([day, data]) => this.packing.unpack(day, data))));
    }
    return days;
  }

  /** Every city's days with data of a cut in [from, to]: by slug, then by day (a date's rows and its map, in one query). */
  across(cut: DayCut, from: number, to: number): Map<string, Map<number, DayValues>> {
    const out = new Map<string, Map<number, DayValues>>();
    for (const r of this.stmt.across.iterate(CUT_CODE[cut], from, to) as Iterable<Row>) {
      let days = out.get(r.slug as string);
      if (!days) out.set(r.slug as string, (days = new Map()));
      days.set(r.day as number, this.packing.unpack(r.day as number, r.data as Uint8Array));
    }
    return out;
  }
}
