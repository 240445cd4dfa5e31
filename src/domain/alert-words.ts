/**
 * What a subscription's coming days hold, in words a person reads: the calendars and feeds of
 * /api/alerts and the page's alerts section say the same sentences, so that an empty
 * subscription says nothing is expected rather than nothing at all. No Node module: the page's
 * bundle imports it.
 */
import { dateInWords } from './dates.js';
import type { Alert } from './schemas.js';
import { type AlertLevel, LEVEL_INDEX } from './species/risk.js';

/** What is watched and over which dates, as the JSON form of /api/alerts gives it. */
export interface Watched {
  min: AlertLevel;
  categories: readonly string[];
  species: ReadonlyArray<{ name: string }>;
  /** The local dates checked, ascending. */
  dates: readonly string[];
}

/** `a`, `a or b`, `a, b or c`. */
const either = (words: readonly string[]): string =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** "tree, grass, weed or ragweed pollen", "Oak or Ragweed", "tree pollen or Oak". */
export function watchedInWords(w: Pick<Watched, 'categories' | 'species'>): string {
  const categories = w.categories.length === 0 ? [] : [`${either(w.categories)} pollen`];
  return either([...categories, ...w.species.map((s) => s.name)]);
}

/** "from Sat, Mar 7 to Mon, Mar 9", "on Sat, Mar 7"; nothing without dates. */
function span(dates: readonly string[]): string {
  const [first, last] = [dates[0], dates.at(-1)];
  if (first === undefined || last === undefined) return '';
  return first === last ? ` on ${dateInWords(first)}` : ` from ${dateInWords(first)} to ${dateInWords(last)}`;
}

/** "Nothing expected at High or above for Oak or Ragweed from Sat, Mar 7 to Mon, Mar 9.": what an empty subscription says. */
export const nothingExpected = (w: Watched): string => `Nothing expected at ${w.min} or above for ${watchedInWords(w)}${span(w.dates)}.`;

/** An alert's day and levels at `min` or above: "Sun, Mar 8: High tree pollen, Very High Oak pollen". */
export function expectedInWords(alert: Pick<Alert, 'date' | 'categories' | 'species'>, min: AlertLevel): string {
  const reaches = (risk: AlertLevel) => LEVEL_INDEX[risk] >= LEVEL_INDEX[min];
  const levels = [
    ...alert.categories.filter((c) => reaches(c.risk)).map((c) => `${c.risk} ${c.category} pollen`),
    ...alert.species.filter((s) => reaches(s.risk)).map((s) => `${s.risk} ${s.name} pollen`),
  ];
  return `${dateInWords(alert.date)}: ${levels.join(', ')}`;
}

/** Whether an alert has a category or allergen at `min` or above: an answer at a lower level holds every higher level's alerts. */
export const reachesLevel = (alert: Pick<Alert, 'categories' | 'species'>, min: AlertLevel): boolean =>
  [...alert.categories, ...alert.species].some((x) => LEVEL_INDEX[x.risk] >= LEVEL_INDEX[min]);
