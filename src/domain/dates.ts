/** UTC calendar arithmetic. Days are counted from 1970-01-01 and hours from 1970-01-01T00:00Z. */
import { keptResults } from './memo.js';

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

/** `YYYY-MM-DD` of a day number. */
export function dayString(day: number): string {
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

/** Day of the year, 1..366, of a day number. */
export function dayOfYear(day: number): number {
  const d = new Date(day * DAY_MS);
  return day - Math.floor(Date.UTC(d.getUTCFullYear(), 0, 1) / DAY_MS) + 1;
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
