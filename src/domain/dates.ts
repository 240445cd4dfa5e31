/** UTC calendar arithmetic. Days are counted from 1970-01-01 and hours from 1970-01-01T00:00Z. */
import { keptResults } from './bounded-memo.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (so `2025-02-30` is false). */
export function isIsoDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d); // Date.UTC would read years 0-99 as 1900-1999
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Day number of a `YYYY-MM-DD` date; throws on anything else. */
export function dayNumber(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/**
 * `YYYY-MM-DD` of a day number, as `toISOString` writes it. Years of four digits are written from
 * civilDate without a Date (a sixth of the time: every daily row, list and pair names its date);
 * any other day goes through Date, which writes the years beyond as `+YYYYYY` and `-YYYYYY`.
 */
export function dayString(day: number): string {
  if (Number.isInteger(day)) {
    const [year, month, date] = civilDate(day);
    if (year >= 1000 && year <= 9999) return `${year}-${month < 10 ? '0' : ''}${month}-${date < 10 ? '0' : ''}${date}`;
  }
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day containing an instant (ms since epoch). */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** RFC 3339 UTC with milliseconds, the only date-time form responses use. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The start of an hour number, as `isoTime` writes it. The last 8,192 hours written are kept:
 * every city's rows name the same hours, and making the text is most of a row's cost.
 */
export const isoHour: (hour: number) => string = keptResults((hour: number) => isoTime(hour * HOUR_MS), 8192);

/**
 * The UTC calendar date of a day number, as [year, month 1..12, day of the month], in integer
 * arithmetic: no Date is made (Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms",
 * civil_from_days, https://howardhinnant.github.io/date_algorithms.html). The climatology asks for
 * the same date in earlier years for every day of every outlook it scores.
 */
export function civilDate(day: number): [year: number, month: number, date: number] {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097; // day of the 400-year era, 0..146096
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // from 1 March, 0..365
  const mp = Math.floor((5 * doy + 2) / 153); // month from March, 0..11
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

/** The day number of a UTC calendar date (month 1..12), the inverse of civilDate (days_from_civil, as above). */
export function dayOfDate(year: number, month: number, date: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + date - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** Whether a year of the Gregorian calendar has 29 February. */
export const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Day of the year, 1..366, of a day number. */
export function dayOfYear(day: number): number {
  return day - dayOfDate(civilDate(day)[0], 1, 1) + 1;
}

// Building a DateTimeFormat costs far more than using one.
const OFFSET_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The UTC offset of an IANA zone at an instant, as `+HH:MM`. */
export function utcOffset(timeZone: string, ms: number): string {
  let format = OFFSET_FORMATS.get(timeZone);
  if (!format) OFFSET_FORMATS.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-]\d{2}:\d{2})?/.exec(name ?? '');
  return m?.[1] ?? '+00:00';
}

/** The first day of the month `day` falls in. */
export function monthStart(day: number): number {
  const [year, month] = civilDate(day);
  return dayOfDate(year, month, 1);
}

/**
 * The first day served of a store whose newest day is `newest`: the first of the month that holds
 * the day `serveDays` back, so that the oldest month is whole until all its days have left the
 * window, and its bulk files do not change every day (docs/decisions.md, "Served days").
 */
export const firstServedDay = (newest: number, serveDays: number): number => monthStart(newest - serveDays + 1);

const DATE_WORDS = {
  short: new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' }),
};

/** `2026-03-08` as "Sun, Mar 8" (or with `long`, "Sunday, Mar 8"): a local date, read at noon UTC so that no zone moves it. */
export const dateInWords = (date: string, weekday: 'short' | 'long' = 'short'): string =>
  DATE_WORDS[weekday].format(new Date(`${date}T12:00:00Z`));

/**
 * An instant as people read a time, "Sat, Mar 7, 12:20 PM CST": in `timeZone` (the reader's own
 * where none is given), with the year where asked.
 */
export const instantInWords = (iso: string, timeZone?: string, withYear = false): string =>
  new Date(iso).toLocaleString('en-US', {
    ...(timeZone ? { timeZone } : {}),
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(withYear ? { year: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
