/**
 * What was known of a category's season on an issue day, from the days before it only
 * (docs/data.md, "The outlook"; "Forecast skill"): this season year's timing against each
 * complete earlier year (the shift the outlook moves the earlier years by), and whether the season
 * was under way. An outlook issued on a day, and the scores of the days it forecasts "in season",
 * read only this: never the seasons as a later day measures them (a year under way is measured
 * against the earlier years' mean total, and its start moves once the year's own total is known).
 *
 * - The timing: the season's start by the percentage method (seasons.ts) as it stood the day
 *   before: a year under way reaches 2.5% of the complete earlier years' mean total; a closed year
 *   its own. Against each earlier year complete by then, in days, within MAX_SHIFT_DAYS, keyed (as
 *   Climatology takes it) by the calendar year of the same date in that year. None before the start.
 * - Under way: the EAACI concentration definition (season-status.ts) on the days to the day
 *   before: "in season" once a period has started it, until a week passes without another.
 */

import { civilDate } from '../dates.js';
import { MAX_SHIFT_DAYS } from '../verification/climatology.js';
import { type ExposureRule, exposureRule, PERIOD_DAYS, WINDOW_DAYS } from './status.js';
import { type SeasonSeries, START_SHARE, seasonYear, seasonYearOf, seriesSpan, yearSeason } from './year.js';

/** A closed year's season as every later day knows it. */
interface ClosedYear {
  year: number;
  complete: boolean;
  apin: number;
  startIndex: number | null;
}

/** What an issue day knew: the season timing against earlier years, and whether the season was under way. */
export interface Known {
  shifts: ReadonlyMap<number, number>;
  /** The same timing as a string: equal for equal timings (outlooks of one timing share a climatology). */
  key: string;
  inSeason: boolean;
}

/** One season year's days: cumulative sums, and the EAACI start and end candidates. */
interface YearDays {
  from: number;
  to: number;
  cumulative: Float64Array;
  /** Whether each day is at or above the threshold. */
  atOrAbove: Uint8Array;
  /** The first day that starts a period within its whole 7 days (or the year's end), -1 for none. */
  fullStart: number;
  /** The latest day (index) up to each that ends a period (looking back 7 days, within the year), -1 for none. */
  lastEnd: Int32Array;
  /** Each day's value, -1 without one (below any threshold). */
  values: Float64Array;
}

/** Whether values[from..to] (indexes, inclusive) hold a period: 5 at or above the threshold whose 5 highest reach the sum. */
function holdsPeriod(values: Float64Array, from: number, to: number, rule: ExposureRule): boolean {
  const top = [-1, -1, -1, -1, -1];
  let high = 0;
  for (let i = from; i <= to; i++) {
    const v = values[i]!;
    if (v < rule.daily) continue;
    high++;
    // Keep the five highest, descending.
    for (let k = 0; k < PERIOD_DAYS; k++) {
      if (v > top[k]!) {
        for (let m = PERIOD_DAYS - 1; m > k; m--) top[m] = top[m - 1]!;
        top[k] = v;
        break;
      }
    }
  }
  return high >= PERIOD_DAYS && top.reduce((a, b) => a + b, 0) >= rule.sum;
}

/** What the days before each issue day knew of one category's seasons. */
export class SeasonKnown {
  private readonly rule: ExposureRule;
  private readonly closed = new Map<number, ClosedYear>();
  private readonly years = new Map<number, YearDays>();
  private readonly made = new Map<string, Known>();
  /** The series' first day: no year before its year is held. */
  private readonly first: number;

  constructor(
    private readonly series: SeasonSeries,
    private readonly category: string,
  ) {
    this.rule = exposureRule(category);
    this.first = seriesSpan(series)?.first ?? Number.POSITIVE_INFINITY;
  }

