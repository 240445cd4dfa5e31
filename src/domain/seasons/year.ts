/**
 * Pollen seasons of a city's daily means (docs/data.md, "Seasons"; docs/decisions.md, "Seasons").
 *
 * - The main pollen season by the percentage method: from the first day on which the year's
 *   cumulative sum of daily means reaches 2.5% of the year's total to the first day on which it
 *   reaches 97.5% (the 95% method of Nilsson & Persson 1981, Grana 20(3):179-182; the terms are
 *   Galán et al. 2017, "Recommended terminology for aerobiological studies", Aerobiologia
 *   33:293-295). Percentage definitions are the ones recommended for retrospective use (Bastl et
 *   al. 2018, "Defining pollen seasons: background and recommendations", Curr Allergy Asthma Rep
 *   18:73).
 * - SPIn: the sum of daily means over the season; APIn: over the year (grains·day/m³).
 * - The peak day: the first day of the year's highest daily mean.
 * - Where the season stands, by the EAACI concentration definition (season-status.ts).
 *
 * This module measures one category in one year; city-seasons.ts assembles a city's years.
 *
 * A category's year is the calendar year, but tree's starts on 1 October of the year before, so
 * that a winter season (mountain cedar, December to February) is one season, not two halves. A
 * year is held when its days hold a value of the category; it is closed once its last day is on or
 * before the city's latest data day, and complete when closed with values on at least 90% of its
 * days. A year under way is measured against the mean total of the complete earlier years (else
 * its total so far) and ends only when the concentration definition says so (provisionally); a
 * closed year with gaps is measured on the days it holds, and says so (`basis: "days held"`).
 */
import { civilDate, dayNumber, dayOfDate, dayString } from '../dates.js';
import type { CategorySeason, DailyPollen, RiskDays, Season, SeasonComparison, SeasonStatus } from '../schemas.js';
import { type Shape, speciesColumn } from '../species/payload.js';
import { type Graded, grade, RISK_LABELS, type Risk, SPECIES_KEY } from '../species/risk.js';
import { seasonStatus } from './status.js';

/** A category's value on one day, with the NAB label the day is graded with. */
export interface SeasonDay {
  value: number;
  risk: Risk | null;
}

/**
 * A category's days: day number -> value (days without a value are absent). Never changed once
 * made: the climatologies and pairs made of a series keep what they read of it.
 */
export type SeasonSeries = ReadonlyMap<number, SeasonDay>;

/** The first and last day of a series: the days that arrays by day (first at 0) span. None for an empty series. */
export function seriesSpan(series: SeasonSeries): { first: number; last: number } | null {
  let [first, last] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const day of series.keys()) [first, last] = [Math.min(first, day), Math.max(last, day)];
  return Number.isFinite(first) ? { first, last } : null;
}

/** Share of a year's days that makes it complete. */
export const COMPLETE_SHARE = 0.9;
/** The percentage method's bounds. */
export const START_SHARE = 0.025;
export const END_SHARE = 0.975;

/** Whether a category's year starts on 1 October: tree and its species. */
const fromOctober = (category: string) => category === 'tree' || category.startsWith('tree_');

