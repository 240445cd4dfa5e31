/**
 * GET /api/nearest: the served cities nearest a point or a ZIP code's centroid. Answered by its
 * own function, which carries the ZIP table; its answers change only with a deploy.
 */
import { NEAR_KM, nearestCities, type Point } from '../domain/geo.js';
import { cityRow } from './cities.js';
import { ApiError, invalidParameter } from './error.js';
import type { ApiContext, Handler } from './handler.js';
import { once } from './params.js';

export const NEAREST_EXPECTED = {
  lat: 'a latitude in decimal degrees, from -90 to 90',
  lon: 'a longitude in decimal degrees, from -180 to 180',
  point: 'lat and lon in decimal degrees, or zip',
  zip: 'a five-digit ZIP code, such as 78701 (not ZIP+4)',
  either: 'either zip or lat and lon, not both',
  limit: 'an integer from 1 to 10',
  max_km: 'a distance in km above 0 and at most 1000',
} as const;

export const MAX_NEAREST = 10;
export const DEFAULT_MAX_KM = NEAR_KM;
export const MAX_KM = 1000;

const DECIMAL = /^[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})$/;

function decimal(query: URLSearchParams, name: 'lat' | 'lon' | 'max_km', min: number, max: number, minOpen = false): number | undefined {
  const text = once(query, name, NEAREST_EXPECTED[name]);
  if (text === undefined) return undefined;
  const value = DECIMAL.test(text) ? Number(text) : NaN;
  if (!(value <= max && (minOpen ? value > min : value >= min))) throw invalidParameter(name, NEAREST_EXPECTED[name]);
  return value;
}

export interface NearestQuery {
  /** A point, or a ZIP code to look up. */
  from: Point | { zip: string };
  limit: number;
  maxKm: number;
}

/** The checked request: each parameter at most once. */
export function parseNearestQuery(query: URLSearchParams): NearestQuery {
  const lat = decimal(query, 'lat', -90, 90);
  const lon = decimal(query, 'lon', -180, 180);
  const zip = once(query, 'zip', NEAREST_EXPECTED.zip);
  if (zip !== undefined && !/^\d{5}$/.test(zip)) throw invalidParameter('zip', NEAREST_EXPECTED.zip);
  if (zip !== undefined && (lat !== undefined || lon !== undefined)) throw invalidParameter('zip', NEAREST_EXPECTED.either);
  if (zip === undefined && lat === undefined) throw invalidParameter('lat', NEAREST_EXPECTED.point);
  if (zip === undefined && lon === undefined) throw invalidParameter('lon', NEAREST_EXPECTED.point);
  const limitText = once(query, 'limit', NEAREST_EXPECTED.limit);
  const limit = limitText === undefined ? 1 : /^\d{1,2}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= MAX_NEAREST)) throw invalidParameter('limit', NEAREST_EXPECTED.limit);
  const maxKm = decimal(query, 'max_km', 0, MAX_KM, true) ?? DEFAULT_MAX_KM;
  return { from: zip !== undefined ? { zip } : { lat: lat!, lon: lon! }, limit, maxKm };
}

/** 404 UNKNOWN_ZIP. */
const unknownZip = (zip: string, source: string) =>
  new ApiError(
    404,
    `ZIP code ${zip} has no area in the ${source}: post-office-box and single-business ZIP codes have none, and the newest may be missing. Ask with lat and lon instead.`,
    { code: 'UNKNOWN_ZIP', zip },
  );

async function origin(ctx: ApiContext, from: NearestQuery['from']): Promise<Point & { zip?: string }> {
  if (!('zip' in from)) return from;
  // Only the functions that carry the ZIP table answer ZIPs; /api/nearest is one of them.
  if (!ctx.zips) throw new ApiError(404, 'ZIP codes are looked up by /api/nearest');
  const at = await ctx.zips.centroid(from.zip);
  if (!at) throw unknownZip(from.zip, ctx.zips.source);
  return { zip: from.zip, ...at };
}

export const nearest: Handler = async (query, ctx) => {
  const { from, limit, maxKm } = parseNearestQuery(query);
  const point = await origin(ctx, from);
  const { within, nearest: closest } = nearestCities(ctx.cities.list, point, limit, maxKm);
  if (within.length === 0) {
    const where = point.zip !== undefined ? `ZIP code ${point.zip} (${point.lat}, ${point.lon})` : `${point.lat}, ${point.lon}`;
    const reach =
      closest &&
      (closest.distance_km <= MAX_KM
        ? `; max_km=${Math.ceil(closest.distance_km)} includes it`
        : `, beyond the largest max_km (${MAX_KM})`);
    const beyond = closest
      ? `: the nearest is ${closest.city.name}, ${closest.city.state} (${closest.city.slug}) at ${closest.distance_km} km${reach}`
      : '';
    throw new ApiError(404, `No served city within ${maxKm} km of ${where}${beyond}`, {
      code: 'NO_CITY_NEARBY',
      max_km: maxKm,
      ...(closest ? { nearest: closest.city.slug, distance_km: closest.distance_km } : {}),
    });
  }
  return { body: { origin: point, max_km: maxKm, limit, cities: within.map((n) => ({ ...cityRow(n.city), distance_km: n.distance_km })) } };
};
