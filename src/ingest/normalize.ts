/** Provider batches checked and shaped for the store: bad numbers become missing values. */
import { dayNumber, isIsoDate } from '../domain/dates.js';
import { normalizeDayValue, normalizeHour, type PollenHour } from '../domain/hours.js';
import { sanitizeWeather, type WeatherValues } from '../domain/weather.js';
import { type DailyPollenBatch, type PollenBatch, ProviderError, type RawWeatherDay } from '../providers/provider.js';

/** A batch's hours grouped by UTC day; an hour without a usable time makes the whole batch a bad payload. */
export function hoursByDay(provider: string, batch: PollenBatch): Map<number, PollenHour[]> {
  const days = new Map<number, PollenHour[]>();
  let [last, ascending] = [Number.NEGATIVE_INFINITY, true];
  for (const raw of batch.hours) {
    if (typeof raw.time !== 'number' || !Number.isFinite(raw.time)) {
      throw new ProviderError(provider, 'bad_payload', `an hour has no valid time (${String(raw.time)})`);
    }
    const hour = normalizeHour(raw);
    const day = Math.floor(hour.hour / 24);
    let list = days.get(day);
    if (!list) days.set(day, (list = []));
    list.push(hour);
    if (hour.hour <= last) ascending = false;
    last = hour.hour;
  }
  // Providers send their hours in order, each once; otherwise a repeated hour's later one wins, as an upsert would.
  if (ascending) return days;
  return new Map(
    [...days].map(([day, hours]) => [day, [...new Map(hours.map((h) => [h.hour, h])).values()].sort((a, b) => a.hour - b.hour)]),
  );
}

/** A daily provider's day as ingest writes it: its checked values, and its own levels. */
export interface DayValue {
  value: Omit<PollenHour, 'hour'>;
  levels: Readonly<Record<string, string>> | null;
}

/** A daily batch's days by the day number of their dates; a day without a real `YYYY-MM-DD` date makes the whole batch a bad payload. */
export function daysByDate(provider: string, batch: DailyPollenBatch): Map<number, DayValue> {
  const days = new Map<number, DayValue>();
  for (const d of batch.days) {
    if (typeof d.date !== 'string' || !isIsoDate(d.date))
      throw new ProviderError(provider, 'bad_payload', `a day has no valid date (${JSON.stringify(d.date)})`);
    days.set(dayNumber(d.date), { value: normalizeDayValue(d), levels: d.providerLevels ?? null });
  }
  return days;
}

/** Weather rows by UTC day, with invalid values dropped. */
export function weatherByDay(rows: readonly RawWeatherDay[]): Map<number, WeatherValues> {
  return new Map(rows.filter((r) => Number.isInteger(r.day)).map((r) => [r.day, sanitizeWeather(r.values)]));
}
