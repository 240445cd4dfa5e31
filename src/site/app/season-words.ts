/**
 * The season view's sentences, in the words a person with allergies uses: when this year's season
 * started, peaked and ended, and how it compares with the earlier years, every number read from
 * /api/season's answer (docs/data.md, "Seasons").
 *
 * The dates are the main season's (`season`), the ones `start_difference_days` and the earlier
 * years' rows compare, so that "3 days earlier than last year" agrees with last year's date;
 * whether the season is under way, over or not begun is `status`'s, the definition that can tell
 * it while the year runs.
 */
import { civilDate, dayNumber } from '../../domain/dates.js';
import { yearName } from '../../domain/seasons/year.js';
import type { CategorySeason, SeasonAnswer } from './api.js';

export const SEASON_LABEL: Readonly<Record<string, string>> = { tree: 'Tree', grass: 'Grass', weed: 'Weed', ragweed: 'Ragweed' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date as people say it: `Mar 3`. */
export function spokenDate(date: string): string {
  const [, month, day] = civilDate(dayNumber(date));
  return `${MONTHS[month - 1]} ${day}`;
}

/** A day's month as people write it short: `Mar`. */
export const monthName = (day: number): string => MONTHS[civilDate(day)[1] - 1]!;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * How much more or less pollen, as a person would put it: to the nearest 5% ("about 20% less
 * pollen than"), "about as much pollen as" within 5%, and "twice" or "2.5 times as much" from
 * double on (a percentage above 100 reads poorly).
 */
export function amountWords(pct: number): string {
  const near = Math.round(Math.abs(pct) / 5) * 5;
  if (near === 0) return 'about as much pollen as';
  if (pct < 0) return `about ${Math.min(near, 95)}% less pollen than`;
  if (near < 100) return `about ${near}% more pollen than`;
  const times = Math.round((1 + pct / 100) * 2) / 2;
  return `about ${times === 2 ? 'twice' : `${times} times`} as much pollen as`;
}

/** How many days earlier or later a start was than another's: `3 days earlier than`, `on the same day of the year as`. */
export function startWords(days: number): string {
  if (days === 0) return 'on the same day of the year as';
  return `${plural(Math.abs(days), 'day')} ${days < 0 ? 'earlier' : 'later'} than`;
}

/** What this year is set against: the latest complete earlier year, or with several, their average. */
export interface Against {
  /** Its name after "than": `last year`, `in 2024`, `on average in the 2 earlier years`. */
  name: string;
  /** A start this many days after its (negative: before); null when one of the two has none. */
  startDays: number | null;
  /** How far this year's pollen to date is above its pollen by the same date, in percent; null when it had none. */
  pct: number | null;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The complete earlier years this year is compared with: the one, or the average of several (a
 * person asks about "usual", and the years held are what there is of it). Null with none.
 */
export function against(c: CategorySeason): Against | null {
  const years = c.comparison.years;
  const only = years.length === 1 ? years[0]! : undefined;
  if (only) {
    const name = only.year === c.year - 1 && !c.closed ? 'last year' : `in ${yearName(c.category, only.year)}`;
    return { name, startDays: only.start_difference_days, pct: only.ahead_pct };
  }
  if (years.length === 0) return null;
  const starts = years.flatMap((y) => (y.start_difference_days === null ? [] : [y.start_difference_days]));
  const theirs = mean(years.map((y) => y.cumulative));
  return {
    name: `on average in the ${years.length} earlier years`,
    startDays: starts.length === years.length ? Math.round(mean(starts)) : null,
    pct: theirs === 0 ? null : Math.round((c.comparison.cumulative / theirs - 1) * 100),
  };
}

/** The days of the season at High or Very High, in a sentence. */
function hardDays(c: CategorySeason): string {
  const days = c.season ? c.season.risk_days.High + c.season.risk_days['Very High'] : 0;
  const sofar = c.closed || c.status.state === 'ended' ? '' : ' so far';
  if (days === 0) return ` No day of it${sofar} was High or Very High.`;
  return ` ${days === 1 ? '1 of its days was' : `${days} of its days were`} High or Very High${sofar}.`;
}

/** Where this year's season stands: started, peaked and ended, under way since, or not started yet. */
export function standingSentence(c: CategorySeason): string {
  const name = `${SEASON_LABEL[c.category] ?? c.category} pollen season`;
  const { state } = c.status;
  const start = c.season?.start ?? c.status.start;
  const end = c.season?.end ?? c.status.end;
  const peak = c.season ? spokenDate(c.season.peak_date) : null;
  if (c.closed) {
    const of = `The ${name.toLowerCase()} of ${yearName(c.category, c.year)}`;
    if (!c.season || !end)
      return state === 'no season' ? `${of} never got going: pollen never stayed high for long.` : `${of}: not enough data to tell.`;
    const gaps = c.complete ? '' : ' Some days of that year have no data.';
    return `${of} started on ${spokenDate(c.season.start)}, peaked on ${peak} and ended on ${spokenDate(end)}.${hardDays(c)}${gaps}`;
  }
  if (state === 'not started' || !start) return `${name} has not started yet.`;
  if (state === 'in season')
    return `${name} has been under way since ${spokenDate(start)}${peak ? `; its worst day so far was ${peak}` : ''}.${hardDays(c)}`;
  // Ended while the year runs: a second flush of pollen would start it again.
  return `${name} started on ${spokenDate(start)}${peak ? `, peaked on ${peak}` : ''} and ended on ${spokenDate(end!)}; it can pick up again if pollen returns.${hardDays(c)}`;
}

/** The start of the latest earlier year compared with, for a season not started yet: `Last year it started on Dec 11.` */
function lastStart(answer: SeasonAnswer, c: CategorySeason): string {
  const latest = c.comparison.years.at(-1);
  const row = latest && answer.years.find((y) => y.category === c.category && y.year === latest.year);
  if (!latest || !row?.start) return '';
  const when = latest.year === c.year - 1 ? 'Last year' : `In ${yearName(c.category, latest.year)}`;
  return `${when} it started on ${spokenDate(row.start)}.`;
}

/** How this year compares with the earlier years: its start, then its pollen up to the same date. */
export function compareSentence(answer: SeasonAnswer, c: CategorySeason): string {
  const to = against(c);
  if (!to) return 'There is no full earlier year to compare with yet.';
  if (!c.closed && c.status.state === 'not started') return lastStart(answer, c);
  const parts: string[] = [];
  if (c.season && to.startDays !== null) parts.push(`It started ${startWords(to.startDays)} ${to.name}.`);
  if (to.pct !== null) {
    const amount = amountWords(to.pct);
    // A year under way is set against the earlier years' pollen by the same date, not their whole year.
    if (c.closed) parts.push(`The year brought ${amount} ${to.name}.`);
    else parts.push(`So far this year there has been ${amount} by the same date ${to.name}.`);
  }
  return parts.join(' ');
}
