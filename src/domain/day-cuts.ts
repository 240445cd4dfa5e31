/**
 * Days as answers cut them: UTC days (the contract's default) or each city's local days in its IANA
 * zone (docs/decisions.md, "Local days"), which hold 23, 24 or 25 hours on daylight-saving changes.
 * Every US zone is a whole number of hours from UTC and changes at 02:00 local time, so each
 * local midnight exists and starts a UTC hour; a cities file with a zone where that fails in the
 * coming years is refused (city-file.ts). Before standard time, zones kept local mean time
 * (Honolulu was 10:30 behind UTC until 1947): such a day starts at the first whole UTC hour after
 * its midnight, the hour `dayOfHour` puts in it.
 */
import { DAY_MS, HOUR_MS, utcOffset } from './dates.js';

export type DayCut = 'UTC' | 'local';

/** Minutes east of UTC of a zone at an instant. */
export function offsetMinutes(zone: string, ms: number): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(utcOffset(zone, ms))!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The instant (ms) at which calendar day `day` begins in `zone`. */
function midnightMs(zone: string, day: number): number {
  const utc = day * DAY_MS;
  // The offset at UTC midnight is the right one unless a change falls between the two midnights.
  const guess = utc - offsetMinutes(zone, utc) * 60_000;
  return utc - offsetMinutes(zone, guess) * 60_000;
}

// Local midnights by zone and day: a render asks for the same few thousand again and again. Any
// date a request names can be asked for, so the cache is emptied once it holds this many.
const MIDNIGHTS_KEPT = 100_000;
const midnights = new Map<string, Map<number, number>>();
let midnightsHeld = 0;

/** The UTC hour (hours since epoch) at which calendar day `day` begins in `zone`. */
export function localMidnight(zone: string, day: number): number {
  let byDay = midnights.get(zone);
  if (!byDay) midnights.set(zone, (byDay = new Map()));
  let hour = byDay.get(day);
  if (hour === undefined) {
    hour = Math.ceil(midnightMs(zone, day) / HOUR_MS);
    if (++midnightsHeld > MIDNIGHTS_KEPT) {
      midnights.clear();
      midnights.set(zone, (byDay = new Map()));
      midnightsHeld = 1;
    }
    byDay.set(day, hour);
  }
  return hour;
}

/** The UTC hours [from, to) of a calendar day: UTC's, or the zone's. */
export function dayHours(cut: DayCut, zone: string, day: number): { from: number; to: number } {
  return cut === 'UTC' ? { from: day * 24, to: day * 24 + 24 } : { from: localMidnight(zone, day), to: localMidnight(zone, day + 1) };
}

/** The calendar day (UTC's, or the zone's) that holds UTC hour `hour`. */
export function dayOfHour(cut: DayCut, zone: string, hour: number): number {
  if (cut === 'UTC') return Math.floor(hour / 24);
  const ms = hour * HOUR_MS;
  return Math.floor((ms + offsetMinutes(zone, ms) * 60_000) / DAY_MS);
}

/** The UTC offset (`-05:00`) at the start of a day: `+00:00` for UTC days. */
export function dayOffset(cut: DayCut, zone: string, day: number): string {
  return cut === 'UTC' ? '+00:00' : utcOffset(zone, localMidnight(zone, day) * HOUR_MS);
}

/** A day of the cut: its number, its first UTC hour, and the hours given that fall in it. */
export interface CutDay<T> {
  day: number;
  from: number;
  hours: T[];
}

/** The day of the cut of each UTC hour, asking the zone only when an hour leaves the last day found. */
export function dayFinder(cut: DayCut, zone: string): (hour: number) => { day: number; from: number; to: number } {
  let found = { day: 0, from: Infinity, to: -Infinity };
  return (hour) => {
    if (hour < found.from || hour >= found.to) {
      const day = dayOfHour(cut, zone, hour);
      found = { day, ...dayHours(cut, zone, day) };
    }
    return found;
  };
}

/** Ascending hours, a day of the cut at a time: streamed, so a long range is never held whole. */
export function* hoursByDay<T extends { hour: number }>(cut: DayCut, zone: string, hours: Iterable<T>): Generator<CutDay<T>> {
  const find = dayFinder(cut, zone);
  let current: CutDay<T> | undefined;
  for (const h of hours) {
    const { day, from } = find(h.hour);
    if (current?.day !== day) {
      if (current) yield current;
      current = { day, from, hours: [] };
    }
    current.hours.push(h);
  }
  if (current) yield current;
}

/** Ascending hours grouped by the day of the cut that holds them, in ascending day order. */
export function groupByDay<T extends { hour: number }>(cut: DayCut, zone: string, hours: Iterable<T>): Map<number, T[]> {
  return new Map(Array.from(hoursByDay(cut, zone, hours), (d) => [d.day, d.hours]));
}

const wholeHourZones = new Map<string, boolean>();

/**
 * Whether every local day of `zone` in the two years from `year` begins at a whole UTC hour, and
 * the day before ends there: true of every US zone; false of a zone with a half-hour offset or
 * one whose clocks change at midnight (America/Havana), where a local midnight does not exist.
 */
export function hasLocalMidnights(zone: string, year = new Date().getUTCFullYear()): boolean {
  const key = `${zone} ${year}`;
  let ok = wholeHourZones.get(key);
  if (ok === undefined) {
    ok = true;
    for (let day = Date.UTC(year, 0, 1) / DAY_MS; ok && day < Date.UTC(year + 2, 0, 1) / DAY_MS; day++) {
      const ms = midnightMs(zone, day);
      ok = ms % HOUR_MS === 0 && dayOfHour('local', zone, ms / HOUR_MS) === day && dayOfHour('local', zone, ms / HOUR_MS - 1) === day - 1;
    }
    wholeHourZones.set(key, ok);
  }
  return ok;
}
