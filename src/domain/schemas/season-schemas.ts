/** A category's season: its dates, its state, and how it compares with earlier years. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import { RISK_LABELS } from '../species/risk.js';
import { Day, num } from './common-schemas.js';

const grainDays = (what: string) => z.number().min(0).describe(`${what}, in grains·day/m³.`);

export const RiskDays = named(
  'RiskDays',
  'Days of a season with a value, by NAB level.',
  z
    .object(Object.fromEntries(RISK_LABELS.map((r) => [r, z.number().int().min(0)])) as Record<(typeof RISK_LABELS)[number], z.ZodNumber>)
    .describe('Days of the season with a value, by NAB level.'),
);
export type RiskDays = z.infer<typeof RiskDays>;

export const Season = named(
  'Season',
  'A main pollen season by the percentage method.',
  z
    .object({
      start: Day.describe("The first day on which the year's cumulative sum reaches 2.5% of its total."),
      end: Day.nullable().describe(
        'The first day on which it reaches 97.5%. While the year is under way, the end of the concentration definition once status says ended (provisional), else null.',
      ),
      days: z.number().int().min(1).describe('Days from start to end (or to the last day held), both included.'),
      peak_date: Day.describe("The first day of the year's highest daily mean."),
      peak_value: num.describe('That daily mean, grains/m³.'),
      spin: grainDays('The seasonal pollen integral (SPIn): daily means summed from start to end, or to the last day held'),
      risk_days: RiskDays,
    })
    .describe('The main pollen season by the percentage method (2.5% to 97.5% of the annual total).'),
);
export type Season = z.infer<typeof Season>;

export const SeasonState = z.enum(['not started', 'in season', 'ended', 'no season']);
export type SeasonState = z.infer<typeof SeasonState>;

export const SeasonStatus = z
  .object({
    state: SeasonState.describe(
      'not started; in season (since start); ended (a window of 7 days has passed since the last period, or the year is over); no season (a year over with no period).',
    ),
    start: Day.nullable().describe(
      'The first day of the first period of 5 days within 7 on which the daily mean is at least criterion.daily, summing to at least criterion.sum.',
    ),
    end: Day.nullable().describe('The last day of the last such period, once the season has ended; null before.'),
    provisional: z
      .boolean()
      .describe('True until the year is complete: pollen may return and move the end, and missing days may be filled.'),
    criterion: z
      .object({
        taxon: z.enum(['birch', 'grass', 'cypress', 'ragweed']).describe('The pollen type whose EAACI criterion the category takes.'),
        daily: num.describe('Daily mean at or above which a day counts, grains/m³.'),
        sum: num.describe('What the 5 days must sum to, grains/m³.'),
      })
      .describe('The EAACI criterion applied (Pfaar et al. 2017).'),
  })
  .describe(
    "Where the season stands on the latest data day, by the EAACI concentration definition (Pfaar et al. 2017): the one recommended for a season under way, as the percentage method needs the year's total.",
  );
export type SeasonStatus = z.infer<typeof SeasonStatus>;

export const EarlierYear = named(
  'EarlierYear',
  'This year against one complete earlier year, at the same day of the year.',
  z.object({
    year: z.number().int(),
    as_of: Day.describe('The same day of that year as the last day held of this one.'),
    cumulative: grainDays("That year's cumulative sum to as_of"),
    ahead_pct: num
      .nullable()
      .describe("How far this year's cumulative sum is above (negative: below) that year's, in percent; null when that year's is 0."),
    start_difference_days: z
      .number()
      .int()
      .nullable()
      .describe("This year's start minus that year's, in days of the year (negative: earlier)."),
  }),
);
export type EarlierYear = z.infer<typeof EarlierYear>;

export const SeasonComparison = named(
  'SeasonComparison',
  'This year against the complete earlier years held.',
  z.object({
    as_of: Day.nullable().describe('The last day held of this year.'),
    cumulative: grainDays("This year's cumulative sum to as_of"),
    earlier_years: z.number().int().min(0).describe('How many complete earlier years there are to compare with.'),
    note: z
      .string()
      .nullable()
      .describe('What the comparison can say: with one earlier year, it is a comparison with that year, not with a normal.'),
    years: z.array(EarlierYear),
  }),
);
export type SeasonComparison = z.infer<typeof SeasonComparison>;

export const CategorySeason = named(
  'CategorySeason',
  "One category's year: its season, integrals and comparison.",
  z.object({
    category: z.string().describe('tree, grass, weed, ragweed, or an allergen species named as the bulk files name it (tree_oak).'),
    year: z.number().int().describe("The category's year: the calendar year, or for tree and its species the year ending on 30 September."),
    from: Day.describe("The first day of the category's year: 1 January, or for tree and its species 1 October of the year before."),
    to: Day,
    days_with_data: z.number().int().min(0),
    closed: z.boolean().describe("Whether the year is over: its last day is on or before the city's latest data day."),
    complete: z.boolean().describe('Whether the year is over and at least 90% of its days have a value.'),
    through: Day.nullable().describe('The last day of the year with a value.'),
    apin: grainDays('The annual pollen integral (APIn): daily means summed over the year (so far)'),
    basis: z
      .enum(['year', 'days held', 'earlier years', 'so far'])
      .describe(
        "What 2.5% and 97.5% are shares of: the year's total; for a year over with gaps, the total of the days it holds; for a year under way, the mean total of the complete earlier years, else its total so far.",
      ),
    season: Season.nullable(),
    reason: z.string().nullable().describe('Why season is null: no data in the year, no pollen above zero, or not started by a date.'),
    status: SeasonStatus,
    comparison: SeasonComparison,
  }),
);
export type CategorySeason = z.infer<typeof CategorySeason>;

export const SeasonYearRow = named(
  'SeasonYearRow',
  "A year's season of a category in a line.",
  z.object({
    year: z.number().int(),
    category: z.string(),
    closed: z.boolean(),
    complete: z.boolean(),
    status: SeasonState,
    start: Day.nullable(),
    end: Day.nullable(),
    peak_date: Day.nullable(),
    peak_value: num.nullable(),
    spin: z.number().min(0).nullable(),
    apin: z.number().min(0),
  }),
);
export type SeasonYearRow = z.infer<typeof SeasonYearRow>;
