/**
 * A daily provider's forecast as kept (docs/data.md, "Forecast skill"), the same whether the
 * build took it (ingest/keep-forecasts.ts) or the forecast function fetched it (kept.ts).
 */
import type { City } from '../domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS, isIsoDate } from '../domain/dates.js';
import { dayOfHour } from '../domain/day-cuts.js';
import { dailyDayValues } from '../domain/day-values.js';
import { normalizeDayValue } from '../domain/hours.js';
import { type KeptDay, levelsOf } from '../domain/verification/target-days.js';
import type { DailyPollenBatch, DailyPollenProvider, RawPollenDay } from '../providers/provider.js';

/**
 * The days of a daily provider's forecast issued at `issuedAt`, as kept: each date's values as its
 * day's are made (day-values.ts), its lead the days after the issue day, which is the place's
 * date at the issue instant for a provider whose dates are the place's (UTC's otherwise). A date
 * before the issue day, or one it repeats, is left out.
 */
export function dailyForecastDays(
  provider: Pick<DailyPollenProvider, 'id' | 'dayMeans'>,
  city: Pick<City, 'timezone'>,
  issuedAt: number,
  batch: Pick<DailyPollenBatch, 'timezone'> & {
    days: ReadonlyArray<Pick<RawPollenDay, 'date' | 'tree' | 'grass' | 'weed' | 'total' | 'species'>>;
  },
): KeptDay[] {
  const issueDay = forecastIssueDay(provider, city, issuedAt);
  const days = new Map<number, KeptDay>();
  for (const d of batch.days) {
    if (!isIsoDate(d.date)) continue;
    const day = dayNumber(d.date);
    if (day < issueDay || days.has(day)) continue;
    const value = { day, ...normalizeDayValue(d), timezone: batch.timezone, source: provider.id, levels: null };
    days.set(day, { day, lead: day - issueDay, issuedAt, hours: 0, levels: levelsOf(dailyDayValues(value)) });
  }
  return [...days.values()].sort((a, b) => a.day - b.day);
}

/** The day a daily provider's forecast issued at `issuedAt` starts on: the place's date then, or the UTC date. */
export function forecastIssueDay(provider: Pick<DailyPollenProvider, 'dayMeans'>, city: Pick<City, 'timezone'>, issuedAt: number): number {
  return provider.dayMeans === 'local' ? dayOfHour('local', city.timezone, Math.floor(issuedAt / HOUR_MS)) : Math.floor(issuedAt / DAY_MS);
}
