/** GET /api/weather: a city's days, one city-day, or the compact cross-city snapshot of a date. */

import * as z from 'zod';
import { dayString, isoTime } from '../../domain/dates.js';
import { provenanceOfRows } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import type { WeatherRow } from '../../domain/schemas.js';
import * as D from '../../domain/schemas.js';
import { Day } from '../../domain/schemas.js';
import { usAqi } from '../../domain/us-aqi.js';
import type { StoredWeather } from '../../domain/weather.js';
import { provenance } from '../contract/answer-fields.js';
import { noData } from '../contract/error.js';
import { CITY_OR_NO_DATA } from '../contract/not-found.js';
import { cityParam, servedCity, utcDate } from '../contract/params.js';
import { route } from '../contract/route.js';
import { citiesOn, DATA_PREFIX, ifWeather, theCity } from '../contract/static-forms.js';

/** Weather rows kept for one city. */
export const MAX_WEATHER_ROWS = 365;

export const WeatherResponse = named(
  'WeatherResponse',
  `Weather rows: a city (newest first, up to ${MAX_WEATHER_ROWS}), a city-day, or the compact cross-city snapshot of a date.`,
  z.object({ city: z.string().optional(), date: Day.optional(), ...provenance, rows: z.array(D.WeatherRow) }),
);

const COMPACT = ['temp_day_c', 'humidity', 'wind_speed_ms', 'aqi'] as const;

export const weatherRoute = route({
  path: '/api/weather',
  params: { city: cityParam, date: utcDate },
  response: WeatherResponse,
  doc: {
    operationId: 'getWeather',
    summary: 'Weather and air quality',
    description: `city only: up to ${MAX_WEATHER_ROWS} daily rows, newest first. city and date: rows holds the one row or is empty. date only: the compact snapshot (city_slug, date, temp_day_c, humidity, wind_speed_ms, aqi) of every city with data, by slug. Neither: the same as date=<latest weather date>. date is the UTC day for every provider; temp_day_c is the day's mean temperature. aqi is 1..5 (OpenWeatherMap scale; computed from concentrations with its breakpoints where only those are known).`,
    notFound: CITY_OR_NO_DATA,
  },
  llms: 'daily weather and AQI (1..5)',
  tool: {
    name: 'get_weather',
    title: 'Weather and air quality',
    description: `Daily weather and AQI (1 good to 5 very poor). city only: up to ${MAX_WEATHER_ROWS} days, newest first. city and date: that day. date only: a compact row per city. Neither: the latest date. Unmeasured fields are omitted.`,
  },
  forms: [
    { file: `${DATA_PREFIX}/weather/by-date/{date}.json`, unit: 'date', enumerate: ifWeather },
    { file: `${DATA_PREFIX}/weather/{city}/{date}.json`, unit: 'date', enumerate: citiesOn('weather'), perCityDay: true },
    { file: `${DATA_PREFIX}/weather/{city}.json`, unit: 'city', enumerate: theCity },
  ],
  handle: ({ city: slug, date: day }, { store, cities }) => {
    const city = slug === undefined ? undefined : servedCity(cities, slug);
    // Each row's values name their own provider (domain/provenance.ts); with none, the store's.
    const stored = store.weather.latestSource();
    const full = (rows: StoredWeather[]) =>
      provenanceOfRows(
        rows.map((w) => ({ row: weatherRow(w), sources: [w.source] })),
        stored,
      );
    if (city && day !== undefined) {
      const row = store.weather.cityDay(city.slug, day);
      const { from, rows } = full(row ? [row] : []);
      return { body: { city: city.slug, date: dayString(day), ...from, rows } };
    }
    if (city) {
      const { from, rows } = full(store.weather.forCity(city.slug, MAX_WEATHER_ROWS));
      return { body: { city: city.slug, ...from, rows } };
    }
    const date = day ?? store.weather.latestDay();
    if (date === null) throw noData();
    const { from, rows } = provenanceOfRows(
      store.weather
        .forDay(date)
        .sort((a, b) => (a.city < b.city ? -1 : 1))
        .map((w) => ({ row: { city_slug: w.city, date: dayString(w.day), ...pick(w.values, COMPACT) }, sources: [w.source] })),
      stored,
    );
    return { body: { date: dayString(date), ...from, rows } };
  },
});

/** A full weather row: measured fields only, the EPA's index of them where PM2.5 or PM10 is measured, then where they came from. */
function weatherRow(w: StoredWeather): WeatherRow {
  return {
    city_slug: w.city,
    date: dayString(w.day),
    ...w.values,
    ...usAqi(w.values.aqi_pm2_5, w.values.aqi_pm10),
    source: w.source,
    created_at: isoTime(w.fetchedAt),
  };
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
