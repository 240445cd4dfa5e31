/** GET /api/pollen: a city-day's hours, a city's daily rows, or a date across cities, by UTC or local days. */
import type { City, CitySet } from '../domain/cities.js';
import { dayString } from '../domain/dates.js';
import { groupByDay, type DayCut } from '../domain/days.js';
import { crossCityRow } from '../domain/map.js';
import { dailyRow, hourlyRow, type DailyPollen } from '../domain/pollen-rows.js';
import type { StoreReader } from '../store/reader.js';
import { hoursOfDay, latestDay } from './day-cut.js';
import { noData } from './error.js';
import type { Handler } from './handler.js';
import { cutField, parseCity, parseDate, parseDayCut } from './params.js';

/** Daily rows kept for one city. */
export const MAX_DAILY_ROWS = 720;

export const pollen: Handler = (query, { store, cities }) => {
  const city = parseCity(query, cities);
  const day = parseDate(query);
  const cut = parseDayCut(query);
  if (city && day !== undefined) {
    return { body: { city: city.slug, date: dayString(day), ...cutField(cut), rows: hoursOfDay(store, city, cut, day).map(hourlyRow) } };
  }
  if (city) return { body: { city: city.slug, ...cutField(cut), rows: dailyRows(store, city, cut) } };
  const date = day ?? latestDay(store, cities, cut);
  if (date === null) throw noData();
  return { body: { date: dayString(date), ...cutField(cut), rows: crossCityRows(store, cities, date, cut) } };
};

/** A city's most recent days with data, newest first; local days say how many hours they hold. */
function dailyRows(store: StoreReader, city: City, cut: DayCut): Array<DailyPollen & { hours?: number }> {
  // West of UTC (every US zone) a local day ends in the UTC day after it, so the newest UTC days
  // with data hold as many whole local days, and an older partial one that the limit cuts.
  const days = store.pollen.cityDaysWithData(city.slug, MAX_DAILY_ROWS);
  if (days.length === 0) return [];
  const byDay = groupByDay(cut, city.timezone, store.pollen.hours(city.slug, days.at(-1)! * 24, (days[0]! + 1) * 24));
  if (cut === 'UTC') return days.slice(0, MAX_DAILY_ROWS).map((d) => dailyRow(d, byDay.get(d) ?? []));
  return [...byDay]
    .reverse()
    .slice(0, MAX_DAILY_ROWS)
    .map(([d, hours]) => Object.assign(dailyRow(d, hours), { hours: hours.length }));
}

/** One row per city with data on the day (each city's own day when local), by slug. */
function crossCityRows(store: StoreReader, cities: CitySet, day: number, cut: DayCut) {
  return cities.slugs.flatMap((slug) => {
    const hours = hoursOfDay(store, cities.get(slug)!, cut, day);
    return hours.length === 0 ? [] : [crossCityRow(slug, day, hours)];
  });
}
