/**
 * The bound on a range's reads (countUpTo, docs/decisions.md "Bounded reads"): its rows come from
 * at most RANGE_SHARDS city-quarters or RANGE_SHARDS days of every city, whichever is fewer, and a
 * daily row the bound would cut is left whole for the next page. Checked against a count made
 * here day by day, over windows of many cities and few days, few cities and many days.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { countUpTo, type DayMask } from '../../src/store/hour-counts.js';
import type { CountWindow } from '../../src/store/reader.js';
import { quarterOf, RANGE_SHARDS } from '../../src/store/shards/shard-format.js';

const FULL = 0xffffff;
const first = dayNumber('2025-01-01');

/** Every day of [first, last] with every hour, for every city. */
const everyDay = (_city: string, from: number, to: number): DayMask[] => {
  const out: DayMask[] = [];
  for (let day = from; day <= to; day++) out.push({ day, mask: FULL });
  return out;
};
const windows = (cities: number, days: number, dayOf?: CountWindow['dayOf']): CountWindow[] =>
  Array.from({ length: cities }, (_, i) => ({ city: `c${String(i).padStart(3, '0')}`, from: first * 24, to: (first + days) * 24, dayOf }));

describe('the bound on the shards a range reads', () => {
  it('reads a few days of a thousand cities whole: each day is one shard of every city', () => {
    expect(countUpTo(windows(1000, 2), 1_000_000, everyDay)).toEqual({ count: 1000 * 2 * 24, more: false });
  });

  it("reads one city's two years whole: nine quarters", () => {
    expect(countUpTo(windows(1, 730), 1_000_000, everyDay)).toEqual({ count: 730 * 24, more: false });
  });

  it('stops a long range of many cities before the 24th city-quarter, the rows read counted', () => {
    const read: Array<[string, number]> = [];
    const { count, more } = countUpTo(windows(10, 400), 1_000_000, everyDay, (city, day) => read.push([city, day]));
    expect(more).toBe(true);
    const quarters = new Set(read.map(([city, day]) => `${city}|${quarterOf(day)}`));
    expect(quarters.size).toBe(RANGE_SHARDS);
    expect(count).toBe(read.length * 24);
    // Whole quarters in order: 400 days span 5 quarters a city, so four cities and three quarters of the fifth.
    expect(new Set(read.map(([city]) => city)).size).toBe(5);
    // The limit still cuts first where it is smaller.
    expect(countUpTo(windows(10, 400), 1000, everyDay)).toEqual({ count: 1000, more: true });
  });

  it('leaves out whole a daily row the bound would cut, so the next page begins with it', () => {
    // Local days from 06:00 UTC: each spans two UTC days.
    const local = (hour: number) => Math.floor((hour - 6) / 24);
    const read: Array<[string, number]> = [];
    const { count, more } = countUpTo(windows(10, 400, local), 1_000_000, everyDay, (city, day) => read.push([city, day]));
    expect(more).toBe(true);
    // The days read give one row per local day begun, less the last, which goes on into the day not read.
    const rows = new Set(read.flatMap(([city, day]) => [`${city}|${local(day * 24)}`, `${city}|${local(day * 24 + 23)}`]));
    expect(count).toBe(rows.size - 1);
  });
});
