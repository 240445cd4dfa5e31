/**
 * The shapes of what the service answers, as zod schemas: one definition each, from which come
 * the types the domain builds (`z.infer`), the page's client types, the OpenAPI document's
 * components (api/schemas.ts names them) and the tests' checks of every body.
 */
import * as z from 'zod';
import { RISK_LABELS } from './risk.js';
import { INTEGER_FIELDS, TEXT_FIELDS, WEATHER_FIELDS, type WeatherField, type WeatherValues } from './weather.js';

const num = z.number();
const numOrNull = num.nullable();
const Day = z.iso.date();
const DateTime = z.iso.datetime();

export const PollenRisk = z.enum(RISK_LABELS).nullable();

export const Species = z.record(z.string(), z.union([numOrNull, z.record(z.string(), numOrNull)])).nullable();

export const City = z.object({
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
});

const pollenValues = {
  tree: numOrNull,
  grass: numOrNull,
  weed: numOrNull,
};

const risks = { risk_tree: PollenRisk, risk_grass: PollenRisk, risk_weed: PollenRisk };

/** How many hours a local day holds (23, 24 or 25; fewer while its last hours are not ingested yet). */
const dayHourCount = z.number().int().min(0).max(25);

export const HourlyPollen = z.object({
  ts: DateTime,
  ...pollenValues,
  total: num,
  species: Species,
  ...risks,
  timezone: z.string().nullable(),
});

export const DailyPollen = z.object({
  date: Day,
  ...pollenValues,
  total: numOrNull,
  species: Species,
  ...risks,
  timezone: z.string().nullable(),
  peak_tree: numOrNull,
  peak_grass: numOrNull,
  peak_weed: numOrNull,
  peak_total: numOrNull,
  peak_risk_tree: PollenRisk,
  peak_risk_grass: PollenRisk,
  peak_risk_weed: PollenRisk,
  hours: dayHourCount.optional().describe('With timezone=local only: the hours the local day holds.'),
});

export const CrossCityPollen = z.object({
  city: z.string(),
  date: Day,
  count: num,
  source: z.string(),
  is_forecast: z.literal(false),
  max_weed: num,
});

const mapValues = { tree: numOrNull, grass: numOrNull, weed: numOrNull, ragweed: numOrNull };

const mapRisks = { ...risks, risk_ragweed: PollenRisk };

export const MapDay = z.object({ date: Day, ...mapValues, ...mapRisks, timezone: z.string().nullable() });

const sev = z.number().int().min(0).max(4);

export const MapFeature = z.object({
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
  }),
});

const weatherField = (f: WeatherField) =>
  TEXT_FIELDS.has(f) ? z.string() : f === 'aqi' ? z.number().int().min(1).max(5) : INTEGER_FIELDS.has(f) ? z.number().int() : num;
/** Every measured field, optional: texts as strings, the rest as numbers. */
const weatherFields = Object.fromEntries(WEATHER_FIELDS.map((f) => [f, weatherField(f).optional()])) as unknown as {
  [K in WeatherField]: z.ZodOptional<z.ZodType<NonNullable<WeatherValues[K]>>>;
};

export const WeatherRow = z.object({
  city_slug: z.string(),
  date: Day,
  ...weatherFields,
  source: z.string().optional(),
  created_at: DateTime.optional(),
});

export const PollenRangeRow = z.object({
  city: z.string(),
  periodStart: DateTime,
  ...pollenValues,
  total: numOrNull,
  timezone: z.string().nullable(),
  species: Species,
  ...risks,
});

export const ForecastPollen = z.object({
  ts: DateTime,
  ...pollenValues,
  total: numOrNull,
  species: Species,
  ...risks,
  tz: z.string().nullable(),
});

export const ForecastDay = DailyPollen.omit({ hours: true }).extend({ hours: dayHourCount, tz: z.string().regex(/^[+-]\d{2}:\d{2}$/) });

export const AlertLevel = z.enum(['Low', 'Moderate', 'High', 'Very High']);

export const AlertCategoryName = z.enum(['tree', 'grass', 'weed', 'ragweed']);

export const Alert = z.object({
  id: z
    .string()
    .regex(/^urn:uuid:[0-9a-f-]{36}$/)
    .describe(
      'A name-based UUID (version 5) of city, date, min and categories: the same in every answer, and the UID of the calendar event (without urn:uuid:).',
    ),
  date: Day.describe("The city's local date."),
  tz: z
    .string()
    .regex(/^[+-]\d{2}:\d{2}$/)
    .describe('The UTC offset at the start of the local day.'),
  hours: z.number().int().min(1).max(25).describe("How many of the day's hours the forecast holds (today: the hours left)."),
  categories: z
    .array(
      z.object({
        category: AlertCategoryName,
        risk: AlertLevel.describe("The day's worst hourly risk (ragweed: Weed.Ragweed graded with the weed thresholds)."),
        peak: numOrNull.describe("The day's highest hourly value, grains/m³."),
      }),
    )
    .min(1),
  top_species: z
    .array(z.object({ category: z.string(), name: z.string(), peak: num }))
    .max(3)
    .describe("The day's allergens with the highest hourly values, highest first."),
  summary: z.string().describe('One line for a notification.'),
});

export const BulkColumn = z.object({
  name: z.string(),
  type: z.enum(['STRING', 'TIMESTAMP', 'DATE', 'DOUBLE', 'INT32']),
  nullable: z.boolean(),
  unit: z.string().optional(),
  description: z.string(),
  provider: z
    .object({ category: z.string(), name: z.string().optional() })
    .optional()
    .describe("A species column: the provider's category, and the allergen's name where the category has several."),
});

export const BulkKind = z.enum(['pollen-hourly', 'pollen-daily', 'weather-daily']);

export const BulkManifest = z.object({
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
      month: z.string().regex(/^\d{4}-\d{2}$/),
      rows: z.number().int().min(0),
      bytes: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      inputs_sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe(
          "SHA-256 of what the month's files are made from (the writer, the columns, the month's hours, day values and weather as stored): a render reuses a month's files while it is unchanged.",
        ),
      columns: z.array(z.string()),
    }),
  ),
});

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
