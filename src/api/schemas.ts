/**
 * Response schemas (zod), registered under the names the OpenAPI document uses. The document is
 * generated from them, and the tests validate every response body against that document.
 */
import * as z from 'zod';
import { RISK_LABELS } from '../domain/risk.js';
import { WEATHER_FIELDS } from '../domain/weather.js';

export const registry = z.registry<{ id: string; description?: string }>();
const named = <T extends z.ZodType>(id: string, description: string, schema: T): T => {
  registry.add(schema, { id, description });
  return schema;
};

const num = z.number();
const numOrNull = num.nullable();
const Day = z.iso.date();
const DateTime = z.iso.datetime();

export const PollenRisk = named('PollenRisk', 'NAB risk label; null when the value is missing.', z.enum(RISK_LABELS).nullable());
export const Species = named(
  'Species',
  'Provider species payload: category -> allergen -> grains/m³, or category -> number (for example Others). Null when not supplied.',
  z.record(z.string(), z.union([numOrNull, z.record(z.string(), numOrNull)])).nullable(),
);
export const ErrorBody = named('Error', 'An error.', z.object({ error: z.string() }));
export const UnsupportedCityError = named(
  'UnsupportedCityError',
  'The city slug is not supported.',
  z.object({
    error: z.string(),
    code: z.literal('UNSUPPORTED_CITY'),
    city: z.string(),
    supportedCities: z.literal('/api/cities'),
    mcpTool: z.literal('list_cities'),
  }),
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
      .describe("The USPS code of the city's state, or DC: tells apart cities that share a name. An extension of the spec."),
    lat: z
      .number()
      .min(-90)
      .max(90)
      .describe('Latitude of the point the providers are asked for, WGS84 decimal degrees. An extension of the spec.'),
    lon: z.number().min(-180).max(180).describe('Longitude, WGS84 decimal degrees. An extension of the spec.'),
    timezone: z.string().describe('IANA time zone, whose days timezone=local cuts. An extension of the spec.'),
  }),
);

export const NearestCity = named(
  'NearestCity',
  'A served city and its great-circle distance from the origin.',
  City.extend({ distance_km: z.number().min(0).describe('Great-circle distance on a sphere of radius 6371.0088 km, to 0.1 km.') }),
);
const Origin = z.object({
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional()
    .describe('The ZIP code asked for; lat and lon are then its ZCTA centroid (Census 2021 Gazetteer).'),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
});
export const NearestResponse = named(
  'NearestResponse',
  'The served cities within max_km of the origin, nearest first (by distance_km, then slug), at most limit.',
  z.object({ origin: Origin, max_km: z.number(), limit: z.number().int().min(1).max(10), cities: z.array(NearestCity).min(1) }),
);
export const NoCityNearbyError = named(
  'NoCityNearbyError',
  'No served city within max_km: names the nearest city and its distance.',
  z.object({ error: z.string(), code: z.literal('NO_CITY_NEARBY'), max_km: z.number(), nearest: z.string(), distance_km: z.number() }),
);
export const UnknownZipError = named(
  'UnknownZipError',
  'A well-formed ZIP code with no area in the Census ZCTA table (post-office-box and single-business ZIP codes have none).',
  z.object({ error: z.string(), code: z.literal('UNKNOWN_ZIP'), zip: z.string() }),
);
/** MCP find_city: by name (no distances), or by point or ZIP code (the rows of /api/nearest). */
export const FindCityResult = z.object({
  origin: Origin.optional(),
  max_km: z.number().optional(),
  limit: z.number().optional(),
  cities: z.array(City.extend({ distance_km: z.number().optional() })),
  hint: z.string().optional(),
});

const pollenValues = {
  tree: numOrNull,
  grass: numOrNull,
  weed: numOrNull,
};
const risks = { risk_tree: PollenRisk, risk_grass: PollenRisk, risk_weed: PollenRisk };
/** In a body answering `timezone=local`: an extension of the contract (docs/decisions.md, "Local days"). */
const localDays = {
  timezone: z
    .literal('local')
    .optional()
    .describe(
      "Present when the request asked for timezone=local: days are each city's local calendar days (timestamps stay UTC instants).",
    ),
};
/** How many hours a local day holds (23, 24 or 25; fewer while its last hours are not ingested yet). */
const dayHourCount = z.number().int().min(0).max(25);

export const HourlyPollen = named(
  'HourlyPollen',
  'One hour of observations (grains/m³).',
  z.object({ ts: DateTime, ...pollenValues, total: num, species: Species, ...risks, timezone: z.string().nullable() }),
);
export const DailyPollen = named(
  'DailyPollen',
  'Daily means (rounded; risks grade the unrounded means by the highest species mean) with the daily peaks.',
  z.object({
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
  }),
);
export const CrossCityPollen = named(
  'CrossCityPollen',
  "One city's day in the cross-city view: count is the sum of the daily category maxima.",
  z.object({ city: z.string(), date: Day, count: num, source: z.string(), is_forecast: z.literal(false), max_weed: num }),
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
    }),
  }),
);
export const MapCollection = named(
  'MapFeatureCollection',
  'Daily category maxima of every city with data on the resolved date.',
  z.object({
    type: z.literal('FeatureCollection'),
    date: Day,
    aggregation: z.literal('daily-category-maxima'),
    features: z.array(MapFeature),
    ...localDays,
  }),
);

const weatherField = (f: (typeof WEATHER_FIELDS)[number]) =>
  ['tz', 'timezone', 'weather_main', 'weather_desc'].includes(f)
    ? z.string()
    : f === 'aqi'
      ? z.number().int().min(1).max(5)
      : ['humidity', 'pressure_hpa', 'wind_deg', 'clouds_pct'].includes(f)
        ? z.number().int()
        : num;
