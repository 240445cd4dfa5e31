/** GET /api/pollen: a city-day's hours, a city's daily rows, or a date across cities. */
import { SLUGS_IN_ORDER, type City } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import { crossCityRow } from '../domain/map.js';
import { byDay, dailyRow, hourlyRow, type DailyPollen } from '../domain/pollen-rows.js';
import type { Store } from '../store/store.js';
import { noData } from './error.js';
import type { Handler } from './handler.js';
import { parseCity, parseDate } from './params.js';

/** Daily rows kept for one city. */
export const MAX_DAILY_ROWS = 720;

export const pollen: Handler = (query, { store }) => {
  const city = parseCity(query);
  const day = parseDate(query);
  if (city && day !== undefined) {
    return { body: { city: city.slug, date: dayString(day), rows: store.hours(city.slug, day * 24, day * 24 + 24).map(hourlyRow) } };
  }
  if (city) return { body: { city: city.slug, rows: dailyRows(store, city) } };
  const date = day ?? store.latestDay();
  if (date === null) throw noData();
  return { body: { date: dayString(date), rows: crossCityRows(store, date) } };
};

/** A city's most recent days with data, newest first. */
function dailyRows(store: Store, city: City): DailyPollen[] {
  const days = store.cityDaysWithData(city.slug, MAX_DAILY_ROWS);
  if (days.length === 0) return [];
  const hours = byDay(store.hours(city.slug, days.at(-1)! * 24, (days[0]! + 1) * 24));
  return days.map((d) => dailyRow(d, hours.get(d) ?? []));
}

/** One row per city with data on the day, by slug. */
function crossCityRows(store: Store, day: number) {
  return SLUGS_IN_ORDER.flatMap((slug) => {
    const hours = store.hours(slug, day * 24, day * 24 + 24);
    return hours.length === 0 ? [] : [crossCityRow(slug, day, hours)];
  });
}
