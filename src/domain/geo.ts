/**
 * Distances on the Earth and the cities nearest a point: one implementation for /api/nearest,
 * MCP find_city and the landing page's "Use my location" (which runs it in the browser).
 */

/** The IUGG mean Earth radius R1, in km (Moritz, "Geodetic Reference System 1980"). */
export const EARTH_RADIUS_KM = 6371.0088;

export interface Point {
  readonly lat: number;
  readonly lon: number;
}

/** How far a city may be and still be "near": /api/nearest's default max_km, and the page's. */
export const NEAR_KM = 150;

const RAD = Math.PI / 180;

/**
 * Great-circle distance on a sphere of EARTH_RADIUS_KM, by the haversine formula, which stays
 * accurate for short distances; the clamp keeps rounding at antipodes from reaching asin(>1).
 */
export function distanceKm(a: Point, b: Point): number {
  const h =
    Math.sin(((b.lat - a.lat) * RAD) / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(((b.lon - a.lon) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as answers give it: to 0.1 km. */
export const roundKm = (km: number): number => Math.round(km * 10) / 10;

export interface Near<C> {
  city: C;
  /** To 0.1 km. */
  distance_km: number;
}

/**
 * Every city by its distance from `from` as answers give it (0.1 km), nearest first, then by
 * slug: the order anyone can check from the answer itself.
 */
export function byDistance<C extends Point & { readonly slug: string }>(cities: readonly C[], from: Point): Near<C>[] {
  return cities
    .map((city) => ({ city, distance_km: roundKm(distanceKm(from, city)) }))
    .sort((a, b) => a.distance_km - b.distance_km || (a.city.slug < b.city.slug ? -1 : a.city.slug > b.city.slug ? 1 : 0));
}

export interface Nearest<C> {
  /** The cities within `maxKm`, nearest first, at most `limit`. */
  within: Near<C>[];
  /** The nearest city of all, within reach or not; undefined only when there are no cities. */
  nearest: Near<C> | undefined;
}

/** The cities within `maxKm` (as rounded) of a point, at most `limit`. */
export function nearestCities<C extends Point & { readonly slug: string }>(
  cities: readonly C[],
  from: Point,
  limit: number,
  maxKm: number,
): Nearest<C> {
  const all = byDistance(cities, from);
  return { within: all.filter((n) => n.distance_km <= maxKm).slice(0, limit), nearest: all[0] };
}

/** ZIP codes' centroids, where a function carries the table. */
export interface ZipTable {
  /** What the table is, for answers and errors: "Census 2021 ZCTA". */
  readonly source: string;
  /** The centroid of a five-digit ZIP code's area, or undefined when it has none in the table. */
  centroid(zip: string): Promise<Point | undefined>;
}
