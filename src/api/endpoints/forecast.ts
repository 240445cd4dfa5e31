/**
 * GET /api/forecast: the next 48 hours of a city, cached up to 6 hours (docs/decisions.md,
 * "Forecast"); with `aggregate=day`, one row per UTC or local day those hours touch: the "today
 * and tomorrow" of an allergy app. The forecast holds hours; its rows are made here. A provider
 * that gives days (Atmospore) has no hourly rows: its dates are the daily rows, and `days` adds
 * them as it forecast them, with its own levels, as far as it reaches.
 */

import * as z from 'zod';
import type { City } from '../../domain/cities.js';
import { dayNumber, HOUR_MS } from '../../domain/dates.js';
import { type DayCut, dayOffset, dayOfHour, groupByDay } from '../../domain/day-cuts.js';
import { dailyRow, dailyRowOf } from '../../domain/day-values.js';
import type { PollenHour } from '../../domain/hours.js';
import { type DayHour, hourlyRow } from '../../domain/pollen-rows.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { DateTime } from '../../domain/schemas.js';
import { OUTLOOK_LEADS } from '../../domain/verification/outlook.js';
import type { Forecast } from '../../forecast/service.js';
import { localDays, provenance, provenanceOf } from '../contract/answer-fields.js';
import { CITY_NOT_FOUND } from '../contract/not-found.js';
import { cutField, requiredCity, servedCity, timezoneParam } from '../contract/params.js';
import { integer, param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { dateValues, ForecastUnavailable503, forecastOf, inZone } from './forecast-of.js';
import { ForecastOutlook, outlookDates } from './forecast-outlook.js';

/**
 * Most days ahead `days` may ask for: the longest horizon of any pollen provider, Atmospore's 14
 * days, the issue day included (a test holds it to the providers' table). The outlook reaches
 * OUTLOOK_LEADS - 1 days ahead; a provider's own days, as far as it forecasts.
 */
export const MAX_DAYS_AHEAD = 13;

export const ProviderForecastDay = named(
  'ProviderForecastDay',
  "One date of a daily provider's forecast as the provider forecast it: its value of the day (the daily-row fields, NAB's risks graded on it, its peaks the same value), the provider's id, the date's lead from today, and the provider's own levels in its own words, apart from NAB's.",
  D.DailyPollen.omit({ hours: true }).extend({
    provider: z.string().describe('The id of the provider that forecast the date (atmospore).'),
    lead: z.number().int().min(0).describe("Days after today (UTC's, or with timezone=local the city's)."),
    provider_levels: z
      .record(z.string(), z.string())
      .nullable()
      .describe("The provider's own levels, in its words ({overall: 'high', Oak: 'moderate'}): never NAB's, which the risk fields give."),
  }),
);
export type ProviderForecastDay = z.infer<typeof ProviderForecastDay>;

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
    hourly: z
      .literal(false)
      .optional()
      .describe(
        "Present (false) when the forecast's provider gives one value a day, not hours (atmospore): rows is then empty; with aggregate=day, one row per date it forecast (hours 0), and with days, provider_days. Absent for an hourly provider. An extension of the contract.",
      ),
    note: z.string().optional().describe('Beside hourly: false, why rows is empty, in a sentence.'),
    rows: z.union([z.array(D.ForecastPollen), z.array(D.ForecastDay)]),
    provider_days: z
      .array(ProviderForecastDay)
      .optional()
      .describe(
        'With days, from a daily provider: each date from today to that many days ahead that the provider forecast, as it forecast it, labelled with its id, up to its horizon (14 days for atmospore). Absent for an hourly provider, whose forecast is the rows. An extension of the contract.',
      ),
    outlook: ForecastOutlook.nullable()
      .optional()
      .describe(
        `With days: the outlook (climatology-based, "The outlook" in docs/data.md) from today to that many days ahead, at most ${OUTLOOK_LEADS - 1}: beside the forecast on its own days, alone beyond; null when no render has made one. An extension of the contract.`,
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
        "'none' (hourly rows, the default) or 'day': one row per day the forecast's hours touch, with date, the daily-row fields, hours and tz; from a provider that gives days, one row per date it forecast from today, hours 0. The body echoes aggregate when given. An extension of the contract.",
    }),
    timezone: timezoneParam("with aggregate=day, the days are the city's local days; with days, today is the city's."),
    days: param(integer(0, MAX_DAYS_AHEAD).optional(), {
      description: `Days ahead, 0 to ${MAX_DAYS_AHEAD}: the body adds outlook, each date from today (UTC's, or with timezone=local the city's) to that many days ahead, at most ${OUTLOOK_LEADS - 1}, with each category's probability of each NAB level, beside the forecast's days and beyond them (docs/data.md, "The outlook"); and from a provider that gives days, provider_days, its own forecast of each date to that many days ahead, as far as it reaches. Without it the answer is the contract's. An extension of the contract.`,
    }),
  },
  response: ForecastResponse,
  doc: {
    operationId: 'getForecast',
    summary: 'The 48-hour forecast',
    description:
      'Hourly rows from the current UTC hour, up to 48, cached up to 6 hours per city and provider; from a provider that gives days, none (hourly false, and its dates with aggregate=day or days). A fresh cache answers source "cache"; a refresh answers the provider id (provider names the forecast\'s provider either way). The providers are those of POLLEN_PROVIDERS in order of preference, else the provider of the stored history (a cached forecast of another provider is never served): a fresh cache of any of them is served, the first in order; else each is asked in turn until one answers, one that fails or whose daily call budget is spent handing over to the next; when every refresh fails (an answer with fewer than 24 usable hours included) or is blocked and a cache exists: 200 with stale true (and quotaExhausted true when the provider refused for quota or rate limit, or the daily call budget is spent); with no cache: 503 with Retry-After. Concurrent requests for a city share one upstream call.',
    ok: 'OK.',
    notFound: CITY_NOT_FOUND,
    unavailable: {
      description:
        "No cached forecast and the provider could not be reached; or this deployment's forecast provider lacks its key, or POLLEN_PROVIDER names another provider than the stored history's, or no data is stored yet (the message names the variable); see Retry-After.",
      schema: ForecastUnavailable503.schema,
    },
  },
  llms: "the next 48 hours, cached up to 6 hours; stale: true when the provider could not refresh it; aggregate=day gives one row per day they touch (today and tomorrow); days adds the outlook to that many days ahead, each NAB level's probability, with its skill; a provider that gives days (hourly: false) has no hourly rows, its dates with aggregate=day, and with days its own forecast to 14 days (provider_days)",
  tool: {
    name: 'get_forecast',
    title: '48-hour pollen forecast',
    description:
      'Hourly forecast from the current hour, 48 hours; with aggregate "day", one row per day those hours touch (today and tomorrow), in UTC days or with timezone "local" the city\'s local days. stale is true when the provider could not refresh it and a cached forecast is shown (quotaExhausted when its quota is spent). days (up to 13) adds the outlook to 7 days ahead: for each date, each category\'s probability of each NAB level (most_likely, high_or_above), the outlook\'s where it has beaten climatology, else climatology\'s (served), with its skill (rpss). A provider that gives one value a day (hourly false, with a note) has no hourly rows: aggregate "day" gives its dates, and days its own forecast of each date as far as it reaches (provider_days, up to 14 days, with its own levels).',
    openWorld: true,
  },
  handle: async ({ city: slug, aggregate, timezone: cut, days }, ctx) => {
    const city = servedCity(ctx.cities, slug);
    const forecast = await forecastOf(ctx, city);
    const { hours, timezone, city: name, provider, days: dated, ...head } = forecast;
    const today = dayOfHour(cut, city.timezone, Math.floor(ctx.settings.now() / HOUR_MS));
    const daily = dated
      ? dailyAnswer(forecast, city, cut, aggregate, days === undefined ? undefined : { from: today, to: today + days })
      : {};
    const rows = dated
      ? []
      : aggregate === 'day'
        ? forecastDays(inZone(hours, timezone), city, cut)
        : inZone(hours, timezone).map(forecastRow);
    const outlook =
      days === undefined ? {} : { outlook: outlookDates(ctx.outlooks, city.slug, today, today + Math.min(days, OUTLOOK_LEADS - 1)) };
    const from = provenanceOf(provider);
    return {
      body: { city: name, ...from, ...head, ...(aggregate ? { aggregate } : {}), ...cutField(cut), rows, ...daily, ...outlook },
    };
  },
});

