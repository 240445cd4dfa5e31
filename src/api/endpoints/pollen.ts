/** GET /api/pollen: a city-day's hours, a city's daily rows, or a date across cities, by UTC or local days. */
import * as z from 'zod';
import type { City, CitySet } from '../../domain/cities.js';
import { dayString } from '../../domain/dates.js';
import type { DayCut } from '../../domain/day-cuts.js';
import { crossCityRowOf, dailyRowOf, isDailyValue } from '../../domain/day-values.js';
import { type DailyPollen, hourlyRow } from '../../domain/pollen-rows.js';
import { provenanceOfRows } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { Day } from '../../domain/schemas.js';
import type { StoreReader } from '../../store/reader.js';
import { dailyOnly, dailyOnlyOf, localDays, provenance } from '../contract/answer-fields.js';
import { noData } from '../contract/error.js';
import { CITY_OR_NO_DATA } from '../contract/not-found.js';
import { cityParam, cutDate, cutField, servedCity, timezoneParam } from '../contract/params.js';
import { route } from '../contract/route.js';
import { citiesOn, DATA_PREFIX, ifPollen, LOCAL, theCity } from '../contract/static-forms.js';
import { hoursOfDay, latestDay } from './day-cut.js';

export const PollenCityDateResponse = named(
  'PollenCityDateResponse',
  'Hourly observations of one city on one UTC date.',
  z.object({ city: z.string(), date: Day, ...localDays, ...provenance, rows: z.array(D.HourlyPollen), ...dailyOnly }),
);

/** Daily rows kept for one city. */
export const MAX_DAILY_ROWS = 720;

export const PollenCityResponse = named(
  'PollenCityResponse',
  `Daily rows of one city, newest first, up to ${MAX_DAILY_ROWS}.`,
  z.object({ city: z.string(), ...localDays, ...provenance, rows: z.array(D.DailyPollen) }),
);
export const PollenDateResponse = named(
  'PollenDateResponse',
  'One row per city with data on the date, by slug.',
  z.object({ date: Day, ...localDays, ...provenance, rows: z.array(D.CrossCityPollen) }),
);

export const pollenRoute = route({
  path: '/api/pollen',
  params: { city: cityParam, date: cutDate, timezone: timezoneParam("each city's own local calendar day (23, 24 or 25 hours).") },
  response: z.union([PollenCityDateResponse, PollenCityResponse, PollenDateResponse]),
  doc: {
    operationId: 'getPollen',
    summary: 'Pollen observations',
    description: `city and date: the hourly rows of that date (none for a day its provider gave as one value, such as atmospore's: then daily_only says so, and the day is among the daily rows). city only: up to ${MAX_DAILY_ROWS} daily rows (days with data), newest first. date only: one cross-city row per city with data, by slug. Neither: the same as date=<latest date>. A valid date without data gives empty rows. With timezone=local the body carries "timezone": "local", daily rows carry hours, and latest is the newest local day complete for every city.`,
    notFound: CITY_OR_NO_DATA,
  },
  llms: 'hourly rows of one city-day; city only: daily rows; date only: one row per city',
  tool: {
    name: 'get_pollen',
    title: 'Pollen for a city and/or date',
    description: `city and date: the hourly rows of that day (tree, grass, weed, total in grains/m³, species, NAB risk). city only: up to ${MAX_DAILY_ROWS} daily rows, newest first, with daily peaks. date only: one row per city (daily maxima). Neither: the latest date. Days are UTC days unless timezone is "local" (then daily rows say how many hours each local day holds).`,
  },
  forms: [
    { file: `${DATA_PREFIX}/pollen/by-date/{date}.json`, unit: 'date', enumerate: ifPollen },
    { file: `${DATA_PREFIX}/pollen/{city}/{date}.json`, unit: 'date', enumerate: citiesOn('pollen'), perCityDay: true },
    { file: `${DATA_PREFIX}/pollen/{city}.json`, unit: 'city', enumerate: theCity },
    // Local days: a city's daily rows and each date across cities. A city's hours of one local
    // day are the fallback function's (CDN-cached): rendered, they would add a file per
    // city-day, half again the deploy at 200 cities (docs/architecture.md, "The render").
    { file: `${DATA_PREFIX}/pollen-local/by-date/{date}.json`, fixed: LOCAL, unit: 'date', enumerate: ifPollen },
    { file: `${DATA_PREFIX}/pollen-local/{city}.json`, fixed: LOCAL, unit: 'city', enumerate: theCity },
  ],
  handle: ({ city: slug, date: day, timezone: cut }, { store, cities }) => {
    const city = slug === undefined ? undefined : servedCity(cities, slug);
    // Each row's values name their own provider (domain/provenance.ts); with none, the store's.
    const stored = store.pollen.latestSource();
    if (city && day !== undefined) {
      const hours = hoursOfDay(store, city, cut, day);
      // A day its provider gave as one value has no hours: the answer says so, and names that provider.
      const daily = hours.length === 0 ? store.values.on(city.slug, cut, day) : undefined;
      const only = daily && isDailyValue(daily) ? daily.source : undefined;
      const { from, rows } = provenanceOfRows(
        hours.map((h) => ({ row: hourlyRow(h), sources: [h.source] })),
        only ?? stored,
      );
      const note = only === undefined ? {} : { daily_only: dailyOnlyOf(only, city.slug, cut === 'local') };
      return { body: { city: city.slug, date: dayString(day), ...cutField(cut), ...from, rows, ...note } };
    }
    if (city) {
      const { from, rows } = provenanceOfRows(dailyRows(store, city, cut), stored);
      return { body: { city: city.slug, ...cutField(cut), ...from, rows } };
    }
    const date = day ?? latestDay(store, cities, cut);
    if (date === null) throw noData();
    const { from, rows } = provenanceOfRows(crossCityRows(store, cities, date, cut), stored);
    return { body: { date: dayString(date), ...cutField(cut), ...from, rows } };
  },
});

/** A city's most recent days with data, newest first; local days say how many hours they hold. */
function dailyRows(store: StoreReader, city: City, cut: DayCut): Array<{ row: DailyPollen; sources: string[] }> {
  const days = store.values.newest(city.slug, cut, MAX_DAILY_ROWS);
  return days.map((v) => ({ row: cut === 'UTC' ? dailyRowOf(v) : Object.assign(dailyRowOf(v), { hours: v.hours }), sources: v.sources }));
}

/** One row per city with data on the day (each city's own day when local), by slug. */
function crossCityRows(store: StoreReader, cities: CitySet, day: number, cut: DayCut) {
  const values = store.values.across(cut, day, day);
  return cities.slugs.flatMap((slug) => {
    const v = values.get(slug)?.get(day);
    return v ? [{ row: crossCityRowOf(slug, v), sources: v.sources }] : [];
  });
}
