/** The query parameters several endpoints share, each defined once. */
import * as z from 'zod';
import type { City, CitySet } from '../../domain/cities.js';
import { closestSlug } from '../../domain/city-search.js';
import { dayNumber } from '../../domain/dates.js';
import type { DayCut } from '../../domain/day-cuts.js';
import { Day } from '../../domain/schemas.js';
import { unsupportedCity } from './error.js';
import { MAX_TEXT, type Param, param } from './query.js';

const CITY = 'a city slug from GET /api/cities';
const DATE = 'a valid date in YYYY-MM-DD format';

/** A slug as given: any text but blanks, at most MAX_TEXT characters (an unknown one is the handler's 404, with the nearest slug). */
export const slugText = () => z.string().max(MAX_TEXT).regex(/\S/);

/** `city`, when an answer may be about one city. */
export const cityParam = param(slugText().optional(), { expected: CITY, shape: 'SLUG', description: `City slug (${CITY}).` });

/** `city`, when an answer is about one city, which must be named. */
export const requiredCity = (options: { once?: boolean } = {}) =>
  param(slugText(), { expected: CITY, shape: 'SLUG', description: `City slug (${CITY}).`, ...options });

/** The served city of a slug, or 404 UNSUPPORTED_CITY naming the nearest slug. */
export function servedCity(cities: CitySet, slug: string): City {
  const city = cities.get(slug);
  if (!city) throw unsupportedCity(slug, closestSlug(cities.list, slug));
  return city;
}

/** Whether text is a date, `YYYY-MM-DD` and a day of the calendar: the one rule of every date a request gives. */
export const isDateText = (text: string): boolean => Day.safeParse(text).success;

/**
 * `date`, as its day number; absent, undefined. With `latest`, the word `latest` too, the default
 * (the newest day with data). `describe` writes the description from what it expects.
 */
export function dateParam(describe: (expected: string) => string): Param<number | undefined>;
export function dateParam(describe: (expected: string) => string, options: { latest: true }): Param<number | 'latest'>;
export function dateParam(describe: (expected: string) => string, options: { latest?: true } = {}): Param<number | 'latest' | undefined> {
  if (!options.latest)
    return param(Day.clone().transform(dayNumber).optional(), { expected: DATE, shape: 'YYYY-MM-DD', description: describe(DATE) });
  const expected = `${DATE} or 'latest'`;
  // The transform stays outside the union, where JSON Schema can still say the union.
  const either = z
    .union([z.literal('latest'), Day.clone()])
    .default('latest')
    .transform((text) => (text === 'latest' ? text : dayNumber(text)));
  return param(either, { expected, shape: 'YYYY-MM-DD|latest', description: describe(expected) });
}

/** `date`, a UTC day. */
export const utcDate = dateParam((expected) => `UTC calendar date (${expected}).`);

/** `date`, a day of the cut `timezone` asks for. */
export const cutDate = dateParam((expected) => `Calendar date (${expected}): a UTC day, or with timezone=local each city's local day.`);

/**
 * `timezone`: how days are cut, UTC's (the default, answers as without the parameter) or each
 * city's `local` days. `what` says what local days change in this endpoint's answer.
 */
export const timezoneParam = (what: string, options: { once?: boolean } = {}): Param<DayCut> =>
  param(z.enum(['UTC', 'local']).default('UTC'), {
    description: `'UTC' or 'local': how days are cut. UTC (the default; answers as without the parameter) or local: ${what} An extension of the contract.`,
    ...options,
  });

/** What a body carries for a cut: nothing for UTC (answers as the contract has them), else `timezone: "local"`. */
export const cutField = (cut: DayCut): { timezone?: 'local' } => (cut === 'local' ? { timezone: 'local' } : {});
