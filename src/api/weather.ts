/** GET /api/weather: a city's days, one city-day, or the compact cross-city snapshot of a date. */
import { dayString, isoTime } from '../domain/dates.js';
import type { StoredWeather } from '../domain/weather.js';
import { noData } from './error.js';
import type { Handler } from './handler.js';
import { parseCity, parseDate } from './params.js';

/** Weather rows kept for one city. */
export const MAX_WEATHER_ROWS = 365;
const COMPACT = ['temp_day_c', 'humidity', 'wind_speed_ms', 'aqi'] as const;

export const weather: Handler = (query, { store, cities }) => {
  const city = parseCity(query, cities);
  const day = parseDate(query);
  if (city && day !== undefined) {
    const row = store.weather.cityDay(city.slug, day);
    return { body: { city: city.slug, date: dayString(day), rows: row ? [weatherRow(row)] : [] } };
  }
  if (city) return { body: { city: city.slug, rows: store.weather.forCity(city.slug, MAX_WEATHER_ROWS).map(weatherRow) } };
  const date = day ?? store.weather.latestDay();
  if (date === null) throw noData();
  const rows = store.weather
    .forDay(date)
    .sort((a, b) => (a.city < b.city ? -1 : 1))
    .map((w) => ({ city_slug: w.city, date: dayString(w.day), ...pick(w.values, COMPACT) }));
  return { body: { date: dayString(date), rows } };
};

/** A full weather row: measured fields only, then where they came from. */
function weatherRow(w: StoredWeather) {
  return { city_slug: w.city, date: dayString(w.day), ...w.values, source: w.source, created_at: isoTime(w.fetchedAt) };
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
