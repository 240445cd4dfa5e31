/**
 * GET /api/forecast: the next 48 hours of a city, cached up to 6 hours (docs/decisions.md,
 * "Forecast"); with `aggregate=day`, one row per UTC or local day those hours touch: the "today
 * and tomorrow" of an allergy app. The forecast holds hours; its rows are made here.
 */
import type { City } from '../domain/cities.js';
import { dayOffset, groupByDay, type DayCut } from '../domain/days.js';
import type { PollenHour } from '../domain/hours.js';
import { dailyRow, type DayHour, hourlyRow } from '../domain/pollen-rows.js';
import type { ForecastDay, ForecastPollen } from '../domain/schemas.js';
import { ForecastCacheUnavailable, ForecastMisconfigured, ForecastUnavailable, type Forecast } from '../forecast/service.js';
import { ApiError, invalidParameter } from './error.js';
import type { ApiContext, Handler } from './handler.js';
import { cutField, EXPECTED, lastValue, parseCity, parseDayCut } from './params.js';

/** An hourly row whose zone field is named `tz` and whose total may be missing, as the contract's forecast rows have it. */
export type ForecastRow = ForecastPollen;

export const forecast: Handler = async (query, ctx) => {
  const city = parseCity(query, ctx.cities);
  if (!city) throw invalidParameter('city', EXPECTED.city);
  const cut = parseDayCut(query);
  const aggregate = lastValue(query, 'aggregate');
  if (aggregate !== undefined && aggregate !== 'none' && aggregate !== 'day') throw invalidParameter('aggregate', EXPECTED.aggregate);
  const { hours, timezone, ...head } = await forecastOf(ctx, city);
  const zoned = inZone(hours, timezone);
  const rows = aggregate === 'day' ? forecastDays(zoned, city, cut) : zoned.map(forecastRow);
  return { body: { ...head, ...(aggregate ? { aggregate } : {}), ...cutField(cut), rows } };
};

/** A forecast's hours with the zone its provider gave them, as daily aggregation and alerts read them. */
export const inZone = (hours: readonly PollenHour[], timezone: string | null): Array<PollenHour & { timezone: string | null }> =>
  hours.map((h) => ({ ...h, timezone }));

/** The row of a forecast hour: the hourly row, its zone field named `tz`. */
export function forecastRow(h: PollenHour & { timezone: string | null }): ForecastRow {
  const { timezone, ...row } = hourlyRow(h);
  return { ...row, tz: timezone };
}

/** A city's forecast, or the 503 that says why there is none (`/api/forecast` and `/api/alerts` alike). */
export async function forecastOf(ctx: ApiContext, city: City): Promise<Forecast> {
  try {
    return await ctx.forecast.get(city);
  } catch (error) {
    if (error instanceof ForecastMisconfigured) {
      // Says which variable the deployer must set; never a value.
      throw new ApiError(
        503,
        `The forecast is unavailable: this deployment's data comes from ${error.provider}, and ${error.message}`,
        {},
        { 'Retry-After': '3600' },
      );
    }
    if (error instanceof ForecastCacheUnavailable) {
      // The ledger that keeps refreshes within the provider's budget lives in the cache: none runs without it (the log says why).
      throw new ApiError(
        503,
        'The forecast is unavailable: its cache cannot be opened on this deployment; retry later',
        {},
        { 'Retry-After': '3600' },
      );
    }
    if (!(error instanceof ForecastUnavailable)) throw error;
    throw new ApiError(
      503,
      'The forecast is unavailable: the provider could not be reached and nothing is cached yet; retry later',
      {},
      {
        'Retry-After': String(error.retryAfterSeconds),
      },
    );
  }
}

/** One row per day of the cut that the forecast's hours touch, ascending. */
export function forecastDays(hours: ReadonlyArray<DayHour & { hour: number }>, city: City, cut: DayCut): ForecastDay[] {
  return [...groupByDay(cut, city.timezone, hours)].map(([day, list]) =>
    Object.assign(dailyRow(day, list), { hours: list.length, tz: dayOffset(cut, city.timezone, day) }),
  );
}
