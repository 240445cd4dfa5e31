/** GET /api/forecast: the next 48 hours of a city, cached up to 6 hours (spec section 3). */
import { ForecastMisconfigured, ForecastUnavailable } from '../forecast/service.js';
import { ApiError, invalidParameter } from './error.js';
import type { Handler } from './handler.js';
import { EXPECTED, parseCity } from './params.js';

export const forecast: Handler = async (query, ctx) => {
  const service = () => ctx.forecast;
  const city = parseCity(query);
  if (!city) throw invalidParameter('city', EXPECTED.city);
  try {
    return { body: await service().get(city.slug) };
  } catch (error) {
    if (error instanceof ForecastMisconfigured) {
      // Says which variable the deployer must set; never a value.
      throw new ApiError(503, `The forecast is unavailable: this deployment's data comes from ${error.provider}, and ${error.message}`, {}, { 'Retry-After': '3600' });
    }
    if (!(error instanceof ForecastUnavailable)) throw error;
    throw new ApiError(503, 'The forecast is unavailable: the provider could not be reached and nothing is cached yet; retry later', {}, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
};