  /** A year's days, made once. */
  private yearDays(year: number): YearDays {
    let y = this.years.get(year);
    if (y) return y;
    const { from, to } = seasonYear(this.category, year);
    const length = to - from + 1;
    const values = new Float64Array(length).fill(-1);
    const cumulative = new Float64Array(length);
    let sum = 0;
    for (let i = 0; i < length; i++) {
      const v = this.series.get(from + i)?.value;
      if (v !== undefined) {
        values[i] = v;
        sum += v;
      }
      cumulative[i] = sum;
    }
    const atOrAbove = new Uint8Array(length);
    const lastEnd = new Int32Array(length);
    let fullStart = -1;
    for (let i = 0; i < length; i++) {
      atOrAbove[i] = values[i]! >= this.rule.daily ? 1 : 0;
      const ends = atOrAbove[i] === 1 && holdsPeriod(values, Math.max(0, i - WINDOW_DAYS + 1), i, this.rule);
      lastEnd[i] = ends ? i : i > 0 ? lastEnd[i - 1]! : -1;
    }
    for (let i = 0; i < length && fullStart < 0; i++)
      if (atOrAbove[i] && holdsPeriod(values, i, Math.min(i + WINDOW_DAYS - 1, length - 1), this.rule)) fullStart = i;
    this.years.set(year, (y = { from, to, cumulative, atOrAbove, fullStart, lastEnd, values }));
    return y;
  }

  /** A year closed before the issue day, as every day after it knows it. */
  private closedYear(year: number): ClosedYear {
    let c = this.closed.get(year);
    if (!c) {
      const window = seasonYear(this.category, year);
      const s = yearSeason(this.series, window, { latest: window.to, category: this.category });
      c = { year, complete: s.complete, apin: s.apin, startIndex: s.startIndex };
      this.closed.set(year, c);
    }
    return c;
  }

  /**
   * The EAACI state on the days of a year under way to index `last` (the day before the issue
   * day), as seasonStatus gives it: whether a season is under way.
   */
  private underWay(y: YearDays, last: number): boolean {
    // The first start: a day at or above the threshold whose 7 days from it (cut at `last`) hold a
    // period. Days whose 7 days end by `last` start one as they do in the whole year (fullStart).
    let start = y.fullStart >= 0 && y.fullStart + WINDOW_DAYS - 1 <= last ? y.fullStart : -1;
    for (let i = Math.max(0, last - WINDOW_DAYS + 2); i <= last && start < 0; i++)
      if (y.atOrAbove[i] && holdsPeriod(y.values, i, last, this.rule)) start = i;
    if (start < 0) return false;
    const end = Math.max(start, y.lastEnd[last]!);
    return last - end < WINDOW_DAYS;
  }

  /** What was known on `issueDay`, from the days before it. */
  on(issueDay: number): Known {
    const year = seasonYearOf(this.category, issueDay);
    const y = this.yearDays(year);
    const last = issueDay - 1 - y.from;
    const earlier: ClosedYear[] = [];
    for (let e = year - 1; seasonYear(this.category, e).to >= this.first; e--) {
      const c = this.closedYear(e);
      if (c.complete) earlier.unshift(c);
    }
    // This year's start as it stood: 2.5% of the complete earlier years' mean total, reached by the day before.
    // (As yearSeason measures it: no start in a year without pollen so far.)
    let startIndex: number | null = null;
    if (earlier.length > 0 && last >= 0 && y.cumulative[last]! > 0) {
      const threshold = (START_SHARE * earlier.reduce((a, c) => a + c.apin, 0)) / earlier.length;
      for (let i = 0; i <= last && startIndex === null; i++) if (y.cumulative[i]! >= threshold) startIndex = i;
    }
    const calendarYear = civilDate(issueDay)[0];
    const shifts = new Map<number, number>();
    if (startIndex !== null)
      for (const e of earlier) {
        if (e.startIndex === null) continue;
        const days = startIndex - e.startIndex;
        if (Math.abs(days) <= MAX_SHIFT_DAYS) shifts.set(calendarYear - (year - e.year), days);
      }
    const inSeason = last >= 0 && this.underWay(y, last);
    const key = JSON.stringify([...shifts]);
    const memo = `${key}${inSeason}`;
    let known = this.made.get(memo);
    if (!known) this.made.set(memo, (known = { shifts, key, inSeason }));
    return known;
  }
}
