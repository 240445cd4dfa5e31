import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { grade } from '../../src/domain/risk.js';
import type { DailyPollen } from '../../src/domain/schemas.js';
import {
  citySeasons,
  compareYears,
  type DatedRow,
  type SeasonDay,
  seasonCategories,
  seasonYear,
  yearSeason,
} from '../../src/domain/seasons.js';

const d = dayNumber;
/** A series of `value` on each day of [from, to], graded on tree's scale. */
function flat(from: string, to: string, value: number, series = new Map<number, SeasonDay>()): Map<number, SeasonDay> {
  for (let day = d(from); day <= d(to); day++) series.set(day, { value, risk: grade('tree', value) });
  return series;
}
/** Every day of a window at 0, then `then` laid over it. */
const zeroYear = (window: { from: number; to: number }) => flat(dayString(window.from), dayString(window.to), 0);

describe('a season by the percentage method', () => {
  it('starts on the day the cumulative sum reaches 2.5% of the total and ends on the day it reaches 97.5%', () => {
    // 200 days of 1 grain from 10 April: the 5th reaches 2.5% of 200, the 195th 97.5%.
    const window = seasonYear('grass', 2025);
    const series = flat('2025-04-10', '2025-10-26', 1, zeroYear(window));
    const s = yearSeason(series, window);
    expect([s.complete, s.apin, s.basis]).toEqual([true, 200, 'year']);
    expect(s.season).toMatchObject({
      start: dayString(d('2025-04-10') + 4),
      end: dayString(d('2025-04-10') + 194),
      days: 191,
      spin: 191,
      peak_date: '2025-04-10', // the first day of the highest mean
      peak_value: 1,
    });
    expect(s.season!.risk_days).toEqual({ None: 0, Low: 191, Moderate: 0, High: 0, 'Very High': 0 });
  });

  it('measures tree from 1 October, so that a winter season spanning New Year is one season', () => {
    // Mountain cedar: 20 from 15 December to 15 February, nothing else.
    const tree = seasonYear('tree', 2025);
    expect([dayString(tree.from), dayString(tree.to)]).toEqual(['2024-10-01', '2025-09-30']);
    const series = flat('2024-12-15', '2025-02-15', 20, zeroYear({ from: d('2024-01-01'), to: d('2025-12-31') }));
    const s = yearSeason(series, tree).season!;
    // 63 days: 2.5% of 63 x 20 is reached on the 2nd day (40 >= 31.5), 97.5% on the 62nd (1240 >= 1228.5).
    expect([s.start, s.end, s.days]).toEqual(['2024-12-16', '2025-02-14', 61]);
    expect(s.risk_days).toEqual({ None: 0, Low: 0, Moderate: 61, High: 0, 'Very High': 0 });
    // The same days as a calendar-year category: two halves, neither the season.
    const grass = yearSeason(series, seasonYear('grass', 2025)).season!;
    expect([grass.start, grass.end]).toEqual(['2025-01-02', '2025-02-14']);
    expect(yearSeason(series, seasonYear('grass', 2024)).season!.start).toBe('2024-12-15');
    expect(seasonYear('tree_oak', 2025)).toEqual(tree);
  });

  it.each([
    [329, true],
    [328, false],
  ])('calls a year with values on %i of its 365 days complete: %s', (days, complete) => {
    const window = seasonYear('weed', 2025);
    const series = flat('2025-01-01', dayString(d('2025-01-01') + days - 1), 3);
    const s = yearSeason(series, window);
    expect([s.daysWithData, s.complete]).toEqual([days, complete]);
  });

  it('skips the days without a value: a gap adds nothing and is no start', () => {
    const window = seasonYear('weed', 2025);
    const series = zeroYear(window);
    for (let day = d('2025-08-01'); day <= d('2025-08-20'); day++) series.delete(day); // 20 days missing
    flat('2025-08-21', '2025-08-30', 10, series);
    const s = yearSeason(series, window);
    expect([s.daysWithData, s.complete, s.apin]).toEqual([345, true, 100]);
    // 2.5% of 100 (2.5) and 97.5% (97.5) are both reached by 21 and 30 August: days with values.
    expect([s.season!.start, s.season!.end]).toEqual(['2025-08-21', '2025-08-30']);
  });

  it('has no season for a category at zero all year, and says why', () => {
    const window = seasonYear('grass', 2025);
    expect(yearSeason(zeroYear(window), window)).toMatchObject({ season: null, reason: 'no pollen above zero in the year', apin: 0 });
    expect(yearSeason(new Map(), window)).toMatchObject({ season: null, reason: 'no data in the year', through: null });
  });

  it('measures an incomplete year against the complete earlier years, with no end yet', () => {
    const window = seasonYear('grass', 2025);
    // To 10 May, 100 grains in all; the earlier years' totals were 1,000 and 3,000 (mean 2,000).
    const series = flat('2025-04-01', '2025-05-10', 2.5, flat('2025-01-01', '2025-03-31', 0));
    const s = yearSeason(series, window, [1000, 3000]);
    expect([s.complete, s.basis, s.apin, dayString(s.through!)]).toEqual([false, 'earlier years', 100, '2025-05-10']);
    // 2.5% of 2,000 is 50: reached on the 20th day of 2.5.
    expect(s.season).toMatchObject({ start: '2025-04-20', end: null, days: 21, spin: 52.5 });
    // Without an earlier complete year: against its total so far (2.5 on 1 April reaches 2.5% of 100).
    expect(yearSeason(series, window).season).toMatchObject({ start: '2025-04-01', end: null });
    expect(yearSeason(flat('2025-01-01', '2025-02-01', 1), window, [1e6])).toMatchObject({
      season: null,
      reason: 'not started by 2025-02-01',
    });
  });
});

