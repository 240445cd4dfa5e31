/** The 404s several operations document. */

import * as z from 'zod';
import { NoData, UnsupportedCityError } from './error.js';
import type { Documented } from './route.js';

export const NO_DATA = 'No observations at all yet (an empty store): NO_DATA, "No observations are available yet".';

/** An unsupported city slug. */
export const CITY_NOT_FOUND: Documented = { description: 'Unsupported city (UNSUPPORTED_CITY).', schema: UnsupportedCityError };

/** An unsupported city slug, or without city and date an empty store. */
export const CITY_OR_NO_DATA: Documented = {
  description: `Unsupported city (UNSUPPORTED_CITY). Or, without city and date: ${NO_DATA}`,
  schema: z.union([UnsupportedCityError, NoData.schema]),
};
