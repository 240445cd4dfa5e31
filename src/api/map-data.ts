/** GET /api/map-data: one GeoJSON point per city with data on the date (each city's own day when local). */
import { mapCollection, mapDay, mapFeature } from '../domain/map.js';
import { hoursOfDay, latestDay } from './day-cut.js';
import { noData } from './error.js';
import { GEOJSON_TYPE, type Handler } from './handler.js';
import { cutField, parseDayCut, parseMapDate } from './params.js';

export const mapData: Handler = (query, { store, cities }) => {
  const requested = parseMapDate(query);
  const cut = parseDayCut(query);
  const day = requested === 'latest' ? latestDay(store, cities, cut) : requested;
  if (day === null) throw noData();
  const features = cities.slugs.flatMap((slug) => {
    const city = cities.get(slug)!;
    const today = hoursOfDay(store, city, cut, day);
    if (today.length === 0) return [];
    const series = [day - 2, day - 1].map((d) => mapDay(d, hoursOfDay(store, city, cut, d)));
    return [mapFeature(city, [series[0]!, series[1]!, mapDay(day, today)])];
  });
  return { body: { ...mapCollection(day, features), ...cutField(cut) }, contentType: GEOJSON_TYPE };
};
