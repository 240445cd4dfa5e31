/** GET /api/pollen: a city-day's hours, a city's daily rows, or a date across cities. */
import { SLUGS_IN_ORDER, type City } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import { crossCityRow } from '../domain/map.js';
import { byDay, dailyRow, hourlyRow, type DailyPollen } from '../domain/pollen-rows.js';
import type { StoredHour } from '../domain/hours.js';
import type { Store } from '../store/store.js';
import { noData } from './error.js';
import type { Handler } from './handler.js';
import { parseCity, parseDate } from './params.js';

/** Daily rows kept for one city. */
export const MAX_DAILY_ROWS = 720;

export const pollen: Handler = (query, { store, dailyRows: dailyMemo }) => {
  const city = parseCity(query);
  const day = parseDate(query);
  if (city && day !== undefined) {
    return { body: { city: city.slug, date: dayString(day), rows: store.hours(city.slug, day * 24, day * 24 + 24).map(hourlyRow) } };
  }
  if (city) return { body: { city: city.slug, rows: dailyRows(store, city, dailyMemo) } };
  const date = day ?? store.latestDay();
  if (date === null) throw noData();
  return { body: { date: dayString(date), rows: crossCityRows(store, date) } };
};

/** A city's most recent days with data, newest first; with a memo, only days not in it are read. */
function dailyRows(store: Store, city: City, memo?: Map<string, DailyPollen>): DailyPollen[] {
  const days = store.cityDaysWithData(city.slug, MAX_DAILY_ROWS);
  if (days.length === 0) return [];
  const versions = memo ? store.pollenDayVersions(city.slug) : undefined;
  const key = (d: number) => `${city.slug}|${d}|${versions?.get(d)}`;
  const missing = memo ? days.filter((d) => !memo.has(key(d))) : days;
  const hours = missing.length === 0 ? new Map<number, StoredHour[]>() : byDay(store.hours(city.slug, missing.at(-1)! * 24, (missing[0]! + 1) * 24));
  return days.map((d) => {
    const cached = memo?.get(key(d));
    if (cached) return cached;
    const row = dailyRow(d, hours.get(d) ?? []);
    memo?.set(key(d), row);
    return row;
  });
}

/** One row per city with data on the day, by slug. */
function crossCityRows(store: Store, day: number) {
  return SLUGS_IN_ORDER.flatMap((slug) => {
    const hours = store.hours(slug, day * 24, day * 24 + 24);
    return hours.length === 0 ? [] : [crossCityRow(slug, day, hours)];
  });
}
