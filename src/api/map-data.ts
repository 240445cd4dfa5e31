/** GET /api/map-data: one GeoJSON point per city with data on the date. */
import { SLUGS_IN_ORDER, cityBySlug } from '../domain/cities.js';
import { mapCollection, mapFeature } from '../domain/map.js';
import { byDay } from '../domain/pollen-rows.js';
import { noData } from './error.js';
import { GEOJSON_TYPE, type Handler } from './handler.js';
import { parseMapDate } from './params.js';

export const mapData: Handler = (query, { store }) => {
  const requested = parseMapDate(query);
  const day = requested === 'latest' ? store.latestDay() : requested;
  if (day === null) throw noData();
  const features = SLUGS_IN_ORDER.flatMap((slug) => {
    const days = byDay(store.hours(slug, (day - 2) * 24, (day + 1) * 24));
    const today = days.get(day);
    if (!today) return [];
    return [mapFeature(cityBySlug(slug)!, day, [days.get(day - 2) ?? [], days.get(day - 1) ?? [], today])];
  });
  return { body: mapCollection(day, features), contentType: GEOJSON_TYPE };
};
