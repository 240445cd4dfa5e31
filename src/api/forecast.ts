/** GET /api/forecast: the next 48 hours of a city, cached up to 6 hours (spec section 3). */
import { ForecastUnavailable } from '../forecast/service.js';
import { ApiError, invalidParameter } from './error.js';
import type { Handler } from './handler.js';
import { EXPECTED, parseCity } from './params.js';

export const forecast: Handler = async (query, { forecast: service }) => {
  const city = parseCity(query);
  if (!city) throw invalidParameter('city', EXPECTED.city);
  try {
    return { body: await service.get(city.slug) };
  } catch (error) {
    if (!(error instanceof ForecastUnavailable)) throw error;
    throw new ApiError(503, 'The forecast is unavailable: the provider could not be reached and nothing is cached yet; retry later', {}, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
};
