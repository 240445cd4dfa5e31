/**
 * The one cache of city-days: decoded hours (about 15 KB a day), least recently used dropped past
 * a capacity. A render's day unit reads four UTC days of every city (a map's three-day series in
 * local days spans d-2 to d+1) and a worker renders runs of consecutive days, so its next day
 * shares three of them: 1,024 holds that for 256 cities (with 256 the cache thrashed, and a
 * 200-city render took a fifth longer). Entries are never mutated by readers.
 */
import type { StoredHour } from '../domain/hours.js';

export const DAYS_KEPT = 1024;

export class DayCache {
  private readonly map = new Map<string, readonly StoredHour[]>();

  constructor(private readonly capacity = DAYS_KEPT) {}

  get(city: number, day: number): readonly StoredHour[] | undefined {
    const key = `${city}|${day}`;
    const hours = this.map.get(key);
    if (hours !== undefined) {
      this.map.delete(key);
      this.map.set(key, hours);
    }
    return hours;
  }

  set(city: number, day: number, hours: readonly StoredHour[]): void {
    const key = `${city}|${day}`;
    this.map.delete(key);
    this.map.set(key, hours);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }

  delete(city: number, day: number): void {
    this.map.delete(`${city}|${day}`);
  }
}
