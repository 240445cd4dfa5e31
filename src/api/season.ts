/**
 * GET /api/season: when a city's tree, grass, weed and ragweed seasons (and each allergen
 * species') started, peaked and ended in a year, by the percentage method on the daily means the
 * city's daily rows serve, where each stands by the EAACI concentration definition, and how the
 * year compares with the earlier years held (domain/seasons.ts, domain/season-status.ts;
 * docs/data.md, "Seasons").
 */
import * as z from 'zod';
import type { DayCut } from '../domain/days.js';
import { dailyRowOf } from '../domain/day-values.js';
import { citySeasons } from '../domain/city-seasons.js';
import { type DatedRow, seasonCategories } from '../domain/seasons.js';
import type { StoreReader } from '../store/reader.js';
import { ApiError, invalidParameter } from './error.js';
import { DATA_PREFIX, type FormParams, LOCAL, theCity, type Unit } from './forms.js';
import { cutField, requiredCity, timezoneParam } from './params.js';
import { optional, withDefault } from './query.js';
import { route } from './route.js';
import { SeasonResponse, UnsupportedCityError, YearNotHeldError } from './schemas.js';
import { citySlug, timezoneArg } from './tool-args.js';

const YEAR = 'a year (YYYY) from 1970 to 9999';
const CATEGORY = 'all, tree, grass, weed, ragweed, or an allergen species as the bulk files name it (tree_oak)';

/** `year`: a calendar year; the latest year with data when left out. */
const yearParam = optional({
  expected: YEAR,
  description: `Calendar year (${YEAR}); the latest year with data when left out. Tree's year starts on 1 October of the year before.`,
  schema: z.number().int().min(1970).max(9999),
  read: (text) => (/^\d{4}$/.test(text) && Number(text) >= 1970 ? Number(text) : undefined),
});

/** `category`: one category, or all of them (the default). */
const categoryParam = withDefault<string>(
  {
    expected: CATEGORY,
    description: `One category (${CATEGORY}); all of them when left out.`,
    schema: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .default('all'),
    read: (text) => (/^[a-z][a-z0-9_]*$/.test(text) ? text : undefined),
  },
  'all',
);

/** 404 for a year the city has no daily values in, with the years it has. */
const yearNotHeld = (city: string, year: number | undefined, years: readonly number[]): ApiError =>
  new ApiError(
    404,
    year === undefined ? `No daily values for ${city} yet.` : `No daily values for ${city} in ${year}; the years held are listed in years.`,
    { code: 'YEAR_NOT_HELD', city, years },
    {},
    { param: 'year' },
  );

/** Every daily row of a city, oldest first: what its seasons are measured on (the bulk seasons file's too). */
export function allDailyRows(store: Pick<StoreReader, 'values'>, city: string, cut: DayCut): DatedRow[] {
  return [...store.values.span(city, cut, 0, Number.MAX_SAFE_INTEGER).values()].map((v) => ({ day: v.day, row: dailyRowOf(v) }));
}

/** The city of a city unit, when it has daily values in the cut. */
const withValues =
  (cut: DayCut) =>
  (store: StoreReader, u: Unit): FormParams[] =>
    u.kind === 'city' && store.values.has(u.city, cut) ? theCity(store, u) : [];

export const seasonRoute = route({
  path: '/api/season',
  params: {
    city: requiredCity(),
    year: yearParam,
    category: categoryParam,
    timezone: timezoneParam("each city's local days, so the year and its days begin at the city's midnight."),
  },
  response: SeasonResponse,
  doc: {
    operationId: 'getSeason',
    summary: 'Pollen seasons of a city',
    description:
      "Each category's main pollen season in a year by the percentage method (from the day the year's cumulative sum of daily means reaches 2.5% of its total to the day it reaches 97.5%), its peak day, its seasonal and annual integrals (SPIn, APIn), the days of the season by NAB level, whether the year is over (closed) and complete (over, with 90% of its days), where the season stands by the EAACI concentration definition (status: not started, in season, ended, with its end provisional until the year is complete), and its cumulative sum against each complete earlier year's at the same day of the year. Each category has its own years (tree's runs from 1 October); without year, each category answers its year under way on the latest data day. years: one line per year held and category. Computed on the daily means of /api/pollen?city=. An extension of the contract.",
    notFound: {
      description: 'Unsupported city (UNSUPPORTED_CITY), or a year without daily values (YEAR_NOT_HELD, with the years held).',
      schema: z.union([UnsupportedCityError, YearNotHeldError]),
    },
  },
  llms: "/api/season?city=SLUG&year=YYYY&category=tree|grass|weed|ragweed|SPECIES: pollen seasons (start, peak, end, SPIn, and status: not started, in season or ended), against earlier years; tree's year runs from 1 October",
  tool: {
    name: 'get_season',
    title: "A city's pollen seasons",
    description:
      "When each category's pollen season (tree, grass, weed, ragweed, and each allergen species) started, peaked and ended in a year, by the 2.5%/97.5% percentage method on daily means; status: where the season stands by the EAACI concentration definition (not started, in season, ended; provisional until the year is complete), the one to tell a person about the season under way; its SPIn and APIn (grains·day/m³), days by NAB level, whether the year is complete, and comparison.years: how far this year's cumulative sum is ahead of each complete earlier year's at the same day of the year (ahead_pct) and how many days earlier it started (start_difference_days). Tree's year runs from 1 October to 30 September and is named by the year it ends in; without year, each category answers its year under way. timezone \"local\" cuts days at the city's midnight.",
    input: {
      city: citySlug,
      year: z.number().int().optional().describe('Calendar year; the latest with data when left out.'),
      category: z.string().optional().describe(`One of: ${CATEGORY}.`),
      timezone: timezoneArg,
    },
  },
  // A city without daily values answers 404 (YEAR_NOT_HELD) from the fallback function.
  forms: [
    { file: `${DATA_PREFIX}/season/{city}.json`, unit: 'city', enumerate: withValues('UTC') },
    { file: `${DATA_PREFIX}/season-local/{city}.json`, fixed: LOCAL, unit: 'city', enumerate: withValues('local') },
  ],
  handle: ({ city, year, category, timezone: cut }, { store }) => {
    const rows = allDailyRows(store, city.slug, cut);
    const all = seasonCategories(store.shapes.all());
    const categories = category === 'all' ? all : all.filter((c) => c.name === category);
    if (rows.length > 0 && categories.length === 0) throw invalidParameter('category', CATEGORY);
    // Each category's own years (tree's from 1 October); without a year, each its year under way.
    const seasons = citySeasons(rows, categories, year);
    if (seasons.year === null || seasons.categories.length === 0) throw yearNotHeld(city.slug, year, seasons.held);
    return { body: { city: city.slug, year: seasons.year, ...cutField(cut), categories: seasons.categories, years: seasons.years } };
  },
});
