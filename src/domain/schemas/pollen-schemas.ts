/** Pollen rows: a city's hours and days, a day across cities, the map's day and features, and a range's rows. */
import * as z from 'zod';
import { named } from '../schema-names.js';
import {
  DateTime,
  Day,
  dailyRisks,
  dayHourCount,
  num,
  numOrNull,
  PollenRisk,
  pollenValues,
  risks,
  rowProvenance,
  Species,
} from './common-schemas.js';

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
export type HourlyPollen = z.infer<typeof HourlyPollen>;

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
export type DailyPollen = z.infer<typeof DailyPollen>;

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
export type CrossCityPollen = z.infer<typeof CrossCityPollen>;

const mapValues = { tree: numOrNull, grass: numOrNull, weed: numOrNull, ragweed: numOrNull };

const mapRisks = { ...risks, risk_ragweed: PollenRisk };

export const MapDay = named(
  'MapDay',
  'Daily maxima of one day of the three-day series.',
  z.object({ date: Day, ...mapValues, ...mapRisks, timezone: z.string().nullable() }),
);
export type MapDay = z.infer<typeof MapDay>;

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
export type MapFeature = z.infer<typeof MapFeature>;

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
export type PollenRangeRow = z.infer<typeof PollenRangeRow>;