describe('a year against the earlier years', () => {
  const window = (y: number) => seasonYear('grass', y);
  const year = (y: number, from: string, to: string, value: number) =>
    yearSeason(flat(`${y}-${from}`, `${y}-${to}`, value, zeroYear(window(y))), window(y));

  it('gives the cumulative sum at the same day of the year, how far ahead this year is, and the start difference', () => {
    // 2024: 600 by 30 May, starting on 2 April (day 92 of the leap year: 2.5% of 600 is 15).
    const earlier = year(2024, '04-01', '05-30', 10);
    const now = yearSeason(flat('2025-03-25', '2025-04-30', 20, flat('2025-01-01', '2025-03-24', 0)), window(2025), [earlier.apin]);
    const c = compareYears(now, [{ year: 2024, season: earlier }]);
    // 2025 starts on 25 March (day 83), 9 days of the year earlier. As of 30 April (day 119, which
    // is 29 April in 2024): 2025 has 37 x 20 = 740, 2024 had 29 x 10 = 290.
    expect(c.as_of).toBe('2025-04-30');
    expect(c.cumulative).toBe(740);
    expect(c.years).toEqual([{ year: 2024, as_of: '2024-04-29', cumulative: 290, ahead_pct: 155, start_difference_days: -9 }]);
    expect([c.earlier_years, c.note]).toEqual([1, 'One earlier year (2024): a comparison with that year, not with a normal.']);
  });

  it('compares only with complete earlier years, and says when there is none', () => {
    const partial = yearSeason(flat('2024-12-01', '2024-12-31', 5), window(2024));
    const c = compareYears(year(2025, '04-01', '04-30', 1), [{ year: 2024, season: partial }]);
    expect([c.years, c.earlier_years, c.note]).toEqual([[], 0, 'No complete earlier year to compare with.']);
  });
});

describe("a city's seasons from its daily rows", () => {
  /** A daily row with the three categories and an Oak and a Ragweed species. */
  const row = (date: string, tree: number, grass: number, weed: number, ragweed: number): DatedRow => ({
    day: d(date),
    row: {
      date,
      tree,
      grass,
      weed,
      total: tree + grass + weed,
      species: { Tree: { Oak: tree }, Grass: { 'Grass / Poaceae': grass }, Weed: { Ragweed: ragweed }, Others: 1 },
      risk_tree: grade('tree', tree),
      risk_grass: grade('grass', grass),
      risk_weed: grade('weed', weed),
      timezone: 'America/Chicago',
      peak_tree: tree,
      peak_grass: grass,
      peak_weed: weed,
      peak_total: tree + grass + weed,
      peak_risk_tree: grade('tree', tree),
      peak_risk_grass: grade('grass', grass),
      peak_risk_weed: grade('weed', weed),
    } satisfies DailyPollen,
  });

  it('reads tree, grass, weed, ragweed and each allergen species (not Others, not Ragweed twice), with the years held', () => {
    const categories = seasonCategories([[['Tree', ['Oak']], ['Grass', ['Grass / Poaceae']], ['Weed', ['Ragweed']], ['Others']]]);
    expect(categories.map((c) => c.name)).toEqual(['tree', 'grass', 'weed', 'ragweed', 'tree_oak', 'grass_grass_poaceae']);
    const rows: DatedRow[] = [];
    for (let day = d('2024-01-01'); day <= d('2025-03-01'); day++) {
      const date = dayString(day);
      const summer = date.slice(5, 7) >= '06' && date.slice(5, 7) <= '09';
      rows.push(row(date, 0, summer ? 30 : 0, summer ? 12 : 0, summer ? 8 : 0));
    }
    const { categories: seasons, years } = citySeasons(rows, categories, 2025);
    expect(seasons.map((c) => [c.category, c.complete, c.reason])).toEqual([
      ['tree', false, 'no pollen above zero in the year'],
      ['grass', false, 'no pollen above zero in the year'],
      ['weed', false, 'no pollen above zero in the year'],
      ['ragweed', false, 'no pollen above zero in the year'],
      ['tree_oak', false, 'no pollen above zero in the year'],
      ['grass_grass_poaceae', false, 'no pollen above zero in the year'],
    ]);
    const grass2024 = years.find((y) => y.year === 2024 && y.category === 'grass')!;
    expect(grass2024).toMatchObject({ complete: true, start: '2024-06-04', end: '2024-09-27', apin: 122 * 30 });
    // Ragweed is graded on NAB's ragweed scale: 8 is Low; weed's 12 is Moderate.
    const y2024 = citySeasons(rows, categories, 2024).categories;
    expect(y2024.find((c) => c.category === 'ragweed')!.season!.risk_days.Low).toBeGreaterThan(100);
    expect(y2024.find((c) => c.category === 'weed')!.season!.risk_days.Moderate).toBeGreaterThan(100);
    expect(years.map((y) => y.year)).toEqual([...Array(6).fill(2024), ...Array(6).fill(2025)]);
  });
});
