/** The query parameters several endpoints share, each defined once. */
import * as z from 'zod';
import type { City, CitySet } from '../../domain/cities.js';
import { closestSlug } from '../../domain/city-search.js';
import { dayNumber } from '../../domain/dates.js';
import type { DayCut } from '../../domain/days.js';
import { unsupportedCity } from './error.js';
import { MAX_TEXT, type Param, param } from './query.js';

const CITY = 'a city slug from GET /api/cities';
const DATE = 'a valid date in YYYY-MM-DD format';
const TIMEZONE = "'UTC' or 'local'";

/** A slug as given: any text but blanks, at most MAX_TEXT characters (an unknown one is the handler's 404, with the nearest slug). */
export const slugText = () => z.string().max(MAX_TEXT).regex(/\S/);

/** `city`, when an answer may be about one city. */
export const cityParam = param(slugText().optional(), { expected: CITY, description: `City slug (${CITY}).` });

/** `city`, when an answer is about one city, which must be named. */
export const requiredCity = (options: { once?: boolean } = {}) =>
  param(slugText(), { expected: CITY, description: `City slug (${CITY}).`, ...options });

/** The served city of a slug, or 404 UNSUPPORTED_CITY naming the nearest slug. */
export function servedCity(cities: CitySet, slug: string): City {
  const city = cities.get(slug);
  if (!city) throw unsupportedCity(slug, closestSlug(cities.list, slug));
  return city;
}

/** A date as given, read as its day number. */
export const isoDay = z.iso.date().transform(dayNumber);

/** `date`, a UTC day. */
export const utcDate = param(isoDay.optional(), { expected: DATE, description: `UTC calendar date (${DATE}).` });

/** `date`, a day of the cut `timezone` asks for. */
export const cutDate = param(isoDay.optional(), {
  expected: DATE,
  description: `Calendar date (${DATE}): a UTC day, or with timezone=local each city's local day.`,
});

/**
 * `timezone`: how days are cut, UTC's (the default, answers as without the parameter) or each
 * city's `local` days. `what` says what local days change in this endpoint's answer.
 */
export const timezoneParam = (what: string, options: { once?: boolean } = {}): Param<DayCut> =>
  param(z.enum(['UTC', 'local']).default('UTC'), {
    expected: TIMEZONE,
    description: `${TIMEZONE}: how days are cut. UTC (the default; answers as without the parameter) or local: ${what} An extension of the contract.`,
    ...options,
  });

/** What a body carries for a cut: nothing for UTC (answers as the contract has them), else `timezone: "local"`. */
export const cutField = (cut: DayCut): { timezone?: 'local' } => (cut === 'local' ? { timezone: 'local' } : {});
