/**
 * GET /api/season: when a city's tree, grass, weed and ragweed seasons (and each allergen
 * species') started, peaked and ended in a year, by the percentage method on the daily means the
 * city's daily rows serve, and how the year compares with the earlier years held
 * (domain/seasons.ts; docs/data.md, "Seasons").
 */
import * as z from 'zod';
import type { DayCut } from '../domain/days.js';
import { citySeasons, seasonCategories, yearsHeld } from '../domain/seasons.js';
import { allDailyRows } from '../store/daily-rows.js';
import type { StoreReader } from '../store/reader.js';
import * as D from '../domain/schemas.js';
import { ApiError, invalidParameter, UnsupportedCityError } from './error.js';
import { named } from './named.js';
import { localDays } from './schemas.js';
import { DATA_PREFIX, type FormParams, LOCAL, theCity, type Unit } from './static-forms.js';
import { cutField, requiredCity, servedCity, timezoneParam } from './params.js';
import { integer, param } from './query.js';
import { route } from './route.js';

export const RiskDays = named('RiskDays', 'Days of a season with a value, by NAB level.', D.RiskDays);
export const Season = named('Season', 'A main pollen season by the percentage method.', D.Season);
export const EarlierYear = named('EarlierYear', 'This year against one complete earlier year, at the same day of the year.', D.EarlierYear);
export const SeasonComparison = named('SeasonComparison', 'This year against the complete earlier years held.', D.SeasonComparison);
export const CategorySeason = named('CategorySeason', "One category's year: its season, integrals and comparison.", D.CategorySeason);
export const SeasonYearRow = named('SeasonYearRow', "A year's season of a category in a line.", D.SeasonYearRow);
export const SeasonResponse = named(
  'SeasonResponse',
  "A city's pollen seasons in a year, and a line per year held and category.",
  z.object({
    city: z.string(),
    year: z.number().int(),
    ...localDays,
    categories: z.array(CategorySeason),
    years: z.array(SeasonYearRow),
  }),
);
export const YearNotHeldError = named(
  'YearNotHeldError',
  'The city has no daily values in the year asked for (or none yet).',
  z.object({ error: z.string(), code: z.literal('YEAR_NOT_HELD'), city: z.string(), years: z.array(z.number().int()) }),
);
export type SeasonResponse = z.infer<typeof SeasonResponse>;

const YEAR = 'a year (YYYY) from 1970 to 9999';
const CATEGORY = 'all, tree, grass, weed, ragweed, or an allergen species as the bulk files name it (tree_oak), in any case';

/** `year`: a season year; the one under way when left out. */
const yearParam = param(integer(1970, 9999).optional(), {
  expected: YEAR,
  description: `A season year (${YEAR}): the calendar year, except that tree's (and each tree species') runs from 1 October of the year before, so that a winter season is one season; the year under way on the latest day with data when left out.`,
});

/** `category`: one category, or all of them (the default), in any case. */
const categoryParam = param(
  z
    .codec(z.string(), z.string().regex(/^[a-z][a-z0-9_]*$/), { decode: (text) => text.toLowerCase(), encode: (name) => name })
    .default('all'),
  { expected: CATEGORY, description: `One category (${CATEGORY}); all of them when left out.` },
);

type YearNotHeld = z.infer<typeof YearNotHeldError>;

/** 404 for a year the city has no daily values in, with the years it has. */
const yearNotHeld = (city: string, year: number | undefined, years: readonly number[]): ApiError<YearNotHeld> =>
  new ApiError(
    404,
    {
      error:
        year === undefined
          ? `No daily values for ${city} yet.`
          : `No daily values for ${city} in ${year}; the years held are ${years.join(', ') || 'none'} (listed in years).`,
      code: 'YEAR_NOT_HELD',
      city,
      years: [...years],
    },
    { at: { param: 'year' } },
  );

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
      "Each category's main pollen season in a year by the percentage method (from the day the year's cumulative sum of daily means reaches 2.5% of its total to the day it reaches 97.5%), its peak day, its seasonal and annual integrals (SPIn, APIn), the days of the season by NAB level, whether the year is complete (90% of its days), and its cumulative sum against each complete earlier year's at the same day of the year. years: one line per year held and category. Computed on the daily means of /api/pollen?city=. An extension of the contract.",
    notFound: {
      description: 'Unsupported city (UNSUPPORTED_CITY), or a year without daily values (YEAR_NOT_HELD, with the years held).',
      schema: z.union([UnsupportedCityError, YearNotHeldError]),
    },
  },
  llms: '/api/season?city=SLUG&year=YYYY&category=tree|grass|weed|ragweed|SPECIES: pollen seasons (start, peak, end, SPIn), against earlier years',
  tool: {
    name: 'get_season',
    title: "A city's pollen seasons",
    description:
      "When each category's pollen season (tree, grass, weed, ragweed, and each allergen species) started, peaked and ended in a year, by the 2.5%/97.5% percentage method on daily means; its SPIn and APIn (grains·day/m³), days by NAB level, whether the year is complete, and comparison.years: how far this year's cumulative sum is ahead of each complete earlier year's at the same day of the year (ahead_pct) and how many days earlier it started (start_difference_days). year is a season year: tree's runs from 1 October of the year before; it defaults to the year under way. timezone \"local\" cuts days at the city's midnight. A year not held is an error that lists the years held.",
  },
  // A city without daily values answers 404 (YEAR_NOT_HELD) from the fallback function.
  forms: [
    { file: `${DATA_PREFIX}/season/{city}.json`, unit: 'city', enumerate: withValues('UTC') },
    { file: `${DATA_PREFIX}/season-local/{city}.json`, fixed: LOCAL, unit: 'city', enumerate: withValues('local') },
  ],
  handle: ({ city: slug, year, category, timezone: cut }, { store, cities }) => {
    const city = servedCity(cities, slug);
    const rows = allDailyRows(store, city.slug, cut);
    const held = yearsHeld(rows);
    const chosen = year ?? held.at(-1);
    if (chosen === undefined || !held.includes(chosen)) throw yearNotHeld(city.slug, year, held);
    const all = seasonCategories(store.shapes.all());
    const categories = category === 'all' ? all : all.filter((c) => c.name === category);
    if (categories.length === 0) throw invalidParameter('category', CATEGORY);
    return { body: { city: city.slug, year: chosen, ...cutField(cut), ...citySeasons(rows, categories, chosen) } };
  },
});
