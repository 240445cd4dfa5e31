/** Reading the store by days of a cut (UTC, or each city's local days), for the handlers that take `timezone`. */
import type { City, CitySet } from '../../domain/cities.js';
import { type DayCut, dayHours, dayOfHour } from '../../domain/day-cuts.js';
import type { StoredHour } from '../../domain/hours.js';
import type { StoreReader } from '../../store/reader.js';

/** A city's hours of the days `first` to `last` (inclusive) of the cut. */
export function hoursOfDays(store: StoreReader, city: City, cut: DayCut, first: number, last: number): StoredHour[] {
  return store.pollen.hours(city.slug, dayHours(cut, city.timezone, first).from, dayHours(cut, city.timezone, last).to);
}

/** A city's hours of one day of the cut. */
export const hoursOfDay = (store: StoreReader, city: City, cut: DayCut, day: number): StoredHour[] =>
  hoursOfDays(store, city, cut, day, day);

/**
 * The newest day of the cut that the store holds whole for every city: the newest UTC day with
 * data, or the newest local day that ends, in every city's zone, by the end of that UTC day.
 */
export function latestDay(store: StoreReader, cities: CitySet, cut: DayCut): number | null {
  const newest = store.pollen.latestDay();
  if (newest === null || cut === 'UTC') return newest;
  const end = (newest + 1) * 24; // the first hour not stored
  // The local day holding `end` is not whole yet; the one before it is.
  return Math.min(...cities.list.map((c) => dayOfHour('local', c.timezone, end) - 1));
}
