/**
 * A city's forecast as /api/forecast and /api/alerts read it: through the forecast service, its
 * failures said as 503s, and its hours with the zone the provider gave them.
 */
import type { City } from '../../domain/cities.js';
import type { PollenHour } from '../../domain/hours.js';
import {
  CallUncounted,
  ForecastCacheUnavailable,
  ForecastMisconfigured,
  ForecastUnavailable,
  type Forecast,
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
    if (error instanceof ForecastMisconfigured) {
      // Says what the deployer must set or unset; never a key.
      throw unavailable(error.message, 3600);
    }
    if (error instanceof ForecastCacheUnavailable) {
      // The ledger that keeps refreshes within the provider's budget lives in the cache: none runs without it (the log says why).
      throw unavailable('its cache cannot be opened on this deployment; retry later', 3600);
    }
    if (!(error instanceof ForecastUnavailable)) throw error;
    if (error.failure instanceof CallUncounted)
      throw unavailable(
        'its call ledger cannot be reached, so the provider is not asked, and nothing is cached yet; retry later',
        error.retryAfterSeconds,
      );
    throw unavailable('the provider could not be reached and nothing is cached yet; retry later', error.retryAfterSeconds);
  }
}
