/**
 * How many of a window's hours, or of the days they group into, a store holds, read from the days'
 * masks of their hours (one bit an hour) without decoding a day: what a range answer counts
 * before it streams, whichever store (SQLite or shards) gives the masks.
 */
import { setFlags } from './codec.js';
import type { CountWindow } from './reader.js';
import { quarterOf, RANGE_SHARDS } from './shards/shard-format.js';

/** A day with an hour and the mask of its hours. */
export interface DayMask {
  day: number;
  mask: number;
}

/**
 * Whether the rows of each city's window [from, to) number more than `limit`, and how many there
 * are up to it (PollenDays.countUpTo), from `masks`: a city's days with an hour in [first, last],
 * ascending (undefined for a city the store does not know). The rows also stop, `more` being
 * true, before a day that would take them past RANGE_SHARDS city-quarters and RANGE_SHARDS days
 * alike (docs/decisions.md, "Bounded reads"); a daily row that day would end is left out whole.
 * `read` hears each day counted.
 */
export function countUpTo(
  windows: readonly CountWindow[],
  limit: number,
  masks: (city: string, first: number, last: number) => Iterable<DayMask> | undefined,
  read?: (city: string, day: number) => void,
): { count: number; more: boolean } {
  let count = 0;
  const days = new Set<number>();
  const quarters = new Set<string>();
  for (const { city, from, to, dayOf } of windows) {
    if (to <= from) continue;
    const held = masks(city, Math.floor(from / 24), Math.floor((to - 1) / 24));
    if (held === undefined) continue;
    let lastDay: number | undefined;
    for (const { day, mask } of held) {
      const quarter = `${city}|${quarterOf(day)}`;
      if (Math.min(days.size + (days.has(day) ? 0 : 1), quarters.size + (quarters.has(quarter) ? 0 : 1)) > RANGE_SHARDS) {
        if (dayOf && lastDay !== undefined && firstGroup(day, mask, from, to, dayOf) === lastDay) count--;
        return { count, more: true };
      }
      days.add(day);
      quarters.add(quarter);
      read?.(city, day);
      if (!dayOf) count += hoursIn(day, mask, from, to);
      else {
        for (let h = Math.max(from, day * 24); h < Math.min(to, day * 24 + 24); h++) {
          if (!(mask & (1 << (h - day * 24)))) continue;
          const d = dayOf(h);
          if (d !== lastDay) {
            lastDay = d;
            count++;
          }
        }
      }
      if (count > limit) return { count: limit, more: true };
    }
  }
  return { count, more: false };
}

/** The group (`dayOf`) of a day's first hour in [from, to), if it has one. */
function firstGroup(day: number, mask: number, from: number, to: number, dayOf: (hour: number) => number): number | undefined {
  for (let h = Math.max(from, day * 24); h < Math.min(to, day * 24 + 24); h++) if (mask & (1 << (h - day * 24))) return dayOf(h);
  return undefined;
}

/** The hours of a day's mask that fall in [fromHour, toHour). */
export const hoursIn = (day: number, mask: number, fromHour: number, toHour: number): number => {
  const lo = Math.max(0, fromHour - day * 24);
  const hi = Math.min(24, toHour - day * 24);
  return hi <= lo ? 0 : setFlags(mask & (((1 << hi) - 1) ^ ((1 << lo) - 1)));
};
