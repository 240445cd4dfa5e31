/**
 * The season view's sentences (src/site/app/season-words.ts) on the cases the sample's two years
 * in season-view.test.ts do not reach: several earlier years, a year over, amounts from double on,
 * and the rounding of "about". Each season is a CategorySeason the API's schema accepts.
 */
import { describe, expect, it } from 'vitest';
import { CategorySeason, type SeasonComparison } from '../../src/domain/schemas.js';
import type { SeasonAnswer } from '../../src/site/app/api.js';
import { against, amountWords, compareSentence, standingSentence, startWords } from '../../src/site/app/season-words.js';

const riskDays = { None: 0, Low: 10, Moderate: 20, High: 30, 'Very High': 2 };

/** A grass year as the API answers it, with the fields a case changes; the schema checks the result. */
function grass(changes: Partial<CategorySeason> = {}): CategorySeason {
  return CategorySeason.parse({
    category: 'grass',
    year: 2026,
    from: '2026-01-01',
    to: '2026-12-31',
    days_with_data: 130,
    closed: false,
    complete: false,
    through: '2026-05-10',
    apin: 4000,
    basis: 'earlier years',
    season: { start: '2026-03-20', end: null, days: 52, peak_date: '2026-04-23', peak_value: 223, spin: 3900, risk_days: riskDays },
    reason: null,
    status: { state: 'in season', start: '2026-03-09', end: null, provisional: true, criterion: { taxon: 'grass', daily: 3, sum: 30 } },
    comparison: comparison([{ year: 2025, cumulative: 5000, ahead_pct: -20, start_difference_days: -9 }]),
    ...changes,
  });
}

function comparison(
  years: Array<{ year: number; cumulative: number; ahead_pct: number | null; start_difference_days: number | null }>,
): SeasonComparison {
  return {
    as_of: '2026-05-10',
    cumulative: 4000,
    earlier_years: years.length,
    note: null,
    years: years.map((y) => ({ ...y, as_of: `${y.year}-05-10` })),
  };
}

const answer = (c: CategorySeason, years: SeasonAnswer['years'] = []): SeasonAnswer =>
  ({ city: 'austin', year: 2026, timezone: 'local', provider: 'sample', categories: [c], years }) as SeasonAnswer;

describe('the season sentences', () => {
  it('says amounts as a person would: to the nearest 5%, about as much within 5%, twice and times from double on', () => {
    expect(amountWords(-21)).toBe('about 20% less pollen than');
    expect(amountWords(21)).toBe('about 20% more pollen than');
    expect(amountWords(2)).toBe('about as much pollen as');
    expect(amountWords(-2)).toBe('about as much pollen as');
    expect(amountWords(-99)).toBe('about 95% less pollen than');
    expect(amountWords(96)).toBe('about 95% more pollen than');
    expect(amountWords(98)).toBe('about twice as much pollen as');
    expect(amountWords(150)).toBe('about 2.5 times as much pollen as');
    expect(startWords(-9)).toBe('9 days earlier than');
    expect(startWords(1)).toBe('1 day later than');
    expect(startWords(0)).toBe('on the same day of the year as');
  });

  it('reads a season under way against last year, by the same date', () => {
    const c = grass();
    expect(standingSentence(c)).toBe(
      'Grass pollen season has been under way since Mar 20; its worst day so far was Apr 23. 32 of its days were High or Very High so far.',
    );
    expect(compareSentence(answer(c), c)).toBe(
      'It started 9 days earlier than last year. So far this year there has been about 20% less pollen than by the same date last year.',
    );
  });

  it('sets a year against the average of several earlier years, from their own sums', () => {
    const c = grass({
      comparison: comparison([
        { year: 2024, cumulative: 3000, ahead_pct: 33, start_difference_days: -4 },
        { year: 2025, cumulative: 5000, ahead_pct: -20, start_difference_days: -9 },
      ]),
    });
    // 4000 against the mean of 3000 and 5000: level; starts 4 and 9 days earlier: 6.5, rounded.
    expect(against(c)).toEqual({ name: 'on average in the 2 earlier years', startDays: -6, pct: 0 });
    expect(compareSentence(answer(c), c)).toBe(
      'It started 6 days earlier than on average in the 2 earlier years. So far this year there has been about as much pollen as by the same date on average in the 2 earlier years.',
    );
  });

  it('tells a year over by its whole season, and the one before it by its name', () => {
    const c = grass({
      year: 2025,
      from: '2025-01-01',
      to: '2025-12-31',
      closed: true,
      complete: true,
      basis: 'year',
      season: {
        start: '2025-03-25',
        end: '2025-09-07',
        days: 167,
        peak_date: '2025-06-06',
        peak_value: 243,
        spin: 6244,
        risk_days: riskDays,
      },
      status: {
        state: 'ended',
        start: '2025-03-10',
        end: '2025-09-20',
        provisional: false,
        criterion: { taxon: 'grass', daily: 3, sum: 30 },
      },
      comparison: comparison([{ year: 2024, cumulative: 4000, ahead_pct: 55, start_difference_days: 3 }]),
    });
    expect(standingSentence(c)).toBe(
      'The grass pollen season of 2025 started on Mar 25, peaked on Jun 6 and ended on Sep 7. 32 of its days were High or Very High.',
    );
    expect(compareSentence(answer(c), c)).toBe(
      'It started 3 days later than in 2024. The year brought about 55% more pollen than in 2024.',
    );
    const none = grass({
      ...c,
      season: null,
      reason: 'no exposure season',
      status: { ...c.status, state: 'no season', start: null, end: null },
    });
    expect(standingSentence(none)).toBe('The grass pollen season of 2025 never got going: pollen never stayed high for long.');
  });

  it('names last year’s start for a season not begun, and says when there is nothing to compare with', () => {
    const c = grass({
      season: null,
      reason: 'not started by 2026-02-01',
      status: { state: 'not started', start: null, end: null, provisional: true, criterion: { taxon: 'grass', daily: 3, sum: 30 } },
    });
    const row = { year: 2025, category: 'grass', closed: true, complete: true, status: 'ended' as const, start: '2025-03-25' };
    const last = { ...row, end: '2025-09-07', peak_date: '2025-06-06', peak_value: 243, spin: 6244, apin: 6551 };
    expect(standingSentence(c)).toBe('Grass pollen season has not started yet.');
    expect(compareSentence(answer(c, [last]), c)).toBe('Last year it started on Mar 25.');
    const alone = grass({ comparison: comparison([]) });
    expect(compareSentence(answer(alone), alone)).toBe('There is no full earlier year to compare with yet.');
  });
});