/** The days of a category's year: the calendar year, or for tree (and its species) from 1 October of the year before. */
export function seasonYear(category: string, year: number): { from: number; to: number } {
  const october = fromOctober(category);
  return {
    from: october ? dayOfDate(year - 1, 10, 1) : dayOfDate(year, 1, 1),
    to: october ? dayOfDate(year, 9, 30) : dayOfDate(year, 12, 31),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A category's year as people read it: `2026`, or for tree's `Oct 2025 to Sep 2026`. */
export function yearName(category: string, year: number): string {
  const { from, to } = seasonYear(category, year);
  const [fy, fm] = civilDate(from);
  const [ty, tm] = civilDate(to);
  return fm === 1 && tm === 12 ? String(year) : `${MONTHS[fm - 1]} ${fy} to ${MONTHS[tm - 1]} ${ty}`;
}

/** The category's year a day falls in: its calendar year, or for tree the next one from 1 October. */
export function seasonYearOf(category: string, day: number): number {
  const [year, month] = civilDate(day);
  return year + (month >= 10 && fromOctober(category) ? 1 : 0);
}

/** The season year of each of `days`: a day within the last year found is in it, so days in order read the calendar once a year. */
export function seasonYearsOf(category: string, days: readonly number[]): number[] {
  const years = new Array<number>(days.length);
  let [year, last] = [0, { from: 1, to: 0 }];
  for (let i = 0; i < days.length; i++) {
    const day = days[i]!;
    if (day < last.from || day > last.to) last = seasonYear(category, (year = seasonYearOf(category, day)));
    years[i] = year;
  }
  return years;
}

/** What a category's day is read from: a daily row's values, levels and species (an hourly row has them too). */
export type GradedRow = Pick<DailyPollen, 'tree' | 'grass' | 'weed' | 'risk_tree' | 'risk_grass' | 'risk_weed' | 'species'>;

/** A category a season is measured for, and how its days are read from daily rows. */
export interface SeasonCategory {
  name: string;
  day: (row: GradedRow) => SeasonDay | undefined;
}

const GROUPS = Object.entries(SPECIES_KEY) as Array<[Graded & keyof typeof SPECIES_KEY, string]>;

/** A species' daily mean in a daily row's species object. */
const speciesValue = (row: GradedRow, group: string, name: string): number | null => {
  const g = row.species?.[group];
  const v = g !== null && typeof g === 'object' ? g[name] : null;
  return typeof v === 'number' ? v : null;
};

/**
 * Tree, grass and weed (their daily means, graded as the daily rows grade them: risk_tree...),
 * ragweed (the Weed group's Ragweed, graded on NAB's ragweed scale), then each allergen species of
 * the three groups in the store's species (graded on its group's scale), named as the bulk files'
 * columns are (`tree_oak`); Weed's Ragweed is the ragweed category already, and `Others` is no
 * allergen.
 */
export function seasonCategories(shapes: readonly Shape[]): SeasonCategory[] {
  const categories: SeasonCategory[] = GROUPS.map(([category]) => ({
    name: category,
    day: (row) => {
      const value = row[category];
      return value === null ? undefined : { value, risk: row[`risk_${category}`] };
    },
  }));
  const species = (scale: Graded, group: string, name: string) => (row: GradedRow) => {
    const value = speciesValue(row, group, name);
    return value === null ? undefined : { value, risk: grade(scale, value) };
  };
  categories.push({ name: 'ragweed', day: species('ragweed', SPECIES_KEY.weed, 'Ragweed') });
  const seen = new Set(['weed_ragweed']);
  for (const shape of shapes) {
    for (const [group, names] of shape) {
      const scale = GROUPS.find(([, key]) => key === group)?.[0];
      if (!scale || !names) continue;
      for (const name of names) {
        const column = speciesColumn(group, name);
        if (seen.has(column)) continue;
        seen.add(column);
        categories.push({ name: column, day: species(scale, group, name) });
      }
    }
  }
  return categories;
}

/** A daily row with its day number. */
export interface DatedRow {
  day: number;
  row: DailyPollen;
}

/** A category's days from a city's daily rows. */
export function seasonSeries(rows: Iterable<DatedRow>, category: SeasonCategory): Map<number, SeasonDay> {
  const series = new Map<number, SeasonDay>();
  for (const { day, row } of rows) {
    const d = category.day(row);
    if (d) series.set(day, d);
  }
  return series;
}

export interface YearSeason {
  from: number;
  to: number;
  /** Days of the year with a value. */
  daysWithData: number;
  /** The year is over on the latest data day. */
  closed: boolean;
  /** Closed, with values on at least COMPLETE_SHARE of its days. */
  complete: boolean;
  /** The last day of the year with a value. */
  through: number | null;
  /** The annual pollen integral (so far, for a year under way). */
  apin: number;
  /** What 2.5% and 97.5% are shares of (CategorySeason's `basis`). */
  basis: CategorySeason['basis'];
  season: Season | null;
  /** Why there is no season. */
  reason: string | null;
  /** Where the season stands by the concentration definition. */
  status: SeasonStatus;
  /** The cumulative sums, by day of the year (0 = its first day); a day without a value adds nothing. */
  cumulative: number[];
  /** The season's start as a day of the year. */
  startIndex: number | null;
}

/** How a year is measured: the latest data day, the complete earlier years' APIns, and the category's criterion. */
export interface YearOptions {
  /** The city's latest data day: a year whose last day is after it is under way. */
  latest: number;
  /** APIns of the complete earlier years, which a year under way is measured against. */
  earlierTotals?: readonly number[];
  /** The category, for its EAACI criterion (season-status.ts); tree's by default. */
  category?: string;
}

const emptyRiskDays = (): RiskDays => Object.fromEntries(RISK_LABELS.map((r) => [r, 0])) as RiskDays;

/** What a year's 2.5% and 97.5% are shares of. */
function basisOf(closed: boolean, complete: boolean, earlier: number): YearSeason['basis'] {
  if (closed) return complete ? 'year' : 'days held';
  return earlier > 0 ? 'earlier years' : 'so far';
}

/** The season of one category in one year (`window`), as it stands on `options.latest`. */
export function yearSeason(series: SeasonSeries, window: { from: number; to: number }, options: YearOptions): YearSeason {
  const { from, to } = window;
  const { latest, earlierTotals = [], category = 'tree' } = options;
  const cumulative: number[] = [];
  let [sum, daysWithData, through, peak] = [0, 0, null as number | null, null as { day: number; value: number } | null];
  for (let day = from; day <= to; day++) {
    const d = series.get(day);
    if (d) {
      sum += d.value;
      daysWithData++;
      through = day;
      if (!peak || d.value > peak.value) peak = { day, value: d.value };
    }
    cumulative.push(sum);
  }
  const closed = to <= latest;
  const complete = closed && daysWithData >= COMPLETE_SHARE * (to - from + 1);
  const basis = basisOf(closed, complete, earlierTotals.length);
  const total = basis === 'earlier years' ? earlierTotals.reduce((a, b) => a + b, 0) / earlierTotals.length : sum;
  const status = seasonStatus(series, window, latest, complete, category);
  const base = { from, to, daysWithData, closed, complete, through, apin: sum, basis, status, cumulative } as const;
  const none = (reason: string): YearSeason => ({ ...base, season: null, reason, startIndex: null });
  if (daysWithData === 0) return none('no data in the year');
  if (sum === 0) return none('no pollen above zero in the year');
  // A year over whose pollen never made an exposure season has no season to date, complete or
  // not: the percentage method alone would find one in any trace of pollen (2.5% to 97.5% of a few
  // grains), and "no season" must never come with a season's dates.
  if (closed && status.state === 'no season') {
    const { daily, sum: needed } = status.criterion;
    return none(`no exposure season: never 5 days of 7 at ${daily} grains/m³ or more summing to ${needed}`);
  }
  // The sum grows only on days with a value, so the first day it reaches a share is one of them.
  const reach = (share: number) => cumulative.findIndex((c) => c >= share * total);
  const startIndex = reach(START_SHARE);
  if (startIndex < 0) return none(`not started by ${dayString(through!)}`);
  const start = from + startIndex;
  // A closed year ends by the percentage method; a year under way has no total yet, so it ends
  // (provisionally) when the concentration definition says its season has ended.
  const statusEnd = status.end === null ? null : dayNumber(status.end);
  const end = closed ? from + reach(END_SHARE) : statusEnd !== null && statusEnd >= start ? statusEnd : null;
  const last = end ?? through!;
  const riskDays = emptyRiskDays();
  let spin = 0;
  for (let day = start; day <= last; day++) {
    const d = series.get(day);
    if (!d) continue;
    spin += d.value;
    if (d.risk !== null) riskDays[d.risk]++;
  }
  return {
    ...base,
    reason: null,
    startIndex,
    season: {
      start: dayString(start),
      end: end === null ? null : dayString(end),
      days: last - start + 1,
      peak_date: dayString(peak!.day),
      peak_value: peak!.value,
      spin,
      risk_days: riskDays,
    },
  };
}

/** This year against each complete earlier year, at the same day of the year; the note names a year as `yearName` does for `category`. */
export function compareYears(
  year: YearSeason,
  earlier: ReadonlyArray<{ year: number; season: YearSeason }>,
  category = 'grass',
): SeasonComparison {
  const complete = earlier.filter((e) => e.season.complete);
  const note =
    complete.length === 0
      ? 'No complete earlier year to compare with.'
      : complete.length === 1
        ? `One earlier year (${yearName(category, complete[0]!.year)}): a comparison with that year, not with a normal.`
        : null;
  if (year.through === null) return { as_of: null, cumulative: 0, earlier_years: complete.length, note, years: [] };
  const at = year.through - year.from;
  const mine = year.cumulative[at]!;
  return {
    as_of: dayString(year.through),
    cumulative: mine,
    earlier_years: complete.length,
    note,
    years: complete.map(({ year: y, season: e }) => {
      const theirs = e.cumulative[Math.min(at, e.cumulative.length - 1)]!;
      return {
        year: y,
        as_of: dayString(Math.min(e.from + at, e.to)),
        cumulative: theirs,
        ahead_pct: theirs === 0 ? null : Math.round((mine / theirs - 1) * 100) || 0, // never -0
        start_difference_days: year.startIndex === null || e.startIndex === null ? null : year.startIndex - e.startIndex,
      };
    }),
  };
}

/** The category's years that hold a value, ascending: a year with no data of the category is not held. */
export function yearsHeld(series: SeasonSeries, category: string): number[] {
  return [...new Set(seasonYearsOf(category, [...series.keys()]))].sort((a, b) => a - b);
}
