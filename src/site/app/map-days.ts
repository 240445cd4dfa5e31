/**
 * The days the map offers, a short list rather than every day of the store: today and tomorrow
 * from the forecast (each city's own, /api/forecast-map), the latest day complete in every city,
 * then the six before it, each said as a person reads a date; any other day from a date picker.
 */
import { dateInWords } from '../../domain/dates.js';
import { capitalized } from '../../domain/words.js';

export type MapChoice = { kind: 'measured'; date: string; label: string } | { kind: 'forecast'; day: 'today' | 'tomorrow'; label: string };

/** The path of a choice's map: each city's local day. */
export const mapPath = (choice: MapChoice): string =>
  choice.kind === 'measured'
    ? `/api/map-data?date=${encodeURIComponent(choice.date)}&timezone=local`
    : `/api/forecast-map?day=${choice.day}`;

/** The choices from the dates with data (newest first), and once known, the latest complete day's date. */
export function mapChoices(dates: readonly string[], latest?: string): MapChoice[] {
  const measured: MapChoice[] = [
    { kind: 'forecast', day: 'today', label: 'today' },
    { kind: 'forecast', day: 'tomorrow', label: 'tomorrow' },
    { kind: 'measured', date: 'latest', label: 'the latest complete day' },
  ];
  // Before `latest` is known: the newest two UTC dates may still be coming in somewhere.
  const before = latest === undefined ? dates.slice(2) : dates.filter((d) => d < latest);
  for (const date of before.slice(0, 6)) measured.push({ kind: 'measured', date, label: dateInWords(date) });
  return measured;
}

/** A choice as the day picker lists it: "Today (forecast)", "Latest complete day (measured)", "Sun, Apr 12 (measured)". */
export const optionText = (c: MapChoice): string =>
  c.kind === 'forecast' ? `${capitalized(c.label)} (forecast)` : `${c.date === 'latest' ? 'Latest complete day' : c.label} (measured)`;
