/**
 * The shapes of what the service answers, as zod schemas: one definition each, from which come
 * the types the domain builds (`z.infer`), the page's client types, the OpenAPI document's
 * components (each named where it is defined: schema-names.ts) and the tests' checks of every body.
 */
import * as z from 'zod';
import { named } from './schema-names.js';
import { CATEGORIES, GRADED, RISK_LABELS } from './species/risk.js';
import { INTEGER_FIELDS, TEXT_FIELDS, WEATHER_FIELDS, type WeatherField, type WeatherValues } from './weather.js';

const num = z.number();
const numOrNull = num.nullable();
/** A calendar day, `YYYY-MM-DD`: the one date schema of every answer. */
export const Day = z.iso.date();
/** An instant, as answers write it: UTC, milliseconds. */
export const DateTime = z.iso.datetime();

export const PollenRisk = named('PollenRisk', 'NAB risk label; null when the value is missing.', z.enum(RISK_LABELS).nullable());

export const Species = named(
  'Species',
  'Provider species payload: category -> allergen -> grains/m³, or category -> number (for example Others). Null when not supplied.',
  z.record(z.string(), z.union([numOrNull, z.record(z.string(), numOrNull)])).nullable(),
);

export const City = named(
  'City',
  'A supported city.',
  z.object({
    name: z.string(),
    slug: z.string(),
    // An extension of the contract: several US cities share a name (Columbus, Springfield, Aurora).
    state: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .describe("The USPS code of the city's state, or DC: tells apart cities that share a name. An extension of the contract."),
    lat: z
      .number()
      .min(-90)
      .max(90)
      .describe('Latitude of the point the providers are asked for, WGS84 decimal degrees. An extension of the contract.'),
    lon: z.number().min(-180).max(180).describe('Longitude, WGS84 decimal degrees. An extension of the contract.'),
    timezone: z.string().describe('IANA time zone, whose days timezone=local cuts. An extension of the contract.'),
  }),
);

const pollenValues = {
  tree: numOrNull,
  grass: numOrNull,
  weed: numOrNull,
};

const risks = { risk_tree: PollenRisk, risk_grass: PollenRisk, risk_weed: PollenRisk };

/** A daily row's level: graded before its mean is rounded, which can make a 0 Low. */
const dailyRisk = (category: string) =>
  PollenRisk.describe(
    `NAB level of the day's mean ${category}, graded before rounding, on its highest allergen where the species have numbers: a day whose ${category} rounds to 0 can be Low.`,
  );
const dailyRisks = { risk_tree: dailyRisk('tree'), risk_grass: dailyRisk('grass'), risk_weed: dailyRisk('weed') };

/** How many hours a local day holds (23, 24 or 25; fewer while its last hours are not ingested yet; 0 for a day its provider gave as one value). */
const dayHourCount = z.number().int().min(0).max(25);

/** On each row of an answer whose values come from more than one provider (provenance.ts): that row's. */
const rowProvenance = {
  providers: z
    .array(z.string())
    .optional()
    .describe("Present only when the answer's values come from more than one provider: the providers of this row's values."),
  simulated: z
    .literal(true)
    .optional()
    .describe("Present (true), beside providers, when the row's values include the sample provider's invented ones."),
};

export const HourlyPollen = named(
  'HourlyPollen',
  'One hour of observations (grains/m³).',
  z.object({
    ts: DateTime,
    ...pollenValues,
    total: num,
    species: Species,
    ...risks,
    timezone: z.string().nullable(),
    ...rowProvenance,
  }),
);

export const DailyPollen = named(
  'DailyPollen',
  'Daily means (rounded; risks grade the unrounded means by the highest species mean) with the daily peaks.',
  z.object({
    date: Day,
    ...pollenValues,
    total: numOrNull,
    species: Species,
    ...dailyRisks,
    timezone: z.string().nullable(),
    peak_tree: numOrNull,
    peak_grass: numOrNull,
    peak_weed: numOrNull,
    peak_total: numOrNull,
    peak_risk_tree: PollenRisk,
    peak_risk_grass: PollenRisk,
    peak_risk_weed: PollenRisk,
    hours: dayHourCount
      .optional()
      .describe('With timezone=local only: the hours the local day holds (0: its provider gave the day as one value).'),
    ...rowProvenance,
  }),
);

export const CrossCityPollen = named(
  'CrossCityPollen',
  "One city's day in the cross-city view: count is the sum of the daily category maxima.",
  z.object({
    city: z.string(),
    date: Day,
    count: num,
    source: z.string(),
    is_forecast: z.literal(false),
    max_weed: num,
    ...rowProvenance,
  }),
);

