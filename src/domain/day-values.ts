/**
 * What every daily form needs of one city-day of a cut (a UTC day, or the city's local day),
 * derived once from its hours: the daily row's means, risks and peaks, the map's maxima, the
 * cross-city row's source. The daily rows, cross-city rows and map days are made from these
 * values, so a city's list, a date's rows and a map agree with each other and with the hours.
 */
import { dayString } from './dates.js';
import type { PollenDayValue } from './hours.js';
import type { DailyMeans, DayHour, ExactMeans } from './pollen-rows.js';
import { summarize } from './pollen-rows.js';
import type { CrossCityPollen, DailyPollen, MapDay } from './schemas.js';
import { SpeciesColumns } from './species/leaf-arrays.js';
import { grade, type Risk } from './species/risk.js';

export interface DayValues {
  day: number;
  /** How many hours the day holds (a local day on a daylight-saving change: 23 or 25). */
  hours: number;
  /** The provider of the day's first hour. */
  source: string;
  /** Every provider of the day's hours, in hour order: two for a local day across days two providers wrote. */
  sources: string[];
  /** Rounded means, rounded species means, risks graded on the unrounded means, the zone. */
  means: DailyMeans;
  /** Each graded category's mean to a thousandth: what forecasts are verified against. */
  exact: ExactMeans;
  /** Hourly maxima, of the Ragweed allergen too. */
  peaks: { tree: number | null; grass: number | null; weed: number | null; total: number | null; ragweed: number | null };
  /** The highest hourly risk of each category. */
  peakRisks: { tree: Risk | null; grass: Risk | null; weed: Risk | null };
}

/** The values of a day's hours (at least one); `columns`, their species leaves, when the caller has read them. */
export function dayValues(
  day: number,
  hours: ReadonlyArray<DayHour & { source?: string }>,
  columns: SpeciesColumns | null = SpeciesColumns.of(hours),
): DayValues {
  const { means, exact, maxima: m, peakRisks } = summarize(hours, columns);
  return {
    day,
    hours: hours.length,
    source: hours[0]?.source ?? 'unknown',
    sources: hours.length === 0 ? ['unknown'] : [...new Set(hours.map((h) => h.source ?? 'unknown'))],
    means,
    exact,
    peaks: { tree: m.tree, grass: m.grass, weed: m.weed, total: m.total, ragweed: m.ragweed },
    peakRisks,
  };
}

/**
 * The values of a day a provider gave as one value (no hours): its means are that value, and so
 * are its peaks and peak risks, the day's only value being the highest known; `hours` is 0, which
 * every reader takes as a day of daily values, never as a day without data.
 */
export function dailyDayValues(v: PollenDayValue): DayValues {
  return { ...dayValues(v.day, [v]), hours: 0 };
}

/** Whether a day's values are a provider's daily value rather than the means of hours. */
export const isDailyValue = (v: Pick<DayValues, 'hours'>): boolean => v.hours === 0;

/** The daily row of a day: its means, then its peaks. */
export function dailyRowOf(v: DayValues): DailyPollen {
  return {
    date: dayString(v.day),
    ...v.means,
    peak_tree: v.peaks.tree,
    peak_grass: v.peaks.grass,
    peak_weed: v.peaks.weed,
    peak_total: v.peaks.total,
    peak_risk_tree: v.peakRisks.tree,
    peak_risk_grass: v.peakRisks.grass,
    peak_risk_weed: v.peakRisks.weed,
  };
}

/** Sum of the three category maxima, nulls counting as 0. */
const countOf = (p: DayValues['peaks']): number => (p.tree ?? 0) + (p.grass ?? 0) + (p.weed ?? 0);

/** The cross-city row of a city's day. */
export function crossCityRowOf(city: string, v: DayValues): CrossCityPollen {
  return { city, date: dayString(v.day), count: countOf(v.peaks), source: v.source, is_forecast: false, max_weed: v.peaks.weed ?? 0 };
}

/**
 * A map series day: category maxima, and as risks the day's highest hourly risk (highest-allergen
 * rule, as `peak_risk_*` on daily rows); every value null for a day without data (`undefined`).
 */
export function mapDayOf(day: number, v: DayValues | undefined): MapDay {
  return {
    date: dayString(day),
    tree: v?.peaks.tree ?? null,
    grass: v?.peaks.grass ?? null,
    weed: v?.peaks.weed ?? null,
    ragweed: v?.peaks.ragweed ?? null,
    risk_tree: v?.peakRisks.tree ?? null,
    risk_grass: v?.peakRisks.grass ?? null,
    risk_weed: v?.peakRisks.weed ?? null,
    risk_ragweed: grade('ragweed', v?.peaks.ragweed ?? null),
    timezone: v?.means.timezone ?? null,
  };
}

/** The daily row of a day's hours. */
export const dailyRow = (day: number, hours: readonly DayHour[]): DailyPollen => dailyRowOf(dayValues(day, hours));

/** The map series day of a day's hours (none: a day without data). */
export const mapDay = (day: number, hours: readonly DayHour[]): MapDay =>
  mapDayOf(day, hours.length > 0 ? dayValues(day, hours) : undefined);

/** The cross-city row of a city-day's hours (at least one). */
export const crossCityRow = (city: string, day: number, hours: ReadonlyArray<DayHour & { source: string }>): CrossCityPollen =>
  crossCityRowOf(city, dayValues(day, hours));
