/** The units of a render: the pieces worker threads render side by side (`Unit`, api/contract/static-forms.ts). */
import type { Unit } from '../api/contract/static-forms.js';
import type { StoreReader } from '../store/reader.js';

/**
 * The units of a render of this store: once, each city served, each UTC day with data, newest
 * first; a day's city-day files are in the render from `cityDaysFrom` on.
 */
export function* unitsOf(store: StoreReader, cities: readonly string[], cityDaysFrom = -Infinity): Generator<Unit> {
  yield { kind: 'once' };
  for (const city of cities) yield { kind: 'city', city };
  const pollenDays = new Set(store.pollen.daysWithData());
  const weatherDays = new Set(store.weather.days());
  for (const day of [...new Set([...pollenDays, ...weatherDays])].sort((a, b) => b - a)) {
    yield { kind: 'date', day, pollen: pollenDays.has(day), weather: weatherDays.has(day), cityDays: day >= cityDaysFrom };
  }
}
