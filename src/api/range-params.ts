/** The parameters of /api/pollen-range, strictly checked: each may be given once. */
import type { City, CitySet } from '../domain/cities.js';
import { dayNumber, isIsoDate, DAY_MS, HOUR_MS } from '../domain/dates.js';
import { dayHours, dayOfHour, localMidnight, type DayCut } from '../domain/days.js';
import { invalidParameter, unsupportedCity } from './error.js';
import { EXPECTED, once, parseDayCut } from './params.js';

export const RANGE_EXPECTED = {
  time: 'a date (YYYY-MM-DD) or an RFC 3339 date-time with offset, such as 2025-04-01T06:00:00-05:00',
  to: "a time later than 'from'",
  city: 'comma-separated city slugs from GET /api/cities',
  aggregate: EXPECTED.aggregate,
  limit: 'an integer from 1 to 50000',
  format: "'json' or 'csv'",
  timezone: EXPECTED.timezone,
  after: "the last row received, as 'city,periodStart' (the next link of a truncated answer)",
} as const;

export const MAX_LIMIT = 50_000;
export const DEFAULT_LIMIT = 20_000;

/** A city's hours of the range, [from, to): a date-only `from` or `to` is the city's own midnight with local days. */
export interface CityWindow {
  city: City;
  from: number;
  to: number;
}

export interface RangeQuery {
  from: number;
  to: number;
  /** The day of a date-only `from` or `to`: with local days, each city's own midnight of it. */
  fromDate?: number;
  toDate?: number;
  cut: DayCut;
  cities: City[];
  /** Each city's window, in city-slug order. */
  windows: CityWindow[];
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
  const dateOf = (name: 'from' | 'to') => {
    const text = query.get(name)!;
    return isIsoDate(text) ? dayNumber(text) : undefined;
  };
  const [fromDate, toDate] = [dateOf('from'), dateOf('to')];
  const cut = parseDayCut(query, once(query, 'timezone', RANGE_EXPECTED.timezone));
  // With local days a date-only bound is each city's own midnight, so the order is checked per city below.
  const perCity = cut === 'local' && (fromDate !== undefined || toDate !== undefined);
  if (!perCity && from >= to) throw invalidParameter('to', RANGE_EXPECTED.to);

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
  const bound = (city: City, ms: number, date: number | undefined) =>
    perCity && date !== undefined ? localMidnight(city.timezone, date) * HOUR_MS : ms;
  const spans = cities.map((city) => ({ city, from: bound(city, from, fromDate), to: bound(city, to, toDate) }));
  if (spans.some((w) => w.from >= w.to)) throw invalidParameter('to', RANGE_EXPECTED.to);
  const windows = spans.map((w) => ({ city: w.city, from: Math.ceil(w.from / HOUR_MS), to: Math.ceil(w.to / HOUR_MS) }));

  const aggregate = once(query, 'aggregate', RANGE_EXPECTED.aggregate) ?? 'none';
  if (aggregate !== 'none' && aggregate !== 'day') throw invalidParameter('aggregate', RANGE_EXPECTED.aggregate);

  const limitText = once(query, 'limit', RANGE_EXPECTED.limit);
  const limit = limitText === undefined ? DEFAULT_LIMIT : /^\d{1,6}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw invalidParameter('limit', RANGE_EXPECTED.limit);

  const format = once(query, 'format', RANGE_EXPECTED.format) ?? 'json';
  if (format !== 'json' && format !== 'csv') throw invalidParameter('format', RANGE_EXPECTED.format);

  const after = once(query, 'after', RANGE_EXPECTED.after);
  return {
    from,
    to,
    fromDate,
    toDate,
    cut,
    cities,
    windows: after === undefined ? windows : continued(windows, after, aggregate, cut),
    aggregate,
    limit,
    format,
  };
}

/**
 * The windows past a row (`city,periodStart`): rows are ordered by city slug, then periodStart,
 * so the cities before it drop out and its own window starts at the next hour, or the next day.
 */
function continued(windows: CityWindow[], after: string, aggregate: 'none' | 'day', cut: DayCut): CityWindow[] {
  const m = /^([^,]+),(.+)$/.exec(after);
  const ms = m ? parseInstant(m[2]!) : undefined;
  const at = m && windows.find((w) => w.city.slug === m[1]);
  if (!at || ms === undefined) throw invalidParameter('after', RANGE_EXPECTED.after);
  const hour = Math.floor(ms / HOUR_MS);
  const next = aggregate === 'none' ? hour + 1 : dayHours(cut, at.city.timezone, dayOfHour(cut, at.city.timezone, hour)).to;
  return windows
    .filter((w) => w.city.slug >= at.city.slug)
    .map((w) => (w === at ? { ...w, from: Math.min(w.to, Math.max(w.from, next)) } : w));
}