const mapValues = { tree: numOrNull, grass: numOrNull, weed: numOrNull, ragweed: numOrNull };

const mapRisks = { ...risks, risk_ragweed: PollenRisk };

export const MapDay = named(
  'MapDay',
  'Daily maxima of one day of the three-day series.',
  z.object({ date: Day, ...mapValues, ...mapRisks, timezone: z.string().nullable() }),
);

const sev = z.number().int().min(0).max(4);

export const MapFeature = named(
  'MapFeature',
  'One city on the map.',
  z.object({
    type: z.literal('Feature'),
    // Two numbers, longitude first. Written as items with a length, not prefixItems (a tuple),
    // which common validators and type generators read wrongly.
    geometry: z.object({ type: z.literal('Point'), coordinates: z.array(num).min(2).max(2).describe('[longitude, latitude]') }),
    properties: z.object({
      city: z.string(),
      value_basis: z.literal('daily-category-maxima'),
      count: num,
      ...mapValues,
      max_weed: num,
      ...mapRisks,
      sev_tree: sev,
      sev_grass: sev,
      sev_weed: sev,
      sev_ragweed: sev,
      sev_total: sev,
      timezone: z.string().nullable(),
      series: z.array(MapDay).length(3),
      ...rowProvenance,
    }),
  }),
);

const weatherField = (f: WeatherField) =>
  TEXT_FIELDS.has(f) ? z.string() : f === 'aqi' ? z.number().int().min(1).max(5) : INTEGER_FIELDS.has(f) ? z.number().int() : num;
/** Every measured field, optional: texts as strings, the rest as numbers. */
const weatherFields = Object.fromEntries(WEATHER_FIELDS.map((f) => [f, weatherField(f).optional()])) as unknown as {
  [K in WeatherField]: z.ZodOptional<z.ZodType<NonNullable<WeatherValues[K]>>>;
};

export const WeatherRow = named(
  'WeatherRow',
  'Daily weather and air quality; unmeasured fields are omitted, never null.',
  z.object({
    city_slug: z.string(),
    date: Day,
    ...weatherFields,
    aqi_us: z
      .number()
      .int()
      .min(0)
      .max(500)
      .optional()
      .describe(
        "The EPA's Air Quality Index (0-500) of the day's particulate matter, from the 24-hour PM2.5 and PM10 sub-indices (EPA-454/B-24-002, May 2024): the scale US weather apps show, where aqi is the provider's 1-5 scale. Absent without PM2.5 or PM10. An extension of the contract.",
      ),
    aqi_us_pollutant: z
      .enum(['PM2.5', 'PM10'])
      .optional()
      .describe('The pollutant whose sub-index is aqi_us. An extension of the contract.'),
    source: z.string().optional(),
    created_at: DateTime.optional(),
    ...rowProvenance,
  }),
);

export const PollenRangeRow = named(
  'PollenRangeRow',
  "One hour (aggregate=none) or one day (aggregate=day: a UTC day, or with timezone=local the city's local day from its local midnight; daily-row rules, no peaks) of a city.",
  z.object({
    city: z.string(),
    periodStart: DateTime,
    ...pollenValues,
    total: numOrNull,
    timezone: z.string().nullable(),
    species: Species,
    ...risks,
    ...rowProvenance,
  }),
);

export const ForecastPollen = named(
  'ForecastPollen',
  'One forecast hour; the zone field is tz.',
  z.object({
    ts: DateTime,
    ...pollenValues,
    total: numOrNull,
    species: Species,
    ...risks,
    tz: z.string().nullable(),
  }),
);

export const ForecastDay = named(
  'ForecastDay',
  "One (UTC or local) day the forecast touches: the daily-row fields over its forecast hours, how many there are, and the day's UTC offset at its start.",
  DailyPollen.omit({ hours: true }).extend({ hours: dayHourCount, tz: z.string().regex(/^[+-]\d{2}:\d{2}$/) }),
);

/** How many of a local day's hours a forecast holds, as alerts and the forecast map say it. */
export const forecastHoursHeld = z
  .number()
  .int()
  .min(0)
  .max(25)
  .describe("How many of the day's hours the forecast holds (today: the hours left); 0 for a provider that forecast the day as one value.");

export const AlertLevel = z.enum(['Low', 'Moderate', 'High', 'Very High']);

export const AlertCategoryName = z.enum(GRADED);

