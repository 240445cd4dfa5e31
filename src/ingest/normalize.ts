/** Provider batches checked and shaped for the store: bad numbers become missing values. */
import { HOUR_MS } from '../domain/dates.js';
import { measurement } from '../domain/risk.js';
import { sanitizeSpecies } from '../domain/species.js';
import { sanitizeWeather, type WeatherValues } from '../domain/weather.js';
import { ProviderError, type PollenBatch, type RawWeatherDay } from '../providers/provider.js';
import type { PollenHour } from '../store/store.js';

/** One provider hour as stored; the total is the provider's when valid, else the sum of the categories. */
export function normalizeHour(raw: PollenBatch['hours'][number]): PollenHour {
  const tree = measurement(raw.tree);
  const grass = measurement(raw.grass);
  const weed = measurement(raw.weed);
  return {
    hour: Math.floor(raw.time / HOUR_MS),
    tree,
    grass,
    weed,
    total: measurement(raw.total) ?? (tree ?? 0) + (grass ?? 0) + (weed ?? 0),
    species: sanitizeSpecies(raw.species),
  };
}

/** A batch's hours grouped by UTC day; an hour without a usable time makes the whole batch a bad payload. */
export function hoursByDay(provider: string, batch: PollenBatch): Map<number, PollenHour[]> {
  const days = new Map<number, Map<number, PollenHour>>();
  for (const raw of batch.hours) {
    if (typeof raw.time !== 'number' || !Number.isFinite(raw.time)) {
      throw new ProviderError(provider, 'bad_payload', `an hour has no valid time (${String(raw.time)})`);
    }
    const hour = normalizeHour(raw);
    const day = Math.floor(hour.hour / 24);
    let list = days.get(day);
    if (!list) days.set(day, (list = new Map()));
    list.set(hour.hour, hour); // a repeated hour: the later one wins, as an upsert would
  }
  return new Map([...days].map(([day, hours]) => [day, [...hours.values()].sort((a, b) => a.hour - b.hour)]));
}

/** Weather rows by UTC day, with invalid values dropped. */
export function weatherByDay(rows: readonly RawWeatherDay[]): Map<number, WeatherValues> {
  return new Map(rows.filter((r) => Number.isInteger(r.day)).map((r) => [r.day, sanitizeWeather(r.values)]));
}
