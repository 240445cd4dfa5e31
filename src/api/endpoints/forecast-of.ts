/**
 * A city's forecast as /api/forecast and /api/alerts read it: through the forecast service, its
 * failures said as 503s, and its hours with the zone the provider gave them.
 */
import type { City } from '../../domain/cities.js';
import type { PollenHour } from '../../domain/hours.js';
import { ForecastCacheUnavailable, ForecastMisconfigured, ForecastUnavailable, type Forecast } from '../../forecast/service.js';
import type { ApiContext } from '../contract/context.js';
import { plainError } from '../contract/error.js';

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
      throw plainError(503, `The forecast is unavailable: ${error.message}`, { headers: { 'Retry-After': '3600' } });
    }
    if (error instanceof ForecastCacheUnavailable) {
      // The ledger that keeps refreshes within the provider's budget lives in the cache: none runs without it (the log says why).
      throw plainError(503, 'The forecast is unavailable: its cache cannot be opened on this deployment; retry later', {
        headers: { 'Retry-After': '3600' },
      });
    }
    if (!(error instanceof ForecastUnavailable)) throw error;
    throw plainError(503, 'The forecast is unavailable: the provider could not be reached and nothing is cached yet; retry later', {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
}