export const Alert = named(
  'Alert',
  "One local day of the forecast on which a watched category's or allergen's worst hour reaches min.",
  z.object({
    id: z
      .string()
      .regex(/^urn:uuid:[0-9a-f-]{36}$/)
      .describe(
        'A name-based UUID (version 5) of city, date, min, categories and species: the same in every answer, and the UID of the calendar event (without urn:uuid:).',
      ),
    date: Day.describe("The city's local date."),
    tz: z
      .string()
      .regex(/^[+-]\d{2}:\d{2}$/)
      .describe('The UTC offset at the start of the local day.'),
    hours: forecastHoursHeld,
    categories: z
      .array(
        z.object({
          category: AlertCategoryName,
          risk: AlertLevel.describe("The day's worst hourly risk (ragweed: Weed.Ragweed graded with the weed thresholds)."),
          peak: numOrNull.describe("The day's highest hourly value, grains/m³."),
        }),
      )
      .describe('The watched categories that reach min (empty when only a watched allergen does).'),
    species: z
      .array(
        z.object({
          category: z.enum(CATEGORIES).describe("The allergen's category, whose NAB range grades it."),
          name: z.string().describe("The provider's name of the allergen, such as Oak."),
          slug: z.string().describe('Its name in species=, such as oak.'),
          risk: AlertLevel.describe(
            "The day's worst hourly risk of this allergen alone, graded on its category's NAB range (NAB publishes ranges for categories, not single plants).",
          ),
          peak: numOrNull.describe("The allergen's highest hourly value of the day, grains/m³."),
        }),
      )
      .describe('The watched allergens (species=) that reach min; empty when the subscription watches none. An extension.'),
    top_species: z
      .array(z.object({ category: z.string(), name: z.string(), peak: num }))
      .max(3)
      .describe("The day's allergens with the highest hourly values, highest first."),
    summary: z.string().describe('One line for a notification.'),
  }),
);

export const BulkColumn = z.object({
  name: z.string(),
  type: z.enum(['STRING', 'TIMESTAMP', 'DATE', 'DOUBLE', 'INT32', 'BOOLEAN']),
  nullable: z.boolean(),
  unit: z.string().optional(),
  description: z.string(),
  provider: z
    .object({ category: z.string(), name: z.string().optional() })
    .optional()
    .describe("A species column: the provider's category, and the allergen's name where the category has several."),
});

export const BulkKind = z.enum(['pollen-hourly', 'pollen-daily', 'weather-daily', 'seasons', 'forecast-pairs']);

export const BulkManifest = named(
  'BulkManifest',
  'The bulk files (/data/bulk/index.json): each month of the served history as Parquet and gzip CSV, and the data dictionary of their columns.',
  z.object({
    from: Day.nullable(),
    to: Day.nullable(),
    kinds: z
      .object(
        Object.fromEntries(BulkKind.options.map((k) => [k, z.object({ description: z.string(), columns: z.array(BulkColumn) })])) as Record<
          z.infer<typeof BulkKind>,
          z.ZodObject<{ description: z.ZodString; columns: z.ZodArray<typeof BulkColumn> }>
        >,
      )
      .describe("Each kind's columns (the same in every month): the data dictionary."),
    files: z.array(
      z.object({
        path: z.string().describe('URL path on this deployment, such as /data/bulk/pollen-hourly-2025-04.parquet'),
        kind: BulkKind,
        format: z.enum(['parquet', 'csv.gz']),
        month: z
          .string()
          .regex(/^\d{4}-\d{2}$/)
          .nullable()
          .describe('The month the file holds; null for the seasons and forecast-pairs files, which hold every year.'),
        rows: z.number().int().min(0),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        inputs_sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .describe(
            "SHA-256 of what the file is made from (the writer, the columns, and the month's hours, day values and weather as stored, or for the seasons file every day value): a render reuses a month's files while it is unchanged.",
          ),
        columns: z.array(z.string()),
        providers: z
          .array(z.string())
          .optional()
          .describe(
            "The providers of the file's values, as its rows' provider column names them (also in the Parquet file's key-value metadata, pollen-api:providers); absent for files without that column.",
          ),
        simulated: z
          .literal(true)
          .optional()
          .describe("Present when any of the file's values are the sample provider's: invented for demonstration, never measured."),
      }),
    ),
  }),
);

const grainDays = (what: string) => z.number().min(0).describe(`${what}, in grains·day/m³.`);

