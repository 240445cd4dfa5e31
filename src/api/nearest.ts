/**
 * GET /api/nearest: the served cities nearest a point or a ZIP code's centroid. Answered by its
 * own function, which carries the ZIP table; its answers change only with a deploy.
 */
import * as z from 'zod';
import { NEAR_KM, nearestCities, type Point } from '../domain/geo.js';
import { cityRow } from './cities.js';
import { ApiError, invalidParameter } from './error.js';
import type { ApiContext } from './handler.js';
import { optional, type ParamSpec, withDefault } from './query.js';
import { route } from './route.js';
import { NearestResponse, NoCityNearbyError, UnknownZipError } from './schemas.js';

export const MAX_NEAREST = 10;
export const DEFAULT_MAX_KM = NEAR_KM;
export const MAX_KM = 1000;

const POINT = 'lat and lon in decimal degrees, or zip';
const EITHER = 'either zip or lat and lon, not both';
const DECIMAL = /^[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})$/;

/** A decimal number in [min, max] (or (min, max] with `minOpen`), written out: no exponent, no hex. */
const decimal = (
  expected: string,
  description: string,
  schema: z.ZodType,
  min: number,
  max: number,
  minOpen = false,
): ParamSpec<number> => ({
  expected,
  description,
  schema,
  once: true,
  read: (text) => {
    const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
    return value <= max && (minOpen ? value > min : value >= min) ? value : undefined;
  },
});

const LAT = 'a latitude in decimal degrees, from -90 to 90';
const LON = 'a longitude in decimal degrees, from -180 to 180';
const ZIP = 'a five-digit ZIP code, such as 78701 (not ZIP+4)';
const LIMIT = 'an integer from 1 to 10';
const MAX_KM_EXPECTED = 'a distance in km above 0 and at most 1000';
const ZIP_PATTERN = /^[0-9]{5}$/;

/** 404 UNKNOWN_ZIP. */
const unknownZip = (zip: string, source: string) =>
  new ApiError(
    404,
    `ZIP code ${zip} has no area in the ${source}: post-office-box and single-business ZIP codes have none, and the newest may be missing. Ask with lat and lon instead.`,
    { code: 'UNKNOWN_ZIP', zip },
    {},
    { param: 'zip' },
  );

async function origin(ctx: ApiContext, from: Point | { zip: string }): Promise<Point & { zip?: string }> {
  if (!('zip' in from)) return from;
  // Only the functions that carry the ZIP table answer ZIPs; /api/nearest is one of them.
  if (!ctx.zips) throw new ApiError(404, 'ZIP codes are looked up by /api/nearest');
  const at = await ctx.zips.centroid(from.zip);
  if (!at) throw unknownZip(from.zip, ctx.zips.source);
  return { zip: from.zip, ...at };
}

export const nearestRoute = route({
  path: '/api/nearest',
  params: {
    lat: optional(decimal(LAT, `Latitude: ${LAT}. With lon.`, z.number().min(-90).max(90), -90, 90)),
    lon: optional(decimal(LON, `Longitude: ${LON}. With lat.`, z.number().min(-180).max(180), -180, 180)),
    zip: optional({
      expected: ZIP,
      description: `Instead of lat and lon: ${ZIP}.`,
      schema: z.string().regex(ZIP_PATTERN),
      once: true,
      read: (text) => (ZIP_PATTERN.test(text) ? text : undefined),
    }),
    limit: withDefault(
      {
        expected: LIMIT,
        description: `Most cities, ${LIMIT}.`,
        schema: z.number().int().min(1).max(MAX_NEAREST).default(1),
        once: true,
        read: (text) => (/^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_NEAREST ? Number(text) : undefined),
      },
      1,
    ),
    max_km: withDefault(
      decimal(
        MAX_KM_EXPECTED,
        `The farthest a city may be: ${MAX_KM_EXPECTED}.`,
        z.number().gt(0).max(MAX_KM).default(DEFAULT_MAX_KM),
        0,
        MAX_KM,
        true,
      ),
      DEFAULT_MAX_KM,
    ),
  },
  response: NearestResponse,
  doc: {
    operationId: 'findNearestCities',
    summary: 'Cities nearest a point or a ZIP code',
    description: `The served cities within max_km of a point (lat and lon) or of a ZIP code's centroid (zip), nearest first: by distance_km (great-circle, on a sphere of radius 6371.0088 km, to 0.1 km) and then slug; fewer than limit when fewer are within max_km. ZIP codes are the Census Bureau's 2021 ZIP Code Tabulation Areas (33,791, with internal points as centroids): post-office-box and single-business ZIP codes have no area and give 404 UNKNOWN_ZIP. Each parameter may be given once; give either lat and lon or zip. Answers change only with a deploy (Netlify-CDN-Cache-Control keeps them until the next). An extension of the contract.`,
    ok: 'OK.',
    badRequest:
      "Invalid parameter: `Invalid parameter '<name>': expected ...` (malformed, out of range, repeated, lat without lon, or both a point and a ZIP code).",
    notFound: {
      description:
        'No served city within max_km (NO_CITY_NEARBY, naming the nearest and its distance), or a ZIP code with no area (UNKNOWN_ZIP).',
      schema: z.union([NoCityNearbyError, UnknownZipError]),
    },
  },
  llms: "/api/nearest?lat=..&lon=.. or ?zip=NNNNN (&limit=1..10&max_km=..150): the served cities nearest a point or a ZIP code's centroid, with distance_km; 404 NO_CITY_NEARBY (naming the nearest) or UNKNOWN_ZIP",
  // From the served city set and the ZIP table its function carries: both change only with a deploy.
  untilDeploy: true,
  handle: async ({ lat, lon, zip, limit, max_km: maxKm }, ctx) => {
    if (zip !== undefined && (lat !== undefined || lon !== undefined)) throw invalidParameter('zip', EITHER);
    if (zip === undefined && lat === undefined) throw invalidParameter('lat', POINT);
    if (zip === undefined && lon === undefined) throw invalidParameter('lon', POINT);
    const point = await origin(ctx, zip !== undefined ? { zip } : { lat: lat!, lon: lon! });
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
    return {
      body: { origin: point, max_km: maxKm, limit, cities: within.map((n) => ({ ...cityRow(n.city), distance_km: n.distance_km })) },
    };
  },
});
