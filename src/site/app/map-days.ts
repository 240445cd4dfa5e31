/**
 * The days the map offers, a short list rather than every day of the store: the latest day
 * complete in every city, then the six before it, each said as a person reads a date; any other
 * day from a date picker.
 */
import { dayName } from './today.js';

export type MapChoice = { kind: 'measured'; date: string; label: string } | { kind: 'forecast'; day: 'today' | 'tomorrow'; label: string };

/** The path of a choice's map: each city's local day. */
export const mapPath = (choice: MapChoice): string =>
  choice.kind === 'measured'
    ? `/api/map-data?date=${encodeURIComponent(choice.date)}&timezone=local`
    : `/api/map-data?date=${choice.day}&timezone=local`;

/** The choices from the dates with data (newest first). */
export async function mapChoices(dates: readonly string[]): Promise<MapChoice[]> {
  const measured: MapChoice[] = [{ kind: 'measured', date: 'latest', label: 'the latest complete day' }];
  // The newest UTC date is still coming in somewhere: the days before it are complete.
  for (const date of dates.slice(2, 8)) measured.push({ kind: 'measured', date, label: dayName(date, 'short') });
  return measured;
}
