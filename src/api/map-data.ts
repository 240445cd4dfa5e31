/** GET /api/map-data: one GeoJSON point per city with data on the date (each city's own day when local). */
import { groupByDay } from '../domain/days.js';
import { mapCollection, mapFeature } from '../domain/map.js';
import { hoursOfDays, latestDay } from './day-cut.js';
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
    const days = groupByDay(cut, city.timezone, hoursOfDays(store, city, cut, day - 2, day));
    const today = days.get(day);
    if (!today) return [];
    return [mapFeature(city, day, [days.get(day - 2) ?? [], days.get(day - 1) ?? [], today])];
  });
  return { body: { ...mapCollection(day, features), ...cutField(cut) }, contentType: GEOJSON_TYPE };
};