export const RiskDays = named(
  'RiskDays',
  'Days of a season with a value, by NAB level.',
  z
    .object(Object.fromEntries(RISK_LABELS.map((r) => [r, z.number().int().min(0)])) as Record<(typeof RISK_LABELS)[number], z.ZodNumber>)
    .describe('Days of the season with a value, by NAB level.'),
);

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

export const SeasonState = z.enum(['not started', 'in season', 'ended', 'no season']);

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

export type PollenRisk = z.infer<typeof PollenRisk>;
export type CityRow = z.infer<typeof City>;
export type HourlyPollen = z.infer<typeof HourlyPollen>;
export type DailyPollen = z.infer<typeof DailyPollen>;
export type CrossCityPollen = z.infer<typeof CrossCityPollen>;
export type MapDay = z.infer<typeof MapDay>;
export type MapFeature = z.infer<typeof MapFeature>;
export type WeatherRow = z.infer<typeof WeatherRow>;
export type PollenRangeRow = z.infer<typeof PollenRangeRow>;
export type ForecastPollen = z.infer<typeof ForecastPollen>;
export type ForecastDay = z.infer<typeof ForecastDay>;
export type Alert = z.infer<typeof Alert>;
export type BulkColumn = z.infer<typeof BulkColumn>;
export type BulkKind = z.infer<typeof BulkKind>;
export type BulkManifest = z.infer<typeof BulkManifest>;
export type RiskDays = z.infer<typeof RiskDays>;
export type Season = z.infer<typeof Season>;
export type SeasonState = z.infer<typeof SeasonState>;
export type SeasonStatus = z.infer<typeof SeasonStatus>;
export type EarlierYear = z.infer<typeof EarlierYear>;
export type SeasonComparison = z.infer<typeof SeasonComparison>;
export type CategorySeason = z.infer<typeof CategorySeason>;
export type SeasonYearRow = z.infer<typeof SeasonYearRow>;

// Forecast verification (docs/data.md, "Forecast skill"; domain/verification/scores.ts computes them).

const score = (what: string) => num.nullable().describe(what);
const RiskLevelCounts = z.array(z.number().int().min(0)).length(RISK_LABELS.length);

export const Interval = z
  .array(num)
  .length(2)
  .nullable()
  .describe(
    'The 95% interval of the score: the 2.5% and 97.5% percentiles of the score over 1,000 moving-block bootstrap resamples of the days (blocks of 7 days); null without a score, or when too few resamples have one (score_reasons says which).',
  );

export const Verdict = named(
  'Verdict',
  'Whether a forecast did better than a reference over the same days: from the interval of the difference of their Gerrity scores (forecast minus reference) over the same resampled days (a paired bootstrap), not from whether their own intervals overlap.',
  z.object({
    reference: z
      .enum(['persistence', 'climatology'])
      .describe("persistence (yesterday's level) or climatology (the usual for the season)."),
    verdict: z
      .enum(['better', 'no better', 'worse'])
      .nullable()
      .describe(
        "better: the difference's interval lies above 0; worse: below 0; no better: it holds 0. null where either table has no Gerrity score (reason says why).",
      ),
    words: z.string().describe('The verdict in words: "better than yesterday\'s level", "no better than the usual for the season"...'),
    difference: score("The forecast's Gerrity score less the reference's, on the same days."),
    difference_interval: Interval,
    heidke_difference: score("The forecast's Heidke score less the reference's, on the same days."),
    note: z.string().nullable().describe("Where Heidke's and Gerrity's differences disagree on the sign, why: what each score counts."),
    reason: z.string().nullable().describe('Why there is no verdict.'),
  }),
);

