/**
 * A forecast as issued, cut into the days it forecasts; and the observed days it is verified
 * against (docs/data.md, "Forecast skill").
 *
 * - A target day is a day of the cut (a UTC day, or the city's local day: days.ts), its lead the
 *   number of days after the issue day, the day of the cut that holds the issue instant (0: the
 *   issue day itself).
 * - Its daily values are made as every day's are (day-values.ts): each category's mean to a
 *   thousandth (the daily rows round to whole grains, and verification would count a forecast of
 *   37.4 for an observed 36.6 perfect), and its NAB level as the daily rows grade it, on the
 *   unrounded means by the highest allergen (tree, grass, weed); ragweed (the Weed group's
 *   Ragweed) on its own mean.
 * - A day is kept when the forecast holds at least three quarters of its hours (18 of 24, 18 of
 *   a 23-hour day, 19 of a 25-hour one): the completeness rule for a daily mean of hourly values
 *   that the EPA's AirNow applies ("75%, or 18/24 hours of data are needed for a valid daily AQI",
 *   https://forum.airnowtech.org/t/daily-and-hourly-aqi-pm2-5/171). A mean of fewer hours misses
 *   too much of the daily cycle (pollen peaks late in the morning) to stand for the day: the
 *   issue day is kept only for a forecast issued in its first quarter. An observed day is held to
 *   the same rule.
 */
import { HOUR_MS } from '../dates.js';
import { type DayCut, dayHours, dayOfHour, groupByDay } from '../day-cuts.js';
import { type DayValues, dayValues, isDailyValue } from '../day-values.js';
import type { DayHour } from '../pollen-rows.js';
import type { SeasonDay } from '../seasons/year.js';
import { GRADED, type Graded, grade } from '../species/risk.js';
import type { DayLevel } from './scores.js';

/** A forecast as it was issued: the instant, and its hourly values from then on (ascending). */
export interface IssuedForecast {
  /** ms since epoch. */
  issuedAt: number;
  hours: ReadonlyArray<DayHour & { hour: number }>;
}

/** What a forecast said of one target day, as pairs read it (and as the store keeps it: store/issued-forecasts.ts). */
export interface KeptDay {
  day: number;
  /** Days after the issue day. */
  lead: number;
  issuedAt: number;
  /** The hours of the day the forecast holds. */
  hours: number;
  /** Each category's daily mean and level, where the forecast has one. */
  levels: DayLevels;
}

/** The daily mean and level of each graded category (tree, grass, weed, ragweed) on a day, where it has one. */
export type DayLevels = Partial<Record<Graded, DayLevel>>;

/** One day a forecast forecasts, in one cut. */
export interface TargetDay extends KeptDay {
  /** The hours the day has. */
  dayLength: number;
}

/** Share of a day's hours a daily mean needs. */
export const MIN_DAY_SHARE = 0.75;

/** Whether `held` hours of a day of `dayLength` hours make a daily mean (also for observed days). */
export const coveredEnough = (held: number, dayLength: number): boolean => held >= Math.ceil(MIN_DAY_SHARE * dayLength);

/** The days of the cut a forecast covers enough, with their leads, ascending. */
export function targetDays(forecast: IssuedForecast, zone: string, cut: DayCut): TargetDay[] {
  const issueDay = dayOfHour(cut, zone, Math.floor(forecast.issuedAt / HOUR_MS));
  const days: TargetDay[] = [];
  for (const [day, hours] of groupByDay(cut, zone, forecast.hours)) {
    const { from, to } = dayHours(cut, zone, day);
    if (day < issueDay || !coveredEnough(hours.length, to - from)) continue;
    days.push({
      day,
      lead: day - issueDay,
      issuedAt: forecast.issuedAt,
      hours: hours.length,
      dayLength: to - from,
      levels: levelsOf(dayValues(day, hours)),
    });
  }
  return days;
}

/** A day of a category's series as a pair reads it; undefined without a value or a level. */
export const dayLevel = (d: SeasonDay | undefined): DayLevel | undefined =>
  d && d.risk !== null ? { value: d.value, level: d.risk } : undefined;

/** A graded category's mean to a thousandth and its level in a day's values; undefined when the day has none. */
export function levelOf(v: Pick<DayValues, 'exact' | 'means'>, category: Graded): DayLevel | undefined {
  const value = v.exact[category];
  if (value === null) return undefined;
  const level = category === 'ragweed' ? grade('ragweed', value) : v.means[`risk_${category}`];
  return level === null ? undefined : { value, level };
}

/** Every graded category's mean and level in a day's values, where it has one. */
export function levelsOf(v: Pick<DayValues, 'exact' | 'means'>): DayLevels {
  const levels: DayLevels = {};
  for (const category of GRADED) {
    const level = levelOf(v, category);
    if (level) levels[category] = level;
  }
  return levels;
}

/**
 * The observed days of one category that verification reads: each UTC day whose values hold at
 * least three quarters of its hours, or are a provider's daily value, its mean to a thousandth and its level (levelOf).
 */
export function observedSeries(
  days: Iterable<Pick<DayValues, 'day' | 'hours' | 'exact' | 'means'>>,
  category: Graded,
): Map<number, SeasonDay> {
  const series = new Map<number, SeasonDay>();
  for (const v of days) {
    if (!isDailyValue(v) && !coveredEnough(v.hours, 24)) continue;
    const level = levelOf(v, category);
    if (level) series.set(v.day, { value: level.value, risk: level.level });
  }
  return series;
}

/**
 * The target days at one lead, each day's from the last forecast issued to reach it (several reach
 * the same day at the same lead when issued the same day: the last knew the most), by day.
 */
export function latestAtLead(targets: Iterable<KeptDay>, lead: number): KeptDay[] {
  const latest = new Map<number, KeptDay>();
  for (const t of targets) {
    if (t.lead !== lead) continue;
    const held = latest.get(t.day);
    if (!held || t.issuedAt > held.issuedAt) latest.set(t.day, t);
  }
  return [...latest.values()].sort((a, b) => a.day - b.day);
}
