/** Provider batches checked and shaped for the store: bad numbers become missing values. */
import { normalizeHour, type PollenHour } from '../domain/hours.js';
import { sanitizeWeather, type WeatherValues } from '../domain/weather.js';
import { ProviderError, type PollenBatch, type RawWeatherDay } from '../providers/provider.js';

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

/** Weather rows by UTC day, with invalid values dropped. */
export function weatherByDay(rows: readonly RawWeatherDay[]): Map<number, WeatherValues> {
  return new Map(rows.filter((r) => Number.isInteger(r.day)).map((r) => [r.day, sanitizeWeather(r.values)]));
}
