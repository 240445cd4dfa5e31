/**
 * A forecast as issued, cut into the days it forecasts, and those days paired with what was
 * observed (docs/data.md, "Forecast skill").
 *
 * - A target day is a day of the cut (a UTC day, or the city's local day: days.ts), its lead the
 *   number of days after the issue day, the day of the cut that holds the issue instant (0: the
 *   issue day itself).
 * - Its daily values are the daily row of the forecast's hours of that day, made as every daily
 *   row is (day-values.ts): rounded means, levels graded on the unrounded means by the highest
 *   allergen. A category's value and level are read from the row as the seasons read them
 *   (seasons.ts: tree, grass, weed, and ragweed from the Weed group's Ragweed).
 * - A day is kept when the forecast holds at least three quarters of its hours (18 of 24, 18 of
 *   a 23-hour day, 19 of a 25-hour one): the completeness rule for a daily mean of hourly values
 *   that the EPA's AirNow applies ("75%, or 18/24 hours of data are needed for a valid daily AQI",
 *   https://forum.airnowtech.org/t/daily-and-hourly-aqi-pm2-5/171). A mean of fewer hours misses
 *   too much of the daily cycle (pollen peaks late in the morning) to stand for the day: the
 *   issue day is kept only for a forecast issued in its first quarter.
 */
import { HOUR_MS } from './dates.js';
import { dailyRow } from './day-values.js';
import { type DayCut, dayHours, dayOfHour, groupByDay } from './days.js';
import type { DayHour } from './pollen-rows.js';
import type { Graded } from './risk.js';
import type { DailyPollen } from './schemas.js';
import { type GradedRow, type SeasonDay, type SeasonSeries, seasonCategories, seriesSpan } from './seasons.js';
import type { DayLevel, Pair } from './verification.js';

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
  /** The daily row of the hours the forecast holds. */
  row: DailyPollen;
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
    const row = dailyRow(day, hours);
    days.push({
      day,
      lead: day - issueDay,
      issuedAt: forecast.issuedAt,
      hours: hours.length,
      dayLength: to - from,
      row,
      levels: levelsOf(row),
    });
  }
  return days;
}

const READERS = new Map(seasonCategories([]).map((c) => [c.name, c.day]));

/** A day of a category's series as a pair reads it; undefined without a value or a level. */
export const dayLevel = (d: SeasonDay | undefined): DayLevel | undefined =>
  d && d.risk !== null ? { value: d.value, level: d.risk } : undefined;

/**
 * Each observed day of a series as pairs read it, made once per series: a city's category is
 * paired by every lead and reference, and each pair would otherwise make its own.
 */
const OBSERVED = new WeakMap<SeasonSeries, { first: number; levels: Array<DayLevel | undefined> }>();

/** The day of a series as a pair reads it (dayLevel), the same object each time it is asked for. */
export function observedLevel(series: SeasonSeries, day: number): DayLevel | undefined {
  let made = OBSERVED.get(series);
  if (!made) {
    const span = seriesSpan(series);
    const first = span?.first ?? 0;
    const levels = new Array<DayLevel | undefined>(span ? span.last - first + 1 : 0);
    for (const [d, v] of series) levels[d - first] = dayLevel(v);
    OBSERVED.set(series, (made = { first, levels }));
  }
  const i = day - made.first;
  return i >= 0 && i < made.levels.length ? made.levels[i] : undefined;
}

/** A category's daily mean and level in a daily row; undefined when the row has no value for it. */
export const levelOf = (row: GradedRow, category: Graded): DayLevel | undefined => dayLevel(READERS.get(category)!(row));

/** The graded categories, in the order answers list them. */
const GRADED: readonly Graded[] = ['tree', 'grass', 'weed', 'ragweed'];

/** Every graded category's daily mean and level in a daily row (or an hourly one), where it has one. */
export function levelsOf(row: GradedRow): DayLevels {
  const levels: DayLevels = {};
  for (const category of GRADED) {
    const level = levelOf(row, category);
    if (level) levels[category] = level;
  }
  return levels;
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

/** The pairs of one category from target days at one lead (latestAtLead): each with an observed value. */
export function pairsOf(latest: readonly KeptDay[], category: Graded, observed: SeasonSeries): Pair[] {
  const pairs: Pair[] = [];
  for (const t of latest) {
    const forecast = t.levels[category];
    const seen = observedLevel(observed, t.day);
    if (forecast && seen) pairs.push({ day: t.day, forecast, observed: seen, issuedAt: t.issuedAt });
  }
  return pairs;
}

/**
 * The pairs of one category at one lead: each target day at that lead with an observed value (the
 * category's series of observed daily rows, seasons.ts `seasonSeries`). When
 * several forecasts reach the same day at the same lead (issued the same day), the last issued
 * counts: it knew the most.
 */
export const pairsAtLead = (targets: Iterable<KeptDay>, category: Graded, observed: SeasonSeries, lead: number): Pair[] =>
  pairsOf(latestAtLead(targets, lead), category, observed);