/**
 * What a daily provider's forecast answers instead of hours: why there are no hourly rows; its
 * dates as the daily rows with `aggregate=day`; with `days`, each date of `span` it forecast, as it did.
 */
function dailyAnswer(
  forecast: Forecast,
  city: City,
  cut: DayCut,
  aggregate: 'none' | 'day' | undefined,
  span: { from: number; to: number } | undefined,
) {
  const dated = forecast.days ?? [];
  const note = `${forecast.provider} gives one value a day, not hours: see rows with aggregate=day, and provider_days with days`;
  const rows: D.ForecastDay[] =
    aggregate === 'day'
      ? dated.map((d) => {
          const v = dateValues(d, forecast);
          return Object.assign(dailyRowOf(v), { hours: 0, tz: dayOffset(cut, city.timezone, v.day) });
        })
      : [];
  const providerDays = span
    ? dated
        .filter((d) => dayNumber(d.date) >= span.from && dayNumber(d.date) <= span.to)
        .map((d): ProviderForecastDay => {
          const v = dateValues(d, forecast);
          return { ...dailyRowOf(v), provider: forecast.provider, lead: v.day - span.from, provider_levels: d.levels };
        })
    : undefined;
  return { hourly: false as const, note, rows, ...(providerDays ? { provider_days: providerDays } : {}) };
}

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
