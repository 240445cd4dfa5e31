/**
 * A city's forecast as /api/forecast and /api/alerts read it: through the forecast service, its
 * failures said as 503s, and its hours with the zone the provider gave them.
 */
import type { City } from '../../domain/cities.js';
import { dayNumber } from '../../domain/dates.js';
import { type DayCut, groupByDay } from '../../domain/day-cuts.js';
import { type DayValues, dailyDayValues, dayValues } from '../../domain/day-values.js';
import type { PollenHour } from '../../domain/hours.js';
import {
  type CachedDay,
  CallUncounted,
  type Forecast,
  ForecastCacheUnavailable,
  ForecastMisconfigured,
  ForecastUnavailable,
} from '../../forecast/service.js';
import type { ApiContext } from '../contract/context.js';
import { errorKind } from '../contract/error.js';

/** No forecast can be given: the message says why (never a key), Retry-After when to ask again. */
export const ForecastUnavailable503 = errorKind(
  'ForecastUnavailableError',
  'FORECAST_UNAVAILABLE',
  'No forecast can be given: none is cached and the provider cannot be asked (unreachable, its key missing, the call ledger unreachable, or the deployment misconfigured, which the message names).',
);
const unavailable = (message: string, retryAfter: number) =>
  ForecastUnavailable503.error(503, `The forecast is unavailable: ${message}`, { headers: { 'Retry-After': String(retryAfter) } });

/** A forecast's hours with the zone its provider gave them, as daily aggregation and alerts read them. */
export const inZone = (hours: readonly PollenHour[], timezone: string | null): Array<PollenHour & { timezone: string | null }> =>
  hours.map((h) => ({ ...h, timezone }));

/** A city's forecast, or the 503 that says why there is none (`/api/forecast` and `/api/alerts` alike). */
export async function forecastOf(ctx: ApiContext, city: City): Promise<Forecast> {
  try {
    return await ctx.forecast.get(city);
  } catch (error) {
    throw unavailableFor(error);
  }
}

/** Each city's cached forecast, where one is cached (no provider is asked), or the 503 of a deployment that can give none. */
export async function cachedForecasts(ctx: ApiContext, cities: readonly City[]): Promise<Map<string, Forecast>> {
  try {
    const service = ctx.forecast;
    const found = new Map<string, Forecast>();
    // A few reads at a time: the deployed cache is Netlify Blobs, one request per city and provider.
    for (let k = 0; k < cities.length; k += CACHE_READS) {
      const read = await Promise.all(cities.slice(k, k + CACHE_READS).map((c) => service.cached(c)));
      for (const f of read) if (f) found.set(f.city, f);
    }
    return found;
  } catch (error) {
    throw unavailableFor(error);
  }
}

/** Cache reads in flight at once for a view of every city. */
const CACHE_READS = 16;

/** The values of each day of the cut the forecast holds, ascending: its hours' days, or a daily provider's dates. */
export function forecastDayValues(forecast: Forecast, city: City, cut: DayCut): DayValues[] {
  if (forecast.days) return forecast.days.map((d) => dateValues(d, forecast));
  return [...groupByDay(cut, city.timezone, inZone(forecast.hours, forecast.timezone))].map(([day, list]) => dayValues(day, list));
}

/** The values of a daily provider's date, as every daily value is made (day-values.ts). */
export const dateValues = (d: CachedDay, forecast: Pick<Forecast, 'provider' | 'timezone'>): DayValues => {
  const { date, levels, ...values } = d;
  return dailyDayValues({ day: dayNumber(date), ...values, timezone: forecast.timezone, source: forecast.provider, levels });
};

/** The 503 that says why a forecast cannot be given, or the error itself when it is no such reason. */
function unavailableFor(error: unknown): unknown {
  if (error instanceof ForecastMisconfigured) {
    // Says what the deployer must set or unset; never a key.
    return unavailable(error.message, 3600);
  }
  if (error instanceof ForecastCacheUnavailable) {
    // The ledger that keeps refreshes within the provider's budget lives in the cache: none runs without it (the log says why).
    return unavailable('its cache cannot be opened on this deployment; retry later', 3600);
  }
  if (!(error instanceof ForecastUnavailable)) return error;
  if (error.failure instanceof CallUncounted)
    return unavailable(
      'its call ledger cannot be reached, so the provider is not asked, and nothing is cached yet; retry later',
      error.retryAfterSeconds,
    );
  return unavailable('the provider could not be reached and nothing is cached yet; retry later', error.retryAfterSeconds);
}
