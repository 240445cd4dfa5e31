/** Query parameters: each parser returns a checked value or throws an ApiError naming the parameter. */
import type { City, CitySet } from '../domain/cities.js';
import { dayNumber, isIsoDate } from '../domain/dates.js';
import type { DayCut } from '../domain/days.js';
import { invalidParameter, unsupportedCity } from './error.js';

export const EXPECTED = {
  city: 'a city slug from GET /api/cities',
  date: 'a valid date in YYYY-MM-DD format',
  mapDate: "a valid date in YYYY-MM-DD format or 'latest'",
  timezone: "'UTC' or 'local'",
  aggregate: "'none' or 'day'",
} as const;

/**
 * The value of a parameter, undefined when absent. When it is repeated the last value counts:
 * that is the one Netlify's rules engine matches, so static files and functions agree.
 */
export function lastValue(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

/** The value of a parameter that may be given at most once (the strict endpoints: pollen-range, nearest). */
export function once(query: URLSearchParams, name: string, expected: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw invalidParameter(name, `${expected}, given once`);
  return values[0];
}

/** A supported city of the set, or undefined when `city` is absent. */
export function parseCity(query: URLSearchParams, cities: CitySet, slug = lastValue(query, 'city')): City | undefined {
  if (slug === undefined) return undefined;
  if (slug.trim() === '') throw invalidParameter('city', EXPECTED.city);
  const city = cities.get(slug);
  if (!city) throw unsupportedCity(slug);
  return city;
}

/** A UTC day number, or undefined when `date` is absent. */
export function parseDate(query: URLSearchParams, name = 'date'): number | undefined {
  const text = lastValue(query, name);
  if (text === undefined) return undefined;
  if (!isIsoDate(text)) throw invalidParameter(name, EXPECTED.date);
  return dayNumber(text);
}

/** A UTC day number or `'latest'` (the default). */
export function parseMapDate(query: URLSearchParams): number | 'latest' {
  const text = lastValue(query, 'date');
  if (text === undefined || text === 'latest') return 'latest';
  if (!isIsoDate(text)) throw invalidParameter('date', EXPECTED.mapDate);
  return dayNumber(text);
}

/** How days are cut: `UTC` (the default) or each city's `local` days. */
export function parseDayCut(query: URLSearchParams, value = lastValue(query, 'timezone')): DayCut {
  if (value === undefined || value === 'UTC') return 'UTC';
  if (value === 'local') return 'local';
  throw invalidParameter('timezone', EXPECTED.timezone);
}

/** What a body carries for a cut: nothing for UTC (answers as the contract has them), else `timezone: "local"`. */
export const cutField = (cut: DayCut): { timezone?: 'local' } => (cut === 'local' ? { timezone: 'local' } : {});
