/**
 * GET /api/season: when a city's tree, grass, weed and ragweed seasons (and each allergen
 * species') started, peaked and ended in a year, by the percentage method on the daily means the
 * city's daily rows serve, where each stands by the EAACI concentration definition, and how the
 * year compares with the earlier years held (domain/seasons/year.ts, domain/seasons/status.ts;
 * docs/data.md, "Seasons").
 */
import * as z from 'zod';
import type { DayCut } from '../../domain/day-cuts.js';
import { provenanceOfSources } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { citySeasons } from '../../domain/seasons/city-seasons.js';
import { seasonCategories } from '../../domain/seasons/year.js';
import { allDailyRows } from '../../store/daily-rows.js';
import type { StoreReader } from '../../store/reader.js';
import { localDays, provenance } from '../contract/answer-fields.js';
import { ApiError, invalidParameter, UnsupportedCityError } from '../contract/error.js';
import { cutField, requiredCity, servedCity, timezoneParam } from '../contract/params.js';
import { integer, param, readFrom } from '../contract/query.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, type FormParams, LOCAL, theCity, type Unit } from '../contract/static-forms.js';

export const SeasonResponse = named(
  'SeasonResponse',
  "A city's pollen seasons in a year, and a line per year held and category.",
  z.object({
    city: z.string(),
    year: z
      .number()
      .int()
      .describe(
        "The year asked for; without one, the calendar year of the latest data day, each category answering its own year under way (categories[].year: tree's runs from 1 October, so from October it is the next one).",
      ),
    ...localDays,
    ...provenance,
    categories: z.array(D.CategorySeason),
    years: z.array(D.SeasonYearRow),
  }),
);
export const YearNotHeldError = named(
  'YearNotHeldError',
  'The city has no daily values in the year asked for (or none yet).',
  z.object({ error: z.string(), code: z.literal('YEAR_NOT_HELD'), city: z.string(), years: z.array(z.number().int()) }),
);
export type SeasonResponse = z.infer<typeof SeasonResponse>;

const [FIRST_YEAR, LAST_YEAR] = [1970, 9999];
const YEAR = `a year (YYYY) from ${FIRST_YEAR} to ${LAST_YEAR}`;
const CATEGORY = 'all, tree, grass, weed, ragweed, or an allergen species as the bulk files name it (tree_oak), in any case';

/** `year`: a season year; the one under way when left out. */
const yearParam = param(integer(FIRST_YEAR, LAST_YEAR).optional(), {
  expected: YEAR,
  shape: 'YYYY',
  description: `A season year (${YEAR}): the calendar year, except that tree's (and each tree species') runs from 1 October of the year before, so that a winter season is one season; the year under way on the latest day with data when left out.`,
});

/** `category`: one category, or all of them (the default), in any case. */
const categoryParam = param(
  z
    .codec(z.string(), readFrom(z.string().regex(/^[a-z][a-z0-9_]*$/), '^[A-Za-z][A-Za-z0-9_]*$'), {
      decode: (text) => text.toLowerCase(),
      encode: (name) => name,
    })
    .default('all'),
  {
    expected: CATEGORY,
    shape: 'all|tree|grass|weed|ragweed|SPECIES',
    description: `One category (${CATEGORY}); all of them when left out.`,
  },
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
    { at: { param: 'year' }, schema: YearNotHeldError },
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
      "Each category's main pollen season in a year by the percentage method (from the day the year's cumulative sum of daily means reaches 2.5% of its total to the day it reaches 97.5%), its peak day, its seasonal and annual integrals (SPIn, APIn), the days of the season by NAB level, whether the year is over (closed) and complete (over, with 90% of its days), where the season stands by the EAACI concentration definition (status: not started, in season, ended, with its end provisional until the year is complete), and its cumulative sum against each complete earlier year's at the same day of the year. Each category has its own years (tree's runs from 1 October); without year, each category answers its year under way on the latest data day. years: one line per year held and category. Computed on the daily means of /api/pollen?city=. An extension of the contract.",
    notFound: {
      description: 'Unsupported city (UNSUPPORTED_CITY), or a year without daily values (YEAR_NOT_HELD, with the years held).',
      schema: z.union([UnsupportedCityError, YearNotHeldError]),
    },
  },
  llms: "pollen seasons (start, peak, end, SPIn, and status: not started, in season or ended), against earlier years; tree's year runs from 1 October",
  tool: {
    name: 'get_season',
    title: "A city's pollen seasons",
    description:
      "When each category's pollen season (tree, grass, weed, ragweed, and each allergen species) started, peaked and ended in a year, by the 2.5%/97.5% percentage method on daily means; status: where the season stands by the EAACI concentration definition (not started, in season, ended; provisional until the year is complete), the one to tell a person about the season under way; its SPIn and APIn (grains·day/m³), days by NAB level, whether the year is complete, and comparison.years: how far this year's cumulative sum is ahead of each complete earlier year's at the same day of the year (ahead_pct) and how many days earlier it started (start_difference_days). Tree's year runs from 1 October to 30 September and is named by the year it ends in; without year, each category answers its year under way. A year not held is an error that lists the years held. timezone \"local\" cuts days at the city's midnight.",
  },
  // A city without daily values answers 404 (YEAR_NOT_HELD) from the fallback function.
  forms: [
    { file: `${DATA_PREFIX}/season/{city}.json`, unit: 'city', enumerate: withValues('UTC') },
    { file: `${DATA_PREFIX}/season-local/{city}.json`, fixed: LOCAL, unit: 'city', enumerate: withValues('local') },
  ],
  handle: ({ city: slug, year, category, timezone: cut }, { store, cities }) => {
    const city = servedCity(cities, slug);
    const rows = allDailyRows(store, city.slug, cut);
    const all = seasonCategories(store.shapes.all());
    const categories = category === 'all' ? all : all.filter((c) => c.name === category);
    if (rows.length > 0 && categories.length === 0) throw invalidParameter('category', CATEGORY);
    // Each category's own years (tree's from 1 October); without a year, each its year under way.
    const seasons = citySeasons(rows, categories, year);
    if (seasons.year === null || seasons.categories.length === 0) throw yearNotHeld(city.slug, year, seasons.held);
    // A season is measured on every day held (earlier years compared too): their providers.
    const from = provenanceOfSources(
      rows.flatMap((r) => r.sources),
      store.pollen.latestSource(),
    );
    return {
      body: { city: city.slug, year: seasons.year, ...cutField(cut), ...from, categories: seasons.categories, years: seasons.years },
    };
  },
});
