/**
 * Response schemas (zod), registered under the names the OpenAPI document uses, in the order its
 * components list them: the rows and resources the domain defines (domain/schemas.ts), and the
 * bodies that carry them. The document is generated from them, and the tests validate every
 * response body against that document.
 */
import * as z from 'zod';
import * as D from '../domain/schemas.js';

export const registry = z.registry<{ id: string; description?: string }>();
const named = <T extends z.ZodType>(id: string, description: string, schema: T): T => {
  registry.add(schema, { id, description });
  return schema;
};

const Day = z.iso.date();
const DateTime = z.iso.datetime();

export const PollenRisk = named('PollenRisk', 'NAB risk label; null when the value is missing.', D.PollenRisk);
export const Species = named(
  'Species',
  'Provider species payload: category -> allergen -> grains/m³, or category -> number (for example Others). Null when not supplied.',
  D.Species,
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
export const City = named('City', 'A supported city.', D.City);

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

/** In a body answering `timezone=local`: an extension of the contract (docs/decisions.md, "Local days"). */
const localDays = {
  timezone: z
    .literal('local')
    .optional()
    .describe(
      "Present when the request asked for timezone=local: days are each city's local calendar days (timestamps stay UTC instants).",
    ),
};
export const HourlyPollen = named('HourlyPollen', 'One hour of observations (grains/m³).', D.HourlyPollen);
export const DailyPollen = named(
  'DailyPollen',
  'Daily means (rounded; risks grade the unrounded means by the highest species mean) with the daily peaks.',
  D.DailyPollen,
);
export const CrossCityPollen = named(
  'CrossCityPollen',
  "One city's day in the cross-city view: count is the sum of the daily category maxima.",
  D.CrossCityPollen,
);
export const MapDay = named('MapDay', 'Daily maxima of one day of the three-day series.', D.MapDay);
export const MapFeature = named('MapFeature', 'One city on the map.', D.MapFeature);

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
export const WeatherRow = named('WeatherRow', 'Daily weather and air quality; unmeasured fields are omitted, never null.', D.WeatherRow);

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
  D.PollenRangeRow,
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
export const ForecastPollen = named('ForecastPollen', 'One forecast hour; the zone field is tz.', D.ForecastPollen);
export const ForecastDay = named(
  'ForecastDay',
  "One (UTC or local) day the forecast touches: the daily-row fields over its forecast hours, how many there are, and the day's UTC offset at its start.",
  D.ForecastDay,
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
export const Alert = named('Alert', "One local day of the forecast on which a category's worst hour reaches min.", D.Alert);

export const AlertsResponse = named(
  'AlertsResponse',
  "The local days the forecast's hours touch on which a watched category reaches min, with the forecast's freshness.",
  z.object({
    city: z.string(),
    name: z.string(),
    state: z.string(),
    timezone: z.string(),
    min: D.AlertLevel,
    categories: z.array(D.AlertCategoryName).min(1),
    source: z.string(),
    stale: z.boolean(),
    quotaExhausted: z.literal(true).optional(),
    simulated: z
      .literal(true)
      .optional()
      .describe(
        'Present (true) when the forecast comes from the sample provider, whose values are invented for demonstration: every calendar event and feed entry says so too. An extension.',
      ),
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
    dataAgeHours: z.number().nullable(),
    cities: z.number().int(),
    provider: z.string().nullable(),
    lastIngest: DateTime.nullable(),
    node: z.string(),
  }),
);
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
    year: z
      .number()
      .int()
      .describe(
        "The year asked for; without one, the calendar year of the latest data day, each category answering its own year under way (categories[].year: tree's runs from 1 October, so from October it is the next one).",
      ),
    timezone: z.literal('local').optional(),
    categories: z.array(CategorySeason),
    years: z.array(SeasonYearRow),
  }),
);

export const YearNotHeldError = named(
  'YearNotHeldError',
  'The city has no daily values in the year asked for (or none yet).',
  z.object({ error: z.string(), code: z.literal('YEAR_NOT_HELD'), city: z.string(), years: z.array(z.number().int()) }),
);

export const BulkManifest = named(
  'BulkManifest',
  'The bulk files (/data/bulk/index.json): each month of the served history as Parquet and gzip CSV, and the data dictionary of their columns.',
  D.BulkManifest,
);

export type ForecastResponse = z.infer<typeof ForecastResponse>;
export type SeasonResponse = z.infer<typeof SeasonResponse>;
