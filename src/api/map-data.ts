/** GET /api/map-data: one GeoJSON point per city with data on the date (each city's own day when local). */
import { mapCollection, mapDay, mapFeature, type MapDay } from '../domain/map.js';
import { hoursOfDay, latestDay } from './day-cut.js';
import { memoCityDay } from './day-memo.js';
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
    const series = [day - 2, day - 1, day].map((d) =>
      memoCityDay(store, 'map', slug, cut, d, () => {
        const hours = hoursOfDay(store, city, cut, d);
        return { value: mapDay(d, hours), any: hours.length > 0 };
      }),
    );
    if (!series[2]!.any) return [];
    return [mapFeature(city, series.map((s) => s.value) as [MapDay, MapDay, MapDay])];
  });
  return { body: { ...mapCollection(day, features), ...cutField(cut) }, contentType: GEOJSON_TYPE };
};
