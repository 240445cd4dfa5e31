/**
 * The one cache of city-days: decoded hours (about 15 KB a day), least recently used dropped past
 * a capacity. A render's day unit reads four UTC days of every city (a map's three-day series in
 * local days spans d-2 to d+1) and a worker renders runs of consecutive days, so its next day
 * shares three of them: 1,024 holds that for 256 cities (with 256 the cache thrashed, and a
 * 200-city render took a fifth longer). Entries are never mutated by readers. The map of
 * recently used values it is made of also keeps the day values' whole cuts (day-values-table.ts).
 */
import type { StoredHour } from '../domain/hours.js';

export const DAYS_KEPT = 1024;

/** Values by key, the least recently used dropped past a capacity. */
export class RecentlyUsed<V, K = string> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  has(key: K): boolean {
    return this.map.has(key);
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }

  delete(key: K): void {
    this.map.delete(key);
  }
}

/** Half the days a numeric key holds: day numbers of 1790 to 2149. */
const HALF = 65_536;

/**
 * A city-day as a small integer rather than a string made at each ask (a render asks a few
 * hundred thousand times), for every day from 1790 to 2149 and below 2^13 city ids; a string
 * for any other day an answer may ask of (a date before standard time), which no number equals.
 */
const keyOf = (city: number, day: number): number | string =>
  day >= -HALF && day < HALF ? city * 2 * HALF + day + HALF : `${city}|${day}`;

export class DayCache {
  private readonly days: RecentlyUsed<readonly StoredHour[], number | string>;

  constructor(capacity = DAYS_KEPT) {
    this.days = new RecentlyUsed(capacity);
  }

  get(city: number, day: number): readonly StoredHour[] | undefined {
    return this.days.get(keyOf(city, day));
  }

  set(city: number, day: number, hours: readonly StoredHour[]): void {
    this.days.set(keyOf(city, day), hours);
  }

  delete(city: number, day: number): void {
    this.days.delete(keyOf(city, day));
  }
}
