/**
 * Where a season stands by the EAACI concentration definition (Pfaar et al. 2017): series laid out
 * by hand, each start and end worked out in the comments from the definition as docs/data.md
 * ("Seasons") states it.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { EXPOSURE_RULES, exposureRule, exposureSpan, seasonStatus } from '../../src/domain/seasons/status.js';

const d = dayNumber;
/** A series from a start date: one value per day, `null` for a day without a value. */
function series(from: string, values: Array<number | null>): Map<number, { value: number }> {
  const out = new Map<number, { value: number }>();
  values.forEach((v, i) => {
    if (v !== null) out.set(d(from) + i, { value: v });
  });
  return out;
}
const grass = EXPOSURE_RULES.grass; // 5 days of 7 at 3 or more, summing to 30
const birch = EXPOSURE_RULES.birch; // 5 days of 7 at 10 or more, summing to 100

describe('the EAACI season of a series', () => {
  it('starts on the first day of the first 5 days within 7 at or above the threshold that sum to the criterion', () => {
    // 1 May: 6, but 1 to 7 May hold only four days at 3+ (6, 3, 8, 7). 4 May: 3, and 4 to 10 May hold
    // 3, 8, 7, 9, 6: five days, summing to 33. The last day whose 7 days up to it hold a period: 10 May.
    const s = series('2025-05-01', [6, 0, 0, 3, 8, 1, 7, 9, 0, 6, 0, 0, 0, 0, 0]);
    expect(exposureSpan(s, d('2025-05-01'), d('2025-05-15'), grass)).toEqual({ start: d('2025-05-04'), end: d('2025-05-10') });
  });

  it('needs the sum: five days at the threshold are not a season when they add up to less', () => {
    // Five days of 10 in a row: 50, below birch's 100. Five of 20: 100, a season from its first day.
    expect(exposureSpan(series('2025-04-01', [10, 10, 10, 10, 10]), d('2025-04-01'), d('2025-04-30'), birch)).toBeNull();
    expect(exposureSpan(series('2025-04-01', [20, 20, 20, 20, 20]), d('2025-04-01'), d('2025-04-30'), birch)).toEqual({
      start: d('2025-04-01'),
      end: d('2025-04-05'),
    });
  });

  it('sums the five highest of the days at or above the threshold, and counts a day without a value as below it', () => {
    // 10, 10, 10, 10, 10, 50 within 7 days: the five highest are 50 + 4 x 10 = 90, below 100.
    expect(exposureSpan(series('2025-04-01', [10, 10, 10, 10, 10, 50]), d('2025-04-01'), d('2025-04-30'), birch)).toBeNull();
    // With a seventh day of 10, every 7 days still hold 50 and 10s: their five highest are 90.
    expect(exposureSpan(series('2025-04-01', [10, 10, 10, 10, 10, 50, 10]), d('2025-04-01'), d('2025-04-30'), birch)).toBeNull();
    // 30 on five days with a missing day between: 1 to 7 April hold 30, 30, -, 30, 30, 30 (five, 150).
    const gap = series('2025-04-01', [30, 30, null, 30, 30, 30]);
    expect(exposureSpan(gap, d('2025-04-01'), d('2025-04-30'), birch)).toEqual({ start: d('2025-04-01'), end: d('2025-04-06') });
    // Two missing days: 30 on 1, 2, 5, 6 and 8 April; 1 to 7 April hold four, 2 to 8 April hold four.
    expect(exposureSpan(series('2025-04-01', [30, 30, null, null, 30, 30, 0, 30]), d('2025-04-01'), d('2025-04-30'), birch)).toBeNull();
  });

  it('ends on the last day of the last such period, however the season is cut by low days', () => {
    // Two flushes of grass, 5 days of 6 each, 20 days apart: one season from the first's start to the second's end.
    const s = series('2025-06-01', [...Array(5).fill(6), ...Array(20).fill(0), ...Array(5).fill(6), ...Array(12).fill(0)]);
    expect(exposureSpan(s, d('2025-06-01'), d('2025-07-12'), grass)).toEqual({ start: d('2025-06-01'), end: d('2025-06-30') });
    // A lone day of 9 ten days later is no period: the end stays.
    s.set(d('2025-07-10'), { value: 9 });
    expect(exposureSpan(s, d('2025-06-01'), d('2025-07-12'), grass)!.end).toBe(d('2025-06-30'));
  });
});

describe('where a season stands on the latest data day', () => {
  const year = { from: d('2025-01-01'), to: d('2025-12-31') };
  // Grass from 1 June: 6 a day to 20 June (five days of 6 make 30, the criterion), then nothing.
  const grassYear = series('2025-01-01', [...Array(151).fill(0), ...Array(20).fill(6), ...Array(194).fill(0)]);

  it.each([
    ['2025-05-31', 'not started', null, null],
    ['2025-06-04', 'not started', null, null], // four days of 6: not yet a period
    ['2025-06-05', 'in season', '2025-06-01', null],
    ['2025-06-26', 'in season', '2025-06-01', null], // 6 days after the last period's end (20 June)
    ['2025-06-27', 'ended', '2025-06-01', '2025-06-20'], // a whole window of 7 days after it
    ['2025-11-24', 'ended', '2025-06-01', '2025-06-20'],
  ])('on %s says %s', (latest, state, start, end) => {
    expect(seasonStatus(grassYear, year, d(latest), false, 'grass')).toEqual({
      state,
      start,
      end,
      provisional: true,
      criterion: { taxon: 'grass', daily: 3, sum: 30 },
    });
  });

  it('goes back in season, and moves the end, when pollen returns', () => {
    const again = new Map(grassYear);
    for (let day = d('2025-07-10'); day <= d('2025-07-16'); day++) again.set(day, { value: 6 });
    expect(seasonStatus(again, year, d('2025-07-14'), false, 'grass')).toMatchObject({
      state: 'in season',
      start: '2025-06-01',
      end: null,
    });
    expect(seasonStatus(again, year, d('2025-07-23'), false, 'grass')).toMatchObject({ state: 'ended', end: '2025-07-16' });
  });

  it('ends a season with the year, final once the year is complete, and says a year over without a period had no season', () => {
    // Still in season on 31 December: the year's end is its end.
    const late = series('2025-12-25', [6, 6, 6, 6, 6, 6, 6]);
    expect(seasonStatus(late, year, d('2025-12-31'), true, 'grass')).toMatchObject({
      state: 'ended',
      start: '2025-12-25',
      end: '2025-12-31',
      provisional: false,
    });
    expect(seasonStatus(series('2025-01-01', Array(365).fill(2)), year, d('2026-03-01'), true, 'grass')).toMatchObject({
      state: 'no season',
      start: null,
      end: null,
    });
  });

  it("takes each category's criterion from the taxon that stands for it", () => {
    expect(
      ['tree', 'tree_oak', 'tree_cypress_juniper_cedar', 'grass', 'grass_grass_poaceae', 'weed', 'ragweed', 'weed_mugwort_wild'].map(
        (c) => exposureRule(c).taxon,
      ),
    ).toEqual(['birch', 'birch', 'cypress', 'grass', 'grass', 'ragweed', 'ragweed', 'ragweed']);
    expect(EXPOSURE_RULES).toEqual({
      birch: { taxon: 'birch', daily: 10, sum: 100 },
      grass: { taxon: 'grass', daily: 3, sum: 30 },
      cypress: { taxon: 'cypress', daily: 20, sum: 200 },
      ragweed: { taxon: 'ragweed', daily: 3, sum: 30 },
    });
  });
});
