/**
 * GET /api/forecast-map: the map of today or tomorrow from the forecast (docs/data.md, "The
 * forecast map"). Each city's local day by the service's clock, from the forecast /api/forecast
 * serves it, as its cache holds it: no provider is asked, so a view of every city spends no call
 * budget, and a city shows what its own forecast shows (the same day values as
 * /api/forecast?aggregate=day&timezone=local). Answered by the forecast function on request, never
 * rendered: a file made by the morning's build would hold, for a city west of UTC-6, a "today"
 * that ends within hours.
 */
import * as z from 'zod';
import type { City } from '../../domain/cities.js';
import { dayString, HOUR_MS } from '../../domain/dates.js';
import { dayOfHour } from '../../domain/day-cuts.js';
import { type DayValues, mapDayOf } from '../../domain/day-values.js';
import { MAP_AGGREGATION, mapFeature } from '../../domain/map.js';
import { provenanceOfFeatures } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { DateTime, Day } from '../../domain/schemas.js';
import type { Forecast } from '../../forecast/service.js';
import { GEOJSON_TYPE } from '../contract/answer.js';
import { provenance } from '../contract/answer-fields.js';
import { param } from '../contract/query.js';
import { route } from '../contract/route.js';
import { cachedForecasts, ForecastUnavailable503, forecastDayValues } from './forecast-of.js';

const DAYS = ['today', 'tomorrow'] as const;
type DayName = (typeof DAYS)[number];

export const ForecastMapFeature = named(
  'ForecastMapFeature',
  "One city on the forecast map: the map feature's fields, from its forecast of the day.",
  D.MapFeature.extend({
    properties: D.MapFeature.shape.properties.extend({
      forecast: z.literal(true).describe('Always true: the values are forecast, not observed.'),
      date: Day.describe("The city's local date the values forecast."),
      hours: D.forecastHoursHeld,
      stale: z.boolean().describe('True when the cached forecast is older than 6 hours (the provider has not refreshed it since).'),
      fetched_at: DateTime.nullable().describe('When the provider issued the forecast.'),
    }),
  }),
);

export const ForecastMapCollection = named(
  'ForecastMapCollection',
  "Daily category maxima of each city's forecast of its local today or tomorrow: the map's shape, marked as forecast.",
  z.object({
    type: z.literal('FeatureCollection'),
    forecast: z.literal(true).describe('Always true: every feature is a forecast.'),
    day: z.enum(DAYS).describe('Echoes the day asked for.'),
    dates: z.array(Day).describe("The cities' local dates of that day at the service's clock, ascending (one or two across the US)."),
    aggregation: z.literal(MAP_AGGREGATION),
    features: z.array(ForecastMapFeature),
    ...provenance,
    timezone: z.literal('local').describe("Always local: each city's own calendar day, from local midnight to local midnight."),
  }),
);
export type ForecastMapCollection = z.infer<typeof ForecastMapCollection>;
type ForecastMapFeature = z.infer<typeof ForecastMapFeature>;

export const forecastMapRoute = route({
  path: '/api/forecast-map',
  params: {
    day: param(z.enum(DAYS).optional(), {
      description: "'today' (the default) or 'tomorrow': each city's own local day at the service's clock.",
    }),
  },
  response: ForecastMapCollection,
  doc: {
    operationId: 'getForecastMap',
    summary: 'Map of the forecast of today or tomorrow',
    description:
      'One GeoJSON point per city whose forecast the forecast cache holds, with the daily category maxima of its local today or tomorrow, marked forecast: the same day values /api/forecast?city=&aggregate=day&timezone=local gives (the panel and the map agree). No provider is asked: a city nobody asked the forecast of since its cache was emptied is left out, and one whose cached forecast is older than 6 hours says stale. series is the day and the two before it as the same forecast holds them (null values where it holds none). An extension of the contract.',
    type: GEOJSON_TYPE,
    ok: 'OK.',
    unavailable: {
      description:
        "This deployment's forecast provider lacks its key, or POLLEN_PROVIDER names another provider than the stored history's, or its cache cannot be opened.",
      schema: ForecastUnavailable503.schema,
    },
  },
  llms: "GeoJSON points of each city's forecast of its local today or tomorrow (day=), daily maxima as the map's, forecast: true, from the forecast cache",
  tool: {
    name: 'get_forecast_map',
    title: 'Forecast map of today or tomorrow',
    description:
      'GeoJSON points, one per city with a cached forecast: the daily maxima of tree, grass, weed and ragweed of its local today (default) or tomorrow (day "tomorrow"), their NAB risks and severities (0-4), marked forecast: true, each with its local date, hours held and whether the forecast is stale. The same values get_forecast gives with aggregate "day" and timezone "local".',
  },
  handle: async ({ day }, ctx) => {
    const asked: DayName = day ?? 'today';
    const cities = ctx.cities.slugs.map((slug) => ctx.cities.get(slug)!);
    const forecasts = await cachedForecasts(ctx, cities);
    const hour = Math.floor(ctx.settings.now() / HOUR_MS);
    const made = cities.flatMap((city) => {
      const forecast = forecasts.get(city.slug);
      const target = dayOfHour('local', city.timezone, hour) + (asked === 'tomorrow' ? 1 : 0);
      const feature = forecast && featureOf(city, forecast, target);
      return feature ? [{ feature, sources: [forecast.provider] }] : [];
    });
    const { from, features } = provenanceOfFeatures(made, ctx.forecast.providerIds[0] ?? null);
    const dates = [...new Set(features.map((f) => f.properties.date))].sort();
    const body: ForecastMapCollection = {
      type: 'FeatureCollection',
      forecast: true,
      day: asked,
      dates,
      aggregation: MAP_AGGREGATION,
      features,
      ...from,
      timezone: 'local',
    };
    return { body, contentType: GEOJSON_TYPE };
  },
});

/** A city's feature of the local day `target` from its forecast, if the forecast holds that day. */
function featureOf(city: City, forecast: Forecast, target: number): ForecastMapFeature | undefined {
  const byDay = new Map<number, DayValues>(forecastDayValues(forecast, city, 'local').map((v) => [v.day, v]));
  const values = byDay.get(target);
  if (!values) return undefined;
  const [a, b, c] = [target - 2, target - 1, target].map((d) => mapDayOf(d, byDay.get(d)));
  const base = mapFeature(city, [a!, b!, c!]);
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: base.geometry.coordinates },
    properties: {
      ...base.properties,
      forecast: true,
      date: dayString(target),
      hours: values.hours,
      stale: forecast.stale,
      fetched_at: forecast.fetchedAt,
    },
  };
}
