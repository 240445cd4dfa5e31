import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import type { DailyPollen } from '../../src/domain/schemas.js';
import { citySeasons } from '../../src/domain/seasons/city-seasons.js';
import {
  compareYears,
  type DatedRow,
  type SeasonDay,
  seasonCategories,
  seasonYear,
  seasonYearOf,
  seasonYearsOf,
  seriesSpan,
  yearSeason,
  yearsHeld,
} from '../../src/domain/seasons/year.js';
import { grade } from '../../src/domain/species/risk.js';

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
    // 200 days of 6 grains from 10 April (an exposure season: grass's 5 days of 3 or more, summing to 30): the 5th reaches 2.5% of 1200, the 195th 97.5%.
    const window = seasonYear('grass', 2025);
    const series = flat('2025-04-10', '2025-10-26', 6, zeroYear(window));
    const s = yearSeason(series, window, { latest: window.to, category: 'grass' });
    expect([s.closed, s.complete, s.apin, s.basis]).toEqual([true, true, 1200, 'year']);
    expect(s.season).toMatchObject({
      start: dayString(d('2025-04-10') + 4),
      end: dayString(d('2025-04-10') + 194),
      days: 191,
      spin: 1146,
      peak_date: '2025-04-10', // the first day of the highest mean
      peak_value: 6,
    });
    expect(s.season!.risk_days).toEqual({ None: 0, Low: 191, Moderate: 0, High: 0, 'Very High': 0 });
  });

  it('measures tree from 1 October, so that a winter season spanning New Year is one season', () => {
    // Mountain cedar: 20 from 15 December to 15 February, nothing else.
    const tree = seasonYear('tree', 2025);
    expect([dayString(tree.from), dayString(tree.to)]).toEqual(['2024-10-01', '2025-09-30']);
    const series = flat('2024-12-15', '2025-02-15', 20, zeroYear({ from: d('2024-01-01'), to: d('2025-12-31') }));
    const s = yearSeason(series, tree, { latest: tree.to }).season!;
    // 63 days: 2.5% of 63 x 20 is reached on the 2nd day (40 >= 31.5), 97.5% on the 62nd (1240 >= 1228.5).
    expect([s.start, s.end, s.days]).toEqual(['2024-12-16', '2025-02-14', 61]);
    expect(s.risk_days).toEqual({ None: 0, Low: 0, Moderate: 61, High: 0, 'Very High': 0 });
    // The same days as a calendar-year category: two halves, neither the season.
    const grass = yearSeason(series, seasonYear('grass', 2025), { latest: d('2025-12-31') }).season!;
    expect([grass.start, grass.end]).toEqual(['2025-01-02', '2025-02-14']);
    expect(yearSeason(series, seasonYear('grass', 2024), { latest: d('2025-12-31') }).season!.start).toBe('2024-12-15');
    expect(seasonYear('tree_oak', 2025)).toEqual(tree);
  });

  it.each([
    [329, true],
    [328, false],
  ])('calls a year over with values on %i of its 365 days complete: %s', (days, complete) => {
    const window = seasonYear('weed', 2025);
    const series = flat('2025-01-01', dayString(d('2025-01-01') + days - 1), 3);
    const s = yearSeason(series, window, { latest: d('2026-01-10') });
    expect([s.daysWithData, s.closed, s.complete]).toEqual([days, true, complete]);
  });

  it('does not call a year under way complete, however many of its days it holds, until its last day is held', () => {
    // Every day to 30 December: 364 of 365 days, far above 90%, but the year has not ended.
    const window = seasonYear('grass', 2025);
    const series = flat('2025-06-01', '2025-07-31', 10, zeroYear(window));
    series.delete(d('2025-12-31'));
    const open = yearSeason(series, window, { latest: d('2025-12-30'), earlierTotals: [610], category: 'grass' });
    expect([open.daysWithData, open.closed, open.complete, open.basis]).toEqual([364, false, false, 'earlier years']);
    // Its season ended by the concentration definition months ago: a provisional end, from it.
    expect(open.status).toMatchObject({ state: 'ended', start: '2025-06-01', end: '2025-07-31', provisional: true });
    expect(open.season).toMatchObject({ start: '2025-06-02', end: '2025-07-31', days: 60, spin: 600 });
    // On 31 December the year is over: complete, final, ended by the percentage method on its own total.
    const over = yearSeason(flat('2025-12-31', '2025-12-31', 0, series), window, { latest: d('2025-12-31'), category: 'grass' });
    expect([over.closed, over.complete, over.basis, over.status.provisional]).toEqual([true, true, 'year', false]);
    // 2.5% of 610 (15.25) is reached on 2 June, 97.5% (594.75) on 30 July.
    expect([over.season!.start, over.season!.end]).toEqual(['2025-06-02', '2025-07-30']);
  });

  it('measures a year over with gaps on the days it holds, and says so', () => {
    // The first year a deployment collected: from 1 September only.
    const window = seasonYear('ragweed', 2024);
    const series = flat('2024-09-01', '2024-09-20', 20, flat('2024-09-21', '2024-12-31', 0));
    const s = yearSeason(series, window, { latest: d('2025-03-01'), earlierTotals: [], category: 'ragweed' });
    expect([s.daysWithData, s.closed, s.complete, s.basis]).toEqual([122, true, false, 'days held']);
    // 2.5% of 400 is 10 (1 September), 97.5% is 390 (20 September): an end, on what it holds.
    expect(s.season).toMatchObject({ start: '2024-09-01', end: '2024-09-20', days: 20 });
    expect(s.status).toMatchObject({ state: 'ended', end: '2024-09-20', provisional: true });
  });

  it('skips the days without a value: a gap adds nothing and is no start', () => {
    const window = seasonYear('weed', 2025);
    const series = zeroYear(window);
    for (let day = d('2025-08-01'); day <= d('2025-08-20'); day++) series.delete(day); // 20 days missing
    flat('2025-08-21', '2025-08-30', 10, series);
    const s = yearSeason(series, window, { latest: window.to, category: 'weed' });
    expect([s.daysWithData, s.complete, s.apin]).toEqual([345, true, 100]);
    // 2.5% of 100 (2.5) and 97.5% (97.5) are both reached by 21 and 30 August: days with values.
    expect([s.season!.start, s.season!.end]).toEqual(['2025-08-21', '2025-08-30']);
  });

  it('gives a complete year whose pollen never made an exposure season no season dates, and says why', () => {
    // 200 days of 1 grain: the percentage method would find a season in it; grass's 3 a day is never reached.
    const window = seasonYear('grass', 2025);
    const s = yearSeason(flat('2025-04-10', '2025-10-26', 1, zeroYear(window)), window, { latest: window.to, category: 'grass' });
    expect([s.complete, s.status.state, s.season]).toEqual([true, 'no season', null]);
    expect(s.reason).toBe('no exposure season: never 5 days of 7 at 3 grains/m³ or more summing to 30');
  });

  it('has no season for a category at zero all year, and says why', () => {
    const window = seasonYear('grass', 2025);
    const over = { latest: window.to, category: 'grass' };
    expect(yearSeason(zeroYear(window), window, over)).toMatchObject({
      season: null,
      reason: 'no pollen above zero in the year',
      apin: 0,
      status: { state: 'no season', start: null, end: null },
    });
    expect(yearSeason(new Map(), window, over)).toMatchObject({ season: null, reason: 'no data in the year', through: null });
  });

  it('measures a year under way against the complete earlier years, with no end while its season goes on', () => {
    const window = seasonYear('grass', 2025);
    // To 10 May, 100 grains in all; the earlier years' totals were 1,000 and 3,000 (mean 2,000).
    const series = flat('2025-04-01', '2025-05-10', 2.5, flat('2025-01-01', '2025-03-31', 0));
    const latest = d('2025-05-10');
    const s = yearSeason(series, window, { latest, earlierTotals: [1000, 3000], category: 'grass' });
    expect([s.closed, s.complete, s.basis, s.apin, dayString(s.through!)]).toEqual([false, false, 'earlier years', 100, '2025-05-10']);
    // 2.5% of 2,000 is 50: reached on the 20th day of 2.5.
    expect(s.season).toMatchObject({ start: '2025-04-20', end: null, days: 21, spin: 52.5 });
    // 2.5 a day is below grass's 3: by the concentration definition it has not started.
    expect(s.status).toMatchObject({ state: 'not started', provisional: true });
    // Without an earlier complete year: against its total so far (2.5 on 1 April reaches 2.5% of 100).
    expect(yearSeason(series, window, { latest }).season).toMatchObject({ start: '2025-04-01', end: null });
    expect(yearSeason(flat('2025-01-01', '2025-02-01', 1), window, { latest: d('2025-02-01'), earlierTotals: [1e6] })).toMatchObject({
      season: null,
      reason: 'not started by 2025-02-01',
    });
  });
});