export const WeatherRow = named(
  'WeatherRow',
  'Daily weather and air quality; unmeasured fields are omitted, never null.',
  z.object({
    city_slug: z.string(),
    date: Day,
    ...Object.fromEntries(WEATHER_FIELDS.map((f) => [f, weatherField(f).optional()])),
    source: z.string().optional(),
    created_at: DateTime.optional(),
  }),
);

export const CitiesResponse = named('CitiesResponse', 'Every supported city, by name.', z.object({ cities: z.array(City) }));
export const AvailableDatesResponse = named(
  'AvailableDatesResponse',
  'UTC dates with pollen observations, newest first.',
  z.object({ dates: z.array(Day) }),
);
export const LatestDateResponse = named('LatestDateResponse', 'The latest UTC observation date.', z.object({ date: Day }));
export const PollenCityDateResponse = named(
  'PollenCityDateResponse',
  'Hourly observations of one city on one UTC date.',
  z.object({ city: z.string(), date: Day, ...localDays, rows: z.array(HourlyPollen) }),
);
export const PollenCityResponse = named(
  'PollenCityResponse',
  'Daily rows of one city, newest first, up to 720.',
  z.object({ city: z.string(), ...localDays, rows: z.array(DailyPollen) }),
);
export const PollenDateResponse = named(
  'PollenDateResponse',
  'One row per city with data on the date, by slug.',
  z.object({ date: Day, ...localDays, rows: z.array(CrossCityPollen) }),
);
export const WeatherResponse = named(
  'WeatherResponse',
  'Weather rows: a city (newest first, up to 365), a city-day, or the compact cross-city snapshot of a date.',
  z.object({ city: z.string().optional(), date: Day.optional(), rows: z.array(WeatherRow) }),
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
  }),
);
export const PollenRangeResponse = named(
  'PollenRangeResponse',
  "Rows ordered by city slug, then periodStart; truncated is true when limit cut them, or the body would have passed 20,000,000 bytes (before compression, so the same rows in every encoding), and next is then the request that continues after the last row. from and to are UTC instants, except that with timezone=local a date-only from or to is echoed as given (it means each city's local midnight).",
  z.object({
    from: z.union([DateTime, Day]),
    to: z.union([DateTime, Day]),
    cities: z.array(z.string()),
    aggregate: z.enum(['none', 'day']),
    ...localDays,
    truncated: z.boolean(),
    rows: z.array(PollenRangeRow),
    next: z.string().optional().describe("Only when truncated: this request again with after set to the last row's 'city,periodStart'."),
  }),
);
export const ForecastPollen = named(
  'ForecastPollen',
  'One forecast hour; the zone field is tz.',
  z.object({ ts: DateTime, ...pollenValues, total: numOrNull, species: Species, ...risks, tz: z.string().nullable() }),
);
export const ForecastDay = named(
  'ForecastDay',
  "One (UTC or local) day the forecast touches: the daily-row fields over its forecast hours, how many there are, and the day's UTC offset at its start.",
  DailyPollen.omit({ hours: true }).extend({ hours: dayHourCount, tz: z.string().regex(/^[+-]\d{2}:\d{2}$/) }),
);
export const ForecastResponse = named(
  'ForecastResponse',
  'Hourly rows from the current UTC hour, up to 48, with their freshness; with aggregate=day, one row per day they touch.',
  z.object({
    city: z.string(),
    source: z.string(),
    stale: z.boolean(),
    quotaExhausted: z.literal(true).optional(),
    fetchedAt: DateTime.nullable(),
    aggregate: z.enum(['none', 'day']).optional().describe('Echoes the aggregate parameter when given.'),
    ...localDays,
    rows: z.union([z.array(ForecastPollen), z.array(ForecastDay)]),
  }),
);

const AlertLevel = z.enum(['Low', 'Moderate', 'High', 'Very High']);
const AlertCategoryName = z.enum(['tree', 'grass', 'weed', 'ragweed']);
export const Alert = named(
  'Alert',
  "One local day of the forecast on which a category's worst hour reaches min.",
  z.object({
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
  }),
);
export const AlertsResponse = named(
  'AlertsResponse',
  "The local days the forecast's hours touch on which a watched category reaches min, with the forecast's freshness.",
  z.object({
    city: z.string(),
    name: z.string(),
    state: z.string(),
    timezone: z.string(),
    min: AlertLevel,
    categories: z.array(AlertCategoryName).min(1),
    source: z.string(),
    stale: z.boolean(),
    quotaExhausted: z.literal(true).optional(),
    fetchedAt: DateTime.nullable(),
    dates: z.array(Day).describe("The local dates the forecast's hours touch, each checked."),
    alerts: z.array(Alert),
  }),
);

export const HealthResponse = named(
  'HealthResponse',
  'How fresh the data is. Dates and numbers are null for an empty store.',
  z.object({
    status: z.enum(['ok', 'stale']),
    latestDate: Day.nullable(),
    latestHour: DateTime.nullable(),
    dataAgeHours: num.nullable(),
    cities: z.number().int(),
    provider: z.string().nullable(),
    lastIngest: DateTime.nullable(),
    node: z.string(),
  }),
);

const BulkColumn = z.object({
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
const BulkKind = z.enum(['pollen-hourly', 'pollen-daily', 'weather-daily']);
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
        month: z.string().regex(/^\d{4}-\d{2}$/),
        rows: z.number().int().min(0),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        columns: z.array(z.string()),
      }),
    ),
  }),
);
