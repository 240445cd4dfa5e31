/**
 * GET /api/forecast: the next 48 hours of a city, cached up to 6 hours (docs/decisions.md,
 * "Forecast"); with `aggregate=day`, one row per UTC or local day those hours touch: the "today
 * and tomorrow" of an allergy app. The forecast holds hours; its rows are made here.
 */
import type { City } from '../../domain/cities.js';
import { HOUR_MS } from '../../domain/dates.js';
import { dayOffset, dayOfHour, groupByDay, type DayCut } from '../../domain/days.js';
import type { PollenHour } from '../../domain/hours.js';
import { dailyRow } from '../../domain/day-values.js';
import { type DayHour, hourlyRow } from '../../domain/pollen-rows.js';
import * as D from '../../domain/schemas.js';
import { OUTLOOK_LEADS } from '../../domain/verification/outlook.js';
import * as z from 'zod';
import { ForecastUnavailable503, forecastOf, inZone } from './forecast-of.js';
import { named } from '../../domain/schema-names.js';
import { DateTime } from '../../domain/schemas.js';
import { CITY_NOT_FOUND } from '../contract/not-found.js';
import { cutField, requiredCity, servedCity, timezoneParam } from '../contract/params.js';
import { ForecastOutlook, outlookDates } from './forecast-outlook.js';
import { integer, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { localDays, provenance, provenanceOf } from '../contract/answer-fields.js';

export const ForecastResponse = named(
  'ForecastResponse',
  'Hourly rows from the current UTC hour, up to 48, with their freshness; with aggregate=day, one row per day they touch.',
  z.object({
    city: z.string(),
    ...provenance,
    source: z.string().describe('cache when the rows were read from the cache, else the provider they were just fetched from.'),
    stale: z.boolean(),
    quotaExhausted: z.literal(true).optional(),
    fetchedAt: DateTime.nullable(),
    aggregate: z.enum(['none', 'day']).optional().describe('Echoes the aggregate parameter when given.'),
    ...localDays,
    rows: z.union([z.array(D.ForecastPollen), z.array(D.ForecastDay)]),
    outlook: ForecastOutlook.nullable()
      .optional()
      .describe(
        'With days: the outlook from today to that many days ahead (beside the forecast on its own days, alone beyond); null when no render has made one. An extension of the contract.',
      ),
  }),
);
export type ForecastResponse = z.infer<typeof ForecastResponse>;

/** An hourly row whose zone field is named `tz` and whose total may be missing, as the contract's forecast rows have it. */
export type ForecastRow = D.ForecastPollen;

export const forecastRoute = route({
  path: '/api/forecast',
  params: {
    city: requiredCity(),
    aggregate: param(z.enum(['none', 'day']).optional(), {
      description:
        "'none' (hourly rows, the default) or 'day': one row per day the forecast's hours touch, with date, the daily-row fields, hours and tz. The body echoes aggregate when given. An extension of the contract.",
    }),
    timezone: timezoneParam("with aggregate=day, the days are the city's local days; with days, today is the city's."),
    days: param(integer(0, OUTLOOK_LEADS - 1).optional(), {
      description: `Days ahead, 0 to ${OUTLOOK_LEADS - 1}: the body adds outlook, each date from today (UTC's, or with timezone=local the city's) to that many days ahead with each category's probability of each NAB level, beside the forecast's days and beyond them (docs/data.md, "The outlook"). Without it the answer is the contract's. An extension of the contract.`,
    }),
  },
  response: ForecastResponse,
  doc: {
    operationId: 'getForecast',
    summary: 'The 48-hour forecast',
    description:
      'Hourly rows from the current UTC hour, up to 48, cached up to 6 hours per city. A fresh cache answers source "cache"; a refresh answers the provider id (always the provider of the stored history: a cached forecast of another provider is never served); when a refresh fails (an answer with fewer than 24 usable hours included) or is blocked and a cache exists: 200 with stale true (and quotaExhausted true when the provider refused for quota or rate limit, or the daily call budget is spent); with no cache: 503 with Retry-After. Concurrent requests for a city share one upstream call.',
    ok: 'OK.',
    notFound: CITY_NOT_FOUND,
    unavailable: {
      description:
        "No cached forecast and the provider could not be reached; or this deployment's forecast provider lacks its key, or POLLEN_PROVIDER names another provider than the stored history's, or no data is stored yet (the message names the variable); see Retry-After.",
      schema: ForecastUnavailable503.schema,
    },
  },
  llms: "the next 48 hours, cached up to 6 hours; stale: true when the provider could not refresh it; aggregate=day gives one row per day they touch (today and tomorrow); days adds the outlook to that many days ahead, each NAB level's probability, with its skill",
  tool: {
    name: 'get_forecast',
    title: '48-hour pollen forecast',
    description:
      'Hourly forecast from the current hour, 48 hours; with aggregate "day", one row per day those hours touch (today and tomorrow), in UTC days or with timezone "local" the city\'s local days. stale is true when the provider could not refresh it and a cached forecast is shown (quotaExhausted when its quota is spent). days (up to 7) adds the outlook: for each date, each category\'s probability of each NAB level (most_likely, high_or_above), the outlook\'s where it has beaten climatology, else climatology\'s (served), with its skill (rpss).',
    openWorld: true,
  },
  handle: async ({ city: slug, aggregate, timezone: cut, days }, ctx) => {
    const city = servedCity(ctx.cities, slug);
    const { hours, timezone, city: name, ...head } = await forecastOf(ctx, city);
    const zoned = inZone(hours, timezone);
    const rows = aggregate === 'day' ? forecastDays(zoned, city, cut) : zoned.map(forecastRow);
    const today = dayOfHour(cut, city.timezone, Math.floor(ctx.settings.now() / HOUR_MS));
    const outlook = days === undefined ? {} : { outlook: outlookDates(ctx.outlooks, city.slug, today, today + days) };
    const from = provenanceOf(ctx.forecast.providerId);
    return { body: { city: name, ...from, ...head, ...(aggregate ? { aggregate } : {}), ...cutField(cut), rows, ...outlook } };
  },
});

/** The row of a forecast hour: the hourly row, its zone field named `tz`. */
export function forecastRow(h: PollenHour & { timezone: string | null }): ForecastRow {
  const { timezone, ...row } = hourlyRow(h);
  return { ...row, tz: timezone };
}

/** One row per day of the cut that the forecast's hours touch, ascending. */
export function forecastDays(hours: ReadonlyArray<DayHour & { hour: number }>, city: City, cut: DayCut): D.ForecastDay[] {
  return [...groupByDay(cut, city.timezone, hours)].map(([day, list]) =>
    Object.assign(dailyRow(day, list), { hours: list.length, tz: dayOffset(cut, city.timezone, day) }),
  );
}
