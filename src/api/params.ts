/** The query parameters several endpoints share, and the builders of the others. */
import * as z from 'zod';
import type { City } from '../domain/cities.js';
import { dayNumber, isIsoDate } from '../domain/dates.js';
import type { DayCut } from '../domain/days.js';
import { unsupportedCity } from './error.js';
import { optional, type ParamSpec, type QueryContext, required, withDefault } from './query.js';

const CITY = 'a city slug from GET /api/cities';
const DATE = 'a valid date in YYYY-MM-DD format';
const TIMEZONE = "'UTC' or 'local'";

/** A date as OpenAPI documents it. */
export const dateSchema = z.string().meta({ format: 'date' });

/** A served city by its slug: an empty one is a 400, an unknown one a 404 UNSUPPORTED_CITY. */
function readCity(text: string, ctx: QueryContext): City | undefined {
  if (text.trim() === '') return undefined;
  const city = ctx.cities.get(text);
  if (!city) throw unsupportedCity(text);
  return city;
}

const readDay = (text: string): number | undefined => (isIsoDate(text) ? dayNumber(text) : undefined);

/** `city`, when an answer may be about one city. */
export const cityParam = optional({
  expected: CITY,
  description: `City slug (${CITY}).`,
  schema: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  read: readCity,
});

/** `city`, when an answer is about one city, which must be named. */
export const requiredCity = (options: { once?: boolean } = {}) =>
  required({ expected: CITY, description: `City slug (${CITY}).`, schema: z.string(), read: readCity, ...options });

/** `date`, a UTC day. */
export const utcDate = optional({ expected: DATE, description: `UTC calendar date (${DATE}).`, schema: dateSchema, read: readDay });

/** `date`, a day of the cut `timezone` asks for. */
export const cutDate = optional({
  expected: DATE,
  description: `Calendar date (${DATE}): a UTC day, or with timezone=local each city's local day.`,
  schema: dateSchema,
  read: readDay,
});

/** `timezone`: how days are cut, UTC's (the default, answers as without the parameter) or each city's `local` days. */
export const timezoneParam = (what: string, options: { once?: boolean } = {}) =>
  withDefault<DayCut>(
    choice(['UTC', 'local'], {
      expected: TIMEZONE,
      description: `${TIMEZONE}: how days are cut. UTC (the default; answers as without the parameter) or local: ${what} An extension of the contract.`,
      default: 'UTC',
      ...options,
    }),
    'UTC',
  );

/** One of a few words: `expected` lists them; `anyCase` accepts `high` for `High`. */
export function choice<const T extends string>(
  values: readonly T[],
  spec: { expected: string; description: string; default?: T; once?: boolean; anyCase?: boolean },
): ParamSpec<T> {
  const schema = z.enum(values as [T, ...T[]]);
  return {
    expected: spec.expected,
    description: spec.description,
    schema: spec.default === undefined ? schema : schema.default(spec.default as never),
    once: spec.once,
    read: (text) => values.find((v) => (spec.anyCase ? v.toLowerCase() === text.toLowerCase() : v === text)),
  };
}

/** What a body carries for a cut: nothing for UTC (answers as the contract has them), else `timezone: "local"`. */
export const cutField = (cut: DayCut): { timezone?: 'local' } => (cut === 'local' ? { timezone: 'local' } : {});
