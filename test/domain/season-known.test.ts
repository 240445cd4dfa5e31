/**
 * What an issue day knew of a season (season-known.ts), against the season functions themselves
 * run on the days before the issue day only: whether the season was under way (the EAACI status
 * as of the day before) and this year's timing against each complete earlier year (the start
 * difference the seasons give, as the outlook takes it), for any series and issue day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { civilDate, dayNumber } from '../../src/domain/dates.js';
import { categorySeasons } from '../../src/domain/seasons/city-seasons.js';
import { SeasonKnown } from '../../src/domain/seasons/known.js';
import { seasonStatus } from '../../src/domain/seasons/status.js';
import { type DatedRow, type SeasonDay, seasonCategories, seasonYear, seasonYearOf } from '../../src/domain/seasons/year.js';
import { grade } from '../../src/domain/species/risk.js';
import { MAX_SHIFT_DAYS } from '../../src/domain/verification/climatology.js';

const GRASS = seasonCategories([]).find((c) => c.name === 'grass')!;

/** Daily rows of grass values from `first` on (null: a day without data). */
function rows(first: number, values: ReadonlyArray<number | null>): DatedRow[] {
  return values.flatMap((v, i) =>
    v === null
      ? []
      : [
          {
            day: first + i,
            row: {
              grass: v,
              risk_grass: grade('grass', v),
              tree: null,
              weed: null,
              risk_tree: null,
              risk_weed: null,
              species: null,
            } as never,
          },
        ],
  );
}

/** What the day before `issueDay` knew, by the seasons' own functions on the rows before it. */
function reference(all: readonly DatedRow[], issueDay: number): { shifts: Map<number, number>; inSeason: boolean } {
  const before = all.filter((r) => r.day < issueDay);
  const series = new Map<number, SeasonDay>(before.map((r) => [r.day, GRASS.day(r.row)!]));
  const year = seasonYearOf('grass', issueDay);
  const window = seasonYear('grass', year);
  const status = seasonStatus(series, window, issueDay - 1, false, 'grass');
  const shifts = new Map<number, number>();
  if (before.length > 0) {
    const seasons = categorySeasons(before, GRASS, issueDay - 1);
    const mine = seasons.get(year);
    const start = mine?.season?.start;
    if (start && dayNumber(start) < issueDay)
      for (const e of mine.comparison.years) {
        const days = e.start_difference_days;
        if (days !== null && Math.abs(days) <= MAX_SHIFT_DAYS) shifts.set(civilDate(issueDay)[0] - (year - e.year), days);
      }
  }
  return { shifts, inSeason: before.some((r) => r.day >= window.from) && status.state === 'in season' };
}

describe('what an issue day knew of a season', () => {
  it('gives the season state and timing the seasons give on the days before it, whatever the series (property)', () => {
    const first = dayNumber('2023-01-01');
    // Three years of grass: seasons of random size and timing, with gaps.
    const series = fc
      .tuple(
        fc.array(fc.integer({ min: 60, max: 220 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 10, max: 120 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1096, maxLength: 1096 }),
      )
      .map(([peaks, sizes, noise]) =>
        noise.map((n, i) => {
          if (n === 0) return null; // a day without data
          const year = Math.floor(i / 365.25);
          const dayOfYear = i - Math.round(year * 365.25);
          const bell = sizes[year]! * Math.exp(-0.5 * ((dayOfYear - peaks[year]!) / 20) ** 2);
          return Math.round(bell * (0.5 + n / 10));
        }),
      );
    fc.assert(
      fc.property(series, fc.array(fc.integer({ min: 1, max: 1095 }), { minLength: 6, maxLength: 6 }), (values, offsets) => {
        const all = rows(first, values);
        const known = new SeasonKnown(new Map(all.map((r) => [r.day, GRASS.day(r.row)!])), 'grass');
        for (const offset of offsets) {
          const issueDay = first + offset;
          const got = known.on(issueDay);
          const want = reference(all, issueDay);
          expect({ shifts: [...got.shifts], inSeason: got.inSeason }, `issued ${offset} days in`).toEqual({
            shifts: [...want.shifts],
            inSeason: want.inSeason,
          });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('knows the season only from its start: a season starting after the issue day is not yet under way', () => {
    // 2025 and 2026 alike, grass at 10 a day from 1 April to 30 June; nothing otherwise.
    const values: Array<number | null> = [];
    for (let day = dayNumber('2025-01-01'); day <= dayNumber('2026-12-31'); day++) {
      const [, month] = civilDate(day);
      values.push(month >= 4 && month <= 6 ? 10 : 0);
    }
    const all = rows(dayNumber('2025-01-01'), values);
    const known = new SeasonKnown(new Map(all.map((r) => [r.day, GRASS.day(r.row)!])), 'grass');
    // 1 April 2026: nothing of this year's season known yet; 8 April: five days of 10 in 7 started it on 1 April.
    expect(known.on(dayNumber('2026-04-01'))).toMatchObject({ inSeason: false });
    expect(known.on(dayNumber('2026-04-08'))).toMatchObject({ inSeason: true });
    // The start (2.5% of 2025's 910) is reached on 3 April in both years: no shift against 2025.
    expect([...known.on(dayNumber('2026-04-08')).shifts]).toEqual([[2025, 0]]);
    expect([...known.on(dayNumber('2026-04-02')).shifts]).toEqual([]);
  });
});