describe('the years a category holds', () => {
  it("names each year by the category's own span: tree's from 1 October, the others' the calendar year", () => {
    expect(seasonYearOf('tree', d('2026-09-30'))).toBe(2026);
    expect(seasonYearOf('tree', d('2026-10-01'))).toBe(2027);
    expect(seasonYearOf('tree_oak', d('2026-11-24'))).toBe(2027);
    expect(seasonYearOf('grass', d('2026-11-24'))).toBe(2026);
    expect(seasonYearOf('ragweed', d('2026-12-31'))).toBe(2026);
    // Days from 25 November 2024 to 24 November 2026: tree holds 2025 (from 25 November 2024), 2026 and 2027 (from
    // 1 October 2026); grass holds 2024 (its last 37 days), 2025 and 2026. No year without a day is listed.
    const days = flat('2024-11-25', '2026-11-24', 1);
    expect(yearsHeld(days, 'tree')).toEqual([2025, 2026, 2027]);
    expect(yearsHeld(days, 'grass')).toEqual([2024, 2025, 2026]);
    expect(yearsHeld(new Map(), 'grass')).toEqual([]);
    // Sparse days, out of order, over five years: the years of the days themselves, each once.
    const sparse = new Map([...days].filter((_, i) => i % 97 === 3).reverse());
    for (const day of [d('2021-09-30'), d('2021-10-01'), d('2022-12-31'), d('2023-01-01')]) sparse.set(day, { value: 1, risk: 'Low' });
    for (const category of ['tree', 'grass'])
      expect(yearsHeld(sparse, category)).toEqual([...new Set([...sparse.keys()].map((day) => seasonYearOf(category, day)))].sort());
  });

  it('gives each day its season year read once a year, in order or not, as the calendar gives it day by day', () => {
    // Days in order across three years' boundaries, then the same days shuffled, repeated and sparse.
    const inOrder = Array.from({ length: 1200 }, (_, i) => d('2024-06-01') + i);
    const shuffled = inOrder.filter((_, i) => i % 7 !== 0).map((day, i) => inOrder[(i * 389) % inOrder.length]! + (day % 3));
    for (const category of ['tree', 'tree_oak', 'grass', 'ragweed'])
      for (const days of [inOrder, shuffled, [], [d('2025-10-01'), d('2025-09-30'), d('2025-10-01')]])
        expect(seasonYearsOf(category, days)).toEqual(days.map((day) => seasonYearOf(category, day)));
    expect(seriesSpan(flat('2025-03-02', '2025-03-09', 1))).toEqual({ first: d('2025-03-02'), last: d('2025-03-09') });
    expect(seriesSpan(new Map())).toBeNull();
  });
});

