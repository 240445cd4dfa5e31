/**
 * A city's seasons from its daily rows (docs/data.md, "Seasons"): each category in each year it
 * holds, compared with its complete earlier years (seasons.ts measures one year), and the answer
 * of /api/season and the rows of the bulk seasons file made from them.
 */
import { civilDate, dayString } from '../dates.js';
import type { CategorySeason, SeasonYearRow } from '../schemas.js';
import {
  compareYears,
  type DatedRow,
  type SeasonCategory,
  seasonSeries,
  seasonYear,
  seasonYearOf,
  type YearSeason,
  yearSeason,
  yearsHeld,
} from './year.js';

/** A category's season in each year it holds, oldest first, each compared with the earlier years; `latest` is the city's latest data day. */
export function categorySeasons(rows: readonly DatedRow[], category: SeasonCategory, latest: number): Map<number, CategorySeason> {
  const series = seasonSeries(rows, category);
  const seasons: Array<{ year: number; season: YearSeason }> = [];
  const out = new Map<number, CategorySeason>();
  for (const year of yearsHeld(series, category.name)) {
    const earlierTotals = seasons.filter((e) => e.season.complete).map((e) => e.season.apin);
    const mine = yearSeason(series, seasonYear(category.name, year), { latest, earlierTotals, category: category.name });
    out.set(year, {
      category: category.name,
      year,
      from: dayString(mine.from),
      to: dayString(mine.to),
      days_with_data: mine.daysWithData,
      closed: mine.closed,
      complete: mine.complete,
      through: mine.through === null ? null : dayString(mine.through),
      apin: mine.apin,
      basis: mine.basis,
      season: mine.season,
      reason: mine.reason,
      status: mine.status,
      comparison: compareYears(mine, seasons, category.name),
    });
    seasons.push({ year, season: mine });
  }
  return out;
}

/** The last day of a city's daily rows (oldest first), or null. */
const latestDay = (rows: readonly DatedRow[]): number | null => rows.at(-1)?.day ?? null;

/** Every category's season in every year it holds, by year ascending (the bulk seasons file's rows). */
export function seasonsByYear(rows: readonly DatedRow[], categories: readonly SeasonCategory[]): Map<number, CategorySeason[]> {
  const latest = latestDay(rows);
  const byYear = new Map<number, CategorySeason[]>();
  if (latest === null) return byYear;
  for (const category of categories)
    for (const [year, season] of categorySeasons(rows, category, latest)) byYear.set(year, [...(byYear.get(year) ?? []), season]);
  return new Map([...byYear].sort(([a], [b]) => a - b));
}

/** A year's season of a category in a line. */
export const yearRow = (c: CategorySeason): SeasonYearRow => ({
  year: c.year,
  category: c.category,
  closed: c.closed,
  complete: c.complete,
  status: c.status.state,
  start: c.season?.start ?? null,
  end: c.season?.end ?? null,
  peak_date: c.season?.peak_date ?? null,
  peak_value: c.season?.peak_value ?? null,
  spin: c.season?.spin ?? null,
  apin: c.apin,
});

/** A city's seasons: the categories' seasons in a year, a line per year held and category, and the years held. */
export interface CitySeasons {
  /** The year asked for, or the calendar year of the latest data day; null without data. */
  year: number | null;
  /** Each category's season in `year`, or when no year is asked, in its year under way on the latest data day (else its latest held). */
  categories: CategorySeason[];
  years: SeasonYearRow[];
  /** The years any of the categories holds, ascending. */
  held: number[];
}

/** The seasons of `categories` in `year`, or each in its year under way when `year` is left out. */
export function citySeasons(rows: readonly DatedRow[], categories: readonly SeasonCategory[], year?: number): CitySeasons {
  const latest = latestDay(rows);
  if (latest === null) return { year: year ?? null, categories: [], years: [], held: [] };
  const chosen: CategorySeason[] = [];
  const years: SeasonYearRow[] = [];
  const held = new Set<number>();
  for (const category of categories) {
    const seasons = categorySeasons(rows, category, latest);
    const pick =
      seasons.get(year ?? seasonYearOf(category.name, latest)) ?? (year === undefined ? [...seasons.values()].at(-1) : undefined);
    if (pick) chosen.push(pick);
    for (const [y, season] of seasons) {
      held.add(y);
      years.push(yearRow(season));
    }
  }
  return {
    year: year ?? civilDate(latest)[0],
    categories: chosen,
    years,
    held: [...held].sort((a, b) => a - b),
  };
}
