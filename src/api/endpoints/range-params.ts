/** The parameters of /api/pollen-range, strictly checked (each may be given once), and the windows they ask for. */
import * as z from 'zod';
import type { City, CitySet } from '../../domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../domain/dates.js';
import { type DayCut, dayHours, dayOfHour, localMidnight } from '../../domain/day-cuts.js';
import { invalidParameter } from '../contract/error.js';
import { formatParam } from '../contract/format.js';
import { isDateText, servedCity, slugText, timezoneParam } from '../contract/params.js';
import { commaList, integer, param, parseQuery, type QueryOf } from '../contract/query.js';

const TIME = 'a date (YYYY-MM-DD) or an RFC 3339 date-time with offset, such as 2025-04-01T06:00:00-05:00';
const LATER = "a time later than 'from'";
const CITIES = 'comma-separated city slugs from GET /api/cities';
const AFTER = "the last row received, as 'city,periodStart' (the next link of a truncated answer)";

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
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since epoch of a `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time; undefined if neither. */
export function parseInstant(text: string): number | undefined {
  if (isDateText(text)) return dayNumber(text) * DAY_MS;
  const m = DATE_TIME.exec(text);
  if (!m || !isDateText(m[1]!)) return undefined;
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || min > 59 || s > 59) return undefined;
  if (m[7] && (Number(m[8]) > 23 || Number(m[9]) > 59)) return undefined;
  const ms = Date.parse(text.toUpperCase());
  // An offset can push an instant past year 9999, where it could no longer be echoed as YYYY-MM-DD...
  return Number.isFinite(ms) && /^\d{4}-/.test(new Date(ms).toISOString()) ? ms : undefined;
}

/** A bound given: its instant, and its day when it is a date alone. */
interface Bound {
  ms: number;
  date?: number;
}

/** `from` or `to`: its instant, and its day when it is a date alone. */
const bound = (description: string) =>
  param(
    z.string().transform((text, ctx): Bound => {
      const ms = parseInstant(text);
      if (ms === undefined) {
        ctx.issues.push({ code: 'custom', input: text, message: TIME });
        return z.NEVER;
      }
      return { ms, ...(isDateText(text) ? { date: dayNumber(text) } : {}) };
    }),
    { expected: TIME, shape: 'YYYY-MM-DD|RFC3339', description, once: true },
  );

/** The parameters of /api/pollen-range, each given at most once. */
export const RANGE_PARAMS = {
  from: bound(`Inclusive start: ${TIME}.`),
  to: bound(`Exclusive end, later than from: ${TIME}.`),
  city: param(commaList(slugText()).optional(), {
    expected: CITIES,
    shape: 'SLUG,...',
    description: 'Comma-separated city slugs; all cities when omitted. The first unknown slug gives 404 UNSUPPORTED_CITY.',
    once: true,
    // A thousand slugs of seven letters, or a hundred of the longest: a URL's length anyway.
    maxLength: 8192,
  }),
  aggregate: param(z.enum(['none', 'day']).default('none'), {
    description: "'none' (hourly) or 'day'.",
    once: true,
  }),
  limit: param(integer(1, MAX_LIMIT).default(DEFAULT_LIMIT), {
    description: `Most rows returned, 1 to ${MAX_LIMIT}.`,
    once: true,
  }),
  format: formatParam(['csv'], 'the same rows as JSON or as text/csv (species left out, a provider column added).'),
  after: param(z.string().optional(), {
    expected: AFTER,
    shape: 'SLUG,RFC3339',
    listed: false,
    description:
      "Continue after a row: 'city,periodStart' of the last row received (a truncated JSON answer's next link sets it; with CSV, take the last line's city and periodStart). The city must be one of the request's.",
    once: true,
    // A slug, a comma and an instant.
    maxLength: 128,
  }),
  timezone: timezoneParam(
    "aggregate=day groups hours by each city's local day (periodStart its local midnight, as a UTC instant), and a date-only from or to means each city's local midnight and is echoed as given (to must then come after from in every city's zone).",
    { once: true },
  ),
};

/** The checked range of a query (the handler parses it as every route does; this is for tests and MCP-free callers). */
export const parseRangeQuery = (query: URLSearchParams, cities: CitySet): RangeQuery => rangeQuery(parseQuery(RANGE_PARAMS, query), cities);

/** The range a checked query asks for: its cities in slug order, each with its window of hours. */
export function rangeQuery(q: QueryOf<typeof RANGE_PARAMS>, set: CitySet): RangeQuery {
  const { from, to, aggregate, limit, timezone: cut } = q;
  // With local days a date-only bound is each city's own midnight, so the order is checked per city below.
  const perCity = cut === 'local' && (from.date !== undefined || to.date !== undefined);
  if (!perCity && from.ms >= to.ms) throw invalidParameter('to', LATER);
  const cities = (q.city === undefined ? [...set.list] : [...new Set(q.city)].map((slug) => servedCity(set, slug))).sort((a, b) =>
    a.slug < b.slug ? -1 : 1,
  );
  const at = (city: City, b: Bound) => (perCity && b.date !== undefined ? localMidnight(city.timezone, b.date) * HOUR_MS : b.ms);
  const spans = cities.map((city) => ({ city, from: at(city, from), to: at(city, to) }));
  if (spans.some((w) => w.from >= w.to)) throw invalidParameter('to', LATER);
  const windows = spans.map((w) => ({ city: w.city, from: Math.ceil(w.from / HOUR_MS), to: Math.ceil(w.to / HOUR_MS) }));
  return {
    from: from.ms,
    to: to.ms,
    fromDate: from.date,
    toDate: to.date,
    cut,
    cities,
    windows: q.after === undefined ? windows : continued(windows, q.after, aggregate, cut),
    aggregate,
    limit,
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
  if (!at || ms === undefined) throw invalidParameter('after', AFTER);
  const hour = Math.floor(ms / HOUR_MS);
  const next = aggregate === 'none' ? hour + 1 : dayHours(cut, at.city.timezone, dayOfHour(cut, at.city.timezone, hour)).to;
  return windows
    .filter((w) => w.city.slug >= at.city.slug)
    .map((w) => (w === at ? { ...w, from: Math.min(w.to, Math.max(w.from, next)) } : w));
}
