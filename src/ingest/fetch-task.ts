/** One request of an ingest's plan asked of its provider, and its answer by UTC day (normalize.ts). */
import type { PollenHour } from '../domain/hours.js';
import type { WeatherValues } from '../domain/weather.js';
import { type AnyPollenProvider, isDaily, type WeatherProvider } from '../providers/provider.js';
import { type DayValue, daysByDate, hoursByDay, weatherByDay } from './normalize.js';
import type { Task } from './plan.js';

/** One request's answer by UTC day: pollen hours (with the zone the provider gave), a daily provider's values by its dates, or weather values. */
export type Fetched =
  | { kind: 'pollen'; timezone: string | null; days: Map<number, PollenHour[]> }
  | { kind: 'pollenDaily'; timezone: string | null; days: Map<number, DayValue> }
  | { kind: 'weather'; days: Map<number, WeatherValues> };

/** One request of the plan asked of its provider. */
export async function fetchTask(task: Task, provider: AnyPollenProvider | WeatherProvider): Promise<Fetched> {
  if (task.kind === 'weather') {
    const weather = provider as WeatherProvider;
    return { kind: 'weather', days: weatherByDay(await weather.weatherHistory(task.city, { from: task.days[0]!, to: task.days.at(-1)! })) };
  }
  const pollen = provider as AnyPollenProvider;
  if (isDaily(pollen)) {
    const batch = await pollen.pollenDays(task.city, { from: task.days[0]!, to: task.days.at(-1)! });
    return { kind: 'pollenDaily', timezone: batch.timezone, days: daysByDate(pollen.id, batch) };
  }
  const batch = await pollen.pollenHistory(task.city, task.hours);
  return { kind: 'pollen', timezone: batch.timezone, days: hoursByDay(pollen.id, batch) };
}
