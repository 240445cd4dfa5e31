/** GET /api/map-data: one GeoJSON point per city with data on the date (each city's own day when local). */
import * as z from 'zod';
import { mapDayOf } from '../../domain/day-values.js';
import { mapCollection, mapFeature } from '../../domain/map.js';
import { provenanceOfFeatures } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { Day } from '../../domain/schemas.js';
import { GEOJSON_TYPE } from '../contract/answer.js';
import { localDays, provenance } from '../contract/answer-fields.js';
import { NoData, noData } from '../contract/error.js';
import { NO_DATA } from '../contract/not-found.js';
import { cutField, dateParam, timezoneParam } from '../contract/params.js';
import { route } from '../contract/route.js';
import { DATA_PREFIX, ifPollen, LOCAL } from '../contract/static-forms.js';
import { latestDay } from './day-cut.js';

export const MapCollection = named(
  'MapFeatureCollection',
  'Daily category maxima of every city with data on the resolved date.',
  z.object({
    type: z.literal('FeatureCollection'),
    date: Day,
    aggregation: z.literal('daily-category-maxima'),
    features: z.array(D.MapFeature),
    // Foreign members of the FeatureCollection (RFC 7946, section 6.1).
    ...provenance,
    ...localDays,
  }),
);

/** `date`: a day, or `latest` (the default). */
const mapDate = dateParam((expected) => `A date or 'latest' (${expected}).`, { latest: true });

export const mapDataRoute = route({
  path: '/api/map-data',
  params: {
    date: mapDate,
    timezone: timezoneParam(
      "each city's own local day, and the series in local days; latest is the newest local day complete for every city.",
    ),
  },
  response: MapCollection,
  doc: {
    operationId: 'getPollenMap',
    summary: 'Map of daily maxima',
    description:
      'One GeoJSON point per city with data on the date; series holds that day and the two before it, ascending (null values for a day without data). A date without data gives an empty features array.',
    type: GEOJSON_TYPE,
    notFound: { description: NO_DATA, schema: NoData.schema },
  },
  llms: 'GeoJSON points with daily maxima and a 3-day series',
  tool: {
    name: 'get_pollen_map',
    title: 'Map of every city on a date',
    description:
      'GeoJSON points, one per city with data: daily maxima of tree, grass, weed and ragweed, their NAB risks and severities (0-4), and a 3-day series. date is YYYY-MM-DD or "latest" (default); with timezone "local" each city\'s own local day.',
  },
  forms: [
    { file: `${DATA_PREFIX}/map-data/{date}.json`, unit: 'date', enumerate: ifPollen },
    { file: `${DATA_PREFIX}/map-data-local/{date}.json`, fixed: LOCAL, unit: 'date', enumerate: ifPollen },
  ],
  handle: ({ date: requested, timezone: cut }, { store, cities }) => {
    const day = requested === 'latest' ? latestDay(store, cities, cut) : requested;
    if (day === null) throw noData();
    const values = store.values.across(cut, day - 2, day);
    const made = cities.slugs.flatMap((slug) => {
      const days = values.get(slug);
      if (!days?.has(day)) return [];
      const [a, b, c] = [day - 2, day - 1, day].map((d) => mapDayOf(d, days.get(d)));
      const sources = [day - 2, day - 1, day].flatMap((d) => days.get(d)?.sources ?? []);
      return [{ feature: mapFeature(cities.get(slug)!, [a!, b!, c!]), sources }];
    });
    // A feature's values are its three days': when the map mixes providers, each feature names its own.
    const { from, features } = provenanceOfFeatures(made, store.pollen.latestSource());
    const body = { ...mapCollection(day, features), ...from, ...cutField(cut) };
    return { body, contentType: GEOJSON_TYPE };
  },
});
