/** The parameters of /api/pollen-range, strictly checked: each may be given once. */
import type { City, CitySet } from '../domain/cities.js';
import { dayNumber, isIsoDate, DAY_MS } from '../domain/dates.js';
import type { DayCut } from '../domain/days.js';
import { invalidParameter, unsupportedCity } from './error.js';
import { parseDayCut } from './params.js';

export const RANGE_EXPECTED = {
  time: 'a date (YYYY-MM-DD) or an RFC 3339 date-time with offset, such as 2025-04-01T06:00:00-05:00',
  to: "a time later than 'from'",
  city: 'comma-separated city slugs from GET /api/cities',
  aggregate: "'none' or 'day'",
  limit: 'an integer from 1 to 50000',
  format: "'json' or 'csv'",
  timezone: "'UTC' or 'local'",
} as const;

export const MAX_LIMIT = 50_000;
export const DEFAULT_LIMIT = 20_000;

export interface RangeQuery {
  from: number;
  to: number;
  /** The day of a date-only `from` or `to`: with local days, each city's own midnight of it. */
  fromDate?: number;
  toDate?: number;
  cut: DayCut;
  cities: City[];
  aggregate: 'none' | 'day';
  limit: number;
  format: 'json' | 'csv';
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since epoch of a `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time; undefined if neither. */
export function parseInstant(text: string): number | undefined {
  if (isIsoDate(text)) return dayNumber(text) * DAY_MS;
  const m = DATE_TIME.exec(text);
  if (!m || !isIsoDate(m[1]!)) return undefined;
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || min > 59 || s > 59) return undefined;
  if (m[7] && (Number(m[8]) > 23 || Number(m[9]) > 59)) return undefined;
  const ms = Date.parse(text.toUpperCase());
  // An offset can push an instant past year 9999, where it could no longer be echoed as YYYY-MM-DD...
  return Number.isFinite(ms) && /^\d{4}-/.test(new Date(ms).toISOString()) ? ms : undefined;
}

function once(query: URLSearchParams, name: string, expected: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw invalidParameter(name, `${expected}, given once`);
  return values[0];
}

/** The checked range request. */
export function parseRangeQuery(query: URLSearchParams, set: CitySet): RangeQuery {
  const instant = (name: 'from' | 'to') => {
    const text = once(query, name, RANGE_EXPECTED.time);
    const ms = text === undefined ? undefined : parseInstant(text);
    if (ms === undefined) throw invalidParameter(name, RANGE_EXPECTED.time);
    return ms;
  };
  const from = instant('from');
  const to = instant('to');
  if (from >= to) throw invalidParameter('to', RANGE_EXPECTED.to);
  const dateOf = (name: 'from' | 'to') => {
    const text = query.get(name)!;
    return isIsoDate(text) ? dayNumber(text) : undefined;
  };

  const cityText = once(query, 'city', RANGE_EXPECTED.city);
  let cities = [...set.list];
  if (cityText !== undefined) {
    const slugs = cityText.split(',');
    if (slugs.some((s) => s.trim() === '')) throw invalidParameter('city', RANGE_EXPECTED.city);
    const unknown = slugs.find((s) => !set.get(s));
    if (unknown !== undefined) throw unsupportedCity(unknown);
    cities = [...new Set(slugs)].map((s) => set.get(s)!);
  }
  cities.sort((a, b) => (a.slug < b.slug ? -1 : 1));

  const aggregate = once(query, 'aggregate', RANGE_EXPECTED.aggregate) ?? 'none';
  if (aggregate !== 'none' && aggregate !== 'day') throw invalidParameter('aggregate', RANGE_EXPECTED.aggregate);

  const limitText = once(query, 'limit', RANGE_EXPECTED.limit);
  const limit = limitText === undefined ? DEFAULT_LIMIT : /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw invalidParameter('limit', RANGE_EXPECTED.limit);

  const format = once(query, 'format', RANGE_EXPECTED.format) ?? 'json';
  if (format !== 'json' && format !== 'csv') throw invalidParameter('format', RANGE_EXPECTED.format);

  const cut = parseDayCut(query, once(query, 'timezone', RANGE_EXPECTED.timezone));

  return { from, to, fromDate: dateOf('from'), toDate: dateOf('to'), cut, cities, aggregate, limit, format };
}
