/**
 * GET /api/nearest: the served cities nearest a point or a ZIP code's centroid. Answered by its
 * own function, which carries the ZIP table; its answers change only with a deploy.
 */
import * as z from 'zod';
import { NEAR_KM, nearestCities, type Point } from '../../domain/geo.js';
import { named } from '../../domain/schema-names.js';
import { City } from '../../domain/schemas.js';
import { cityRow } from '../contract/answer-fields.js';
import type { ApiContext } from '../contract/context.js';
import { ApiError, errorKind, invalidParameter } from '../contract/error.js';
import { decimal, integer, param } from '../contract/query.js';
import { route } from '../contract/route.js';

export const NearestCity = named(
  'NearestCity',
  'A served city and its great-circle distance from the origin.',
  City.extend({ distance_km: z.number().min(0).describe('Great-circle distance on a sphere of radius 6371.0088 km, to 0.1 km.') }),
);
export const Origin = z.object({
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional()
    .describe('The ZIP code asked for; lat and lon are then its ZCTA centroid (Census 2021 Gazetteer).'),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
});
export const NearestResponse = named(
  'NearestResponse',
  'The served cities within max_km of the origin, nearest first (by distance_km, then slug), at most limit.',
  z.object({ origin: Origin, max_km: z.number(), limit: z.number().int().min(1).max(10), cities: z.array(NearestCity).min(1) }),
);
export const NoCityNearbyError = named(
  'NoCityNearbyError',
  'No served city within max_km: names the nearest city and its distance.',
  z.object({
    error: z.string(),
    code: z.literal('NO_CITY_NEARBY'),
    max_km: z.number(),
    nearest: z.string().optional().describe('The nearest served city (absent when none is served).'),
    distance_km: z.number().optional(),
  }),
);
export const UnknownZipError = named(
  'UnknownZipError',
  'A well-formed ZIP code with no area in the Census ZCTA table (post-office-box and single-business ZIP codes have none).',
  z.object({ error: z.string(), code: z.literal('UNKNOWN_ZIP'), zip: z.string() }),
);

const NoZipTable = errorKind(
  'NoZipTableError',
  'NO_ZIP_TABLE',
  'A ZIP code asked of a function that does not carry the ZIP table: /api/nearest does.',
);

export const MAX_NEAREST = 10;
export const DEFAULT_MAX_KM = NEAR_KM;
export const MAX_KM = 1000;

const POINT = 'lat and lon in decimal degrees, or zip';
const EITHER = 'either zip or lat and lon, not both';
const LAT = 'a latitude in decimal degrees, from -90 to 90';
const LON = 'a longitude in decimal degrees, from -180 to 180';
const ZIP = 'a five-digit ZIP code, such as 78701 (not ZIP+4)';
const MAX_KM_EXPECTED = `a distance in km above 0 and at most ${MAX_KM}`;
const ZIP_PATTERN = /^[0-9]{5}$/;

/** 404 UNKNOWN_ZIP. */
const unknownZip = (zip: string, source: string): ApiError<z.infer<typeof UnknownZipError>> =>
  new ApiError(
    404,
    {
      error: `ZIP code ${zip} has no area in the ${source}: post-office-box and single-business ZIP codes have none, and the newest may be missing. Ask with lat and lon instead.`,
      code: 'UNKNOWN_ZIP',
      zip,
    },
    { at: { param: 'zip' }, schema: UnknownZipError },
  );

async function origin(ctx: ApiContext, from: Point | { zip: string }): Promise<Point & { zip?: string }> {
  if (!('zip' in from)) return from;
  // Only the functions that carry the ZIP table answer ZIPs; /api/nearest is one of them.
  if (!ctx.zips) throw NoZipTable.error(404, 'ZIP codes are looked up by /api/nearest');
  const at = await ctx.zips.centroid(from.zip);
  if (!at) throw unknownZip(from.zip, ctx.zips.source);
  return { zip: from.zip, ...at };
}

export const nearestRoute = route({
  path: '/api/nearest',
  params: {
    lat: param(decimal(z.number().min(-90).max(90)).optional(), { expected: LAT, description: `Latitude: ${LAT}. With lon.`, once: true }),
    lon: param(decimal(z.number().min(-180).max(180)).optional(), {
      expected: LON,
      description: `Longitude: ${LON}. With lat.`,
      once: true,
    }),
    zip: param(z.string().regex(ZIP_PATTERN).optional(), {
      expected: ZIP,
      shape: 'NNNNN',
      listed: false,
      description: `Instead of lat and lon: ${ZIP}.`,
      once: true,
    }),
    limit: param(integer(1, MAX_NEAREST).default(1), { description: `Most cities, 1 to ${MAX_NEAREST}.`, once: true }),
    max_km: param(decimal(z.number().gt(0).max(MAX_KM)).default(DEFAULT_MAX_KM), {
      expected: MAX_KM_EXPECTED,
      shape: `0..${MAX_KM}`,
      description: `The farthest a city may be: ${MAX_KM_EXPECTED}.`,
      once: true,
    }),
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
        'No served city within max_km (NO_CITY_NEARBY, naming the nearest and its distance), or a ZIP code with no area (UNKNOWN_ZIP); a ZIP code asked of a function without the ZIP table (NO_ZIP_TABLE).',
      schema: z.union([NoCityNearbyError, UnknownZipError, NoZipTable.schema]),
    },
  },
  llms: `the served cities nearest a point, or with zip=NNNNN instead of lat and lon a ZIP code's centroid, with distance_km; 404 NO_CITY_NEARBY (naming the nearest) or UNKNOWN_ZIP`,
  // From the served city set and the ZIP table its function carries: both change only with a deploy.
  untilDeploy: true,
  siteFileOnly: true,
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
      throw new ApiError<z.infer<typeof NoCityNearbyError>>(
        404,
        {
          error: `No served city within ${maxKm} km of ${where}${beyond}`,
          code: 'NO_CITY_NEARBY',
          max_km: maxKm,
          ...(closest ? { nearest: closest.city.slug, distance_km: closest.distance_km } : {}),
        },
        { schema: NoCityNearbyError },
      );
    }
    return {
      body: { origin: point, max_km: maxKm, limit, cities: within.map((n) => ({ ...cityRow(n.city), distance_km: n.distance_km })) },
    };
  },
});