export const SkillTable = named(
  'SkillTable',
  'How a forecast (or a reference forecast) did against what was observed: the contingency table over NAB levels and the scores made from it.',
  z
    .object({
      table: z
        .array(RiskLevelCounts)
        .length(RISK_LABELS.length)
        .describe(
          'The contingency table: table[f][o] counts the days forecast at level f and observed at level o, levels in NAB order None to Very High.',
        ),
      high: z
        .object({ hits: z.number().int().min(0), misses: z.number().int().min(0), false_alarms: z.number().int().min(0) })
        .describe('The event "High or above": days forecast and observed, observed but not forecast, forecast but not observed.'),
      heidke: score('Heidke skill score over the five levels: 1 perfect, 0 no better than chance.'),
      heidke_interval: Interval,
      gerrity: score(
        'Gerrity skill score over the ordered levels: 1 perfect, 0 for a constant or random forecast; misses by more levels cost more.',
      ),
      gerrity_interval: Interval,
      pod: score(
        'Probability of detection of High or above: the share of such observed days that were forecast (from 5 such days or more).',
      ),
      far: score(
        'False alarm ratio of High or above: the share of such forecast days that were not observed (from 5 observed such days or more).',
      ),
      spearman: score('Spearman rank correlation of forecast and observed daily means, unrounded (ties by mid-rank).'),
      rmse_log: score('Root mean square error of log10(1 + daily mean), forecast against observed, unrounded.'),
      score_reasons: z
        .record(z.string(), z.string())
        .describe(
          'Why a score or an interval is null although there are enough days: too few observed levels, days above None, or days at an observed level for a score of levels; too few High days for POD and FAR; every observed day None (no Spearman or RMSE).',
        ),
      verdicts: z
        .array(Verdict)
        .optional()
        .describe("A forecast's table only: its verdict against each reference compared on the same days."),
    })
    .describe(
      'How a forecast (or a reference forecast) did against what was observed, on the days of its comparison, with the table the scores come from. Scores are rounded to 6 decimals.',
    ),
);

export const LevelProbabilities = named(
  'LevelProbabilities',
  'The probability of each NAB level; they add up to 1.',
  z
    .object(Object.fromEntries(RISK_LABELS.map((r) => [r, z.number().min(0).max(1)])) as Record<(typeof RISK_LABELS)[number], z.ZodNumber>)
    .describe('The probability of each NAB level; they add up to 1.'),
);

export const OutlookDay = z.object({
  date: Day,
  lead: z.number().int().min(0).describe('Days after the issue day (0: the issue day).'),
  probabilities: LevelProbabilities.nullable(),
  members: z.number().int().min(0).describe('Earlier days the probabilities are counted from.'),
  anomaly_weight: z
    .number()
    .min(0)
    .max(1)
    .describe("The share of the current anomaly carried to this lead (0: climatology's spread as it is)."),
  reason: z.string().nullable().describe('Why probabilities is null: no earlier year holds a day around this one.'),
});

export const Outlook = z.object({
  category: z.string(),
  issued: Day.describe('The issue day: only days before it are read.'),
  basis: z
    .enum(['climatology', 'shifted climatology', 'climatology with anomaly', 'shifted climatology with anomaly'])
    .describe(
      "What the probabilities are: the earlier years' days around the same date; moved by this year's season timing; and scaled by how this year's recent days compare with them.",
    ),
  window_days: z.number().int().min(0).describe('Days either side of the same date in each earlier year.'),
  earlier_years: z.array(z.number().int()).describe('The years the days are taken from.'),
  shift_days: z.record(z.string(), z.number()).describe("This year's season timing against each earlier year, in days (positive: later)."),
  anomaly_log10: num
    .nullable()
    .describe('The mean of log10(1 + value) of the recent days, minus that of their climatology; null when too few recent days.'),
  anomaly_days: z.number().int().min(0).describe('Recent days the anomaly is the mean of.'),
  days: z.array(OutlookDay),
});

export const OutlookSkill = named(
  'OutlookSkill',
  "The outlook's ranked probability score against climatology's, over the same days.",
  z.object({
    days: z.number().int().min(0).describe('Days scored: each with the probabilities issued for it at this lead and an observed level.'),
    rps: score('Mean ranked probability score of the probabilities: 0 perfect, 1 all probability on the wrong end.'),
    rps_climatology: score('The same for climatology, as issued for the same days (the earlier years around the date, as they are).'),
    rpss: score('Ranked probability skill score against climatology: 1 - rps / rps_climatology; above 0 beats climatology.'),
    rpss_interval: Interval,
    beats_climatology: z
      .boolean()
      .nullable()
      .describe(
        'Whether it beat climatology beyond the uncertainty: rpss and the lower end of its 95% interval above 0; null without a score.',
      ),
    verdict: z
      .enum(['better', 'no better', 'worse'])
      .nullable()
      .describe(
        'Against climatology, from rpss_interval (RPSS is already a paired comparison: both scored on the same resampled days): better above 0, worse below 0, no better holding 0; null without an interval.',
      ),
    reason: z.string().nullable(),
  }),
);

export type SkillTable = z.infer<typeof SkillTable>;
export type Verdict = z.infer<typeof Verdict>;
export type LevelProbabilities = z.infer<typeof LevelProbabilities>;
export type OutlookDay = z.infer<typeof OutlookDay>;
export type Outlook = z.infer<typeof Outlook>;
export type OutlookSkill = z.infer<typeof OutlookSkill>;