describe('a year against the earlier years', () => {
  const window = (y: number) => seasonYear('grass', y);
  const year = (y: number, from: string, to: string, value: number) =>
    yearSeason(flat(`${y}-${from}`, `${y}-${to}`, value, zeroYear(window(y))), window(y), { latest: window(y).to, category: 'grass' });

  it('gives the cumulative sum at the same day of the year, how far ahead this year is, and the start difference', () => {
    // 2024: 600 by 30 May, starting on 2 April (day 92 of the leap year: 2.5% of 600 is 15).
    const earlier = year(2024, '04-01', '05-30', 10);
    const now = yearSeason(flat('2025-03-25', '2025-04-30', 20, flat('2025-01-01', '2025-03-24', 0)), window(2025), {
      latest: d('2025-04-30'),
      earlierTotals: [earlier.apin],
    });
    const c = compareYears(now, [{ year: 2024, season: earlier }]);
    // 2025 starts on 25 March (day 83), 9 days of the year earlier. As of 30 April (day 119, which
    // is 29 April in 2024): 2025 has 37 x 20 = 740, 2024 had 29 x 10 = 290.
    expect(c.as_of).toBe('2025-04-30');
    expect(c.cumulative).toBe(740);
    expect(c.years).toEqual([{ year: 2024, as_of: '2024-04-29', cumulative: 290, ahead_pct: 155, start_difference_days: -9 }]);
    expect([c.earlier_years, c.note]).toEqual([1, 'One earlier year (2024): a comparison with that year, not with a normal.']);
  });

  it('compares only with complete earlier years, and says when there is none', () => {
    const partial = yearSeason(flat('2024-12-01', '2024-12-31', 5), window(2024), { latest: d('2025-04-30') });
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
    expect(seasons.map((c) => [c.category, c.year, c.complete, c.reason])).toEqual([
      ['tree', 2025, false, 'no pollen above zero in the year'],
      ['grass', 2025, false, 'no pollen above zero in the year'],
      ['weed', 2025, false, 'no pollen above zero in the year'],
      ['ragweed', 2025, false, 'no pollen above zero in the year'],
      ['tree_oak', 2025, false, 'no pollen above zero in the year'],
      ['grass_grass_poaceae', 2025, false, 'no pollen above zero in the year'],
    ]);
    const grass2024 = years.find((y) => y.year === 2024 && y.category === 'grass')!;
    expect(grass2024).toMatchObject({ complete: true, start: '2024-06-04', end: '2024-09-27', apin: 122 * 30 });
    // Ragweed is graded on NAB's ragweed scale: 8 is Low; weed's 12 is Moderate.
    const y2024 = citySeasons(rows, categories, 2024).categories;
    expect(y2024.find((c) => c.category === 'ragweed')!.season!.risk_days.Low).toBeGreaterThan(100);
    expect(y2024.find((c) => c.category === 'weed')!.season!.risk_days.Moderate).toBeGreaterThan(100);
    // A line per category and year it holds: tree's 2024 runs from October 2023, so it holds January to September 2024.
    expect(years.map((y) => `${y.category} ${y.year}`)).toEqual(categories.flatMap((c) => [`${c.name} 2024`, `${c.name} 2025`]));
  });

  it("answers each category's year under way on the latest data day, and a year asked for only where a category holds it", () => {
    const categories = seasonCategories([]);
    const rows: DatedRow[] = [];
    // To 24 November 2025: tree's year under way is 2026, from 1 October 2025.
    for (let day = d('2024-01-01'); day <= d('2025-11-24'); day++) rows.push(row(dayString(day), 12, 4, 4, 4));
    const under = citySeasons(rows, categories);
    expect(under.year).toBe(2025);
    expect(under.categories.map((c) => [c.category, c.year, c.from, c.closed])).toEqual([
      ['tree', 2026, '2025-10-01', false],
      ['grass', 2025, '2025-01-01', false],
      ['weed', 2025, '2025-01-01', false],
      ['ragweed', 2025, '2025-01-01', false],
    ]);
    expect(under.held).toEqual([2024, 2025, 2026]);
    // 2026 is tree's alone; 2023 nobody's.
    expect(citySeasons(rows, categories, 2026).categories.map((c) => c.category)).toEqual(['tree']);
    expect(citySeasons(rows, categories, 2023)).toMatchObject({ year: 2023, categories: [], held: [2024, 2025, 2026] });
    expect(citySeasons([], categories)).toEqual({ year: null, categories: [], years: [], held: [] });
  });
});
