/** Cross-city rows and map features: daily category maxima (docs/decisions.md, "Cross-city rows and the map"). */
import { featureCollection, point } from '@turf/helpers';
import type { Feature, FeatureCollection, Point } from 'geojson';
import type { City } from './cities.js';
import { dayString } from './dates.js';
import type { DayMaxima } from './pollen-rows.js';
import type { MapDay, MapFeature } from './schemas.js';
import { severity } from './species/risk.js';

export const MAP_AGGREGATION = 'daily-category-maxima';

export type { MapDay } from './schemas.js';

/** A map feature's properties. */
export type MapProperties = MapFeature['properties'];

export type MapCollection = FeatureCollection<Point, MapProperties> & { date: string; aggregation: typeof MAP_AGGREGATION };

/** Sum of the three category maxima, nulls counting as 0. */
const countOf = (m: DayMaxima): number => (m.tree ?? 0) + (m.grass ?? 0) + (m.weed ?? 0);

/**
 * The map feature of a city; `series` is its `mapDay` of the day and of the two days before it.
 * Its risks are the day's worst hour, so the map never shows a day milder than it was.
 */
export function mapFeature(city: City, series: readonly [MapDay, MapDay, MapDay]): Feature<Point, MapProperties> {
  const today = series[2];
  const sev = {
    sev_tree: severity(today.risk_tree),
    sev_grass: severity(today.risk_grass),
    sev_weed: severity(today.risk_weed),
    sev_ragweed: severity(today.risk_ragweed),
  };
  return point([city.lon, city.lat], {
    city: city.slug,
    value_basis: MAP_AGGREGATION,
    count: countOf(today),
    tree: today.tree,
    grass: today.grass,
    weed: today.weed,
    ragweed: today.ragweed,
    max_weed: today.weed ?? 0,
    risk_tree: today.risk_tree,
    risk_grass: today.risk_grass,
    risk_weed: today.risk_weed,
    risk_ragweed: today.risk_ragweed,
    ...sev,
    sev_total: Math.max(...Object.values(sev)),
    timezone: today.timezone ?? city.timezone,
    series: [...series],
  });
}

/** The map's FeatureCollection for a resolved date. */
export function mapCollection(day: number, features: Feature<Point, MapProperties>[]): MapCollection {
  return { ...featureCollection(features), date: dayString(day), aggregation: MAP_AGGREGATION };
}
