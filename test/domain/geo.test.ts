import { join } from 'node:path';
import distance from '@turf/distance';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type City, CitySet, cityOf, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { citiesByName, NameQueryError, parseNameQuery } from '../../src/domain/city-search.js';
import { byDistance, distanceKm, nearestCities, roundKm } from '../../src/domain/geo.js';
import { ROOT } from '../helpers/cli.js';

// @turf/distance is an independent haversine on the same sphere (turf's earthRadius, 6371008.8 m).
const turfKm = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  distance([a.lon, a.lat], [b.lon, b.lat], { units: 'kilometers' });
const city = (name: string, state: string, lat: number, lon: number): City =>
  cityOf({ name, slug: name.toLowerCase().replace(/\W+/g, '-'), state, lat, lon, timezone: 'America/Chicago' });
const TOP_200 = new CitySet(readCityFile(join(ROOT, 'cities', 'us-top-200.json')).map(cityOf));

describe('great-circle distance', () => {
  it('agrees with @turf/distance to a metre for any two points, poles and the antimeridian included (2,000 pairs)', () => {
    const point = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = distanceKm(a, b);
        expect(Number.isFinite(d)).toBe(true);
        expect(Math.abs(d - turfKm(a, b))).toBeLessThan(0.001);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['Austin to Dallas', { lat: 30.2672, lon: -97.7431 }, { lat: 32.7767, lon: -96.797 }, 293.1],
    ['across the antimeridian, 0.2 degrees of longitude on the equator', { lat: 0, lon: 179.9 }, { lat: 0, lon: -179.9 }, 22.2],
    ['pole to pole', { lat: 90, lon: 0 }, { lat: -90, lon: 0 }, 20015.1],
    ['a point to itself', { lat: 45, lon: 45 }, { lat: 45, lon: 45 }, 0],
    ['antipodes', { lat: 10, lon: 20 }, { lat: -10, lon: -160 }, 20015.1],
  ])('gives %s as %s km', (_, a, b, km) => {
    expect(roundKm(distanceKm(a, b))).toBe(km);
  });
});

describe('the nearest cities', () => {
  it('finds the city a point is in, and the next ones by distance', () => {
    const { within } = nearestCities(DEFAULT_CITIES.list, { lat: 30.2672, lon: -97.7431 }, 3, 1000);
    expect(within.map((n) => [n.city.slug, n.distance_km])).toEqual([
      ['austin', 0],
      ['san-antonio', roundKm(turfKm({ lat: 30.2672, lon: -97.7431 }, DEFAULT_CITIES.get('san-antonio')!))],
      ['houston', roundKm(turfKm({ lat: 30.2672, lon: -97.7431 }, DEFAULT_CITIES.get('houston')!))],
    ]);
  });

  it('breaks ties of distance by slug', () => {
    // Two cities one degree either side of the point: exactly the same distance.
    const set = [city('Zeta', 'TX', 30, -97), city('Alpha', 'TX', 30, -99), city('Mid', 'TX', 31, -98)];
    expect(byDistance(set, { lat: 30, lon: -98 }).map((n) => n.city.slug)).toEqual(['alpha', 'zeta', 'mid']);
    // Cities at one place: by slug too.
    const same = [city('Bee', 'TX', 30, -98), city('Ant', 'TX', 30, -98)];
    expect(byDistance(same, { lat: 30, lon: -98 }).map((n) => [n.city.slug, n.distance_km])).toEqual([
      ['ant', 0],
      ['bee', 0],
    ]);
  });

  it('keeps only the cities within max_km (as rounded), and always names the nearest', () => {
    const set = [city('Near', 'TX', 30, -98), city('Far', 'TX', 32, -98)];
    const from = { lat: 30, lon: -98 };
    const far = roundKm(distanceKm(from, set[1]!));
    expect(nearestCities(set, from, 10, far).within.map((n) => n.city.slug)).toEqual(['near', 'far']);
    expect(nearestCities(set, from, 10, far - 0.1).within.map((n) => n.city.slug)).toEqual(['near']);
    expect(nearestCities(set, from, 1, 1000).within).toHaveLength(1);
    const ocean = nearestCities(set, { lat: 0, lon: -140 }, 1, 150);
    expect(ocean.within).toEqual([]);
    expect(ocean.nearest?.city.slug).toBe('near');
  });

  it('finds cities across the antimeridian, in the Aleutians', () => {
    const set = [city('Attu Station', 'AK', 52.9, 172.9), city('Adak', 'AK', 51.88, -176.66)];
    expect(nearestCities(set, { lat: 52, lon: 179.5 }, 2, 1000).within.map((n) => n.city.slug)).toEqual(['adak', 'attu-station']);
    expect(nearestCities(set, { lat: 52.9, lon: 174 }, 1, 1000).within.map((n) => n.city.slug)).toEqual(['attu-station']);
    const across = nearestCities(set, { lat: 52, lon: -179.9 }, 2, 1000).within;
    for (const n of across) expect(n.distance_km).toBe(roundKm(turfKm({ lat: 52, lon: -179.9 }, n.city)));
  });

  it('answers at the poles without failing', () => {
    for (const lat of [90, -90, 89.9999, -89.9999]) {
      for (const lon of [-180, 0, 180]) {
        const { within, nearest } = nearestCities(TOP_200.list, { lat, lon }, 10, 1000);
        expect(within).toEqual([]);
        expect(nearest!.distance_km).toBeGreaterThan(1000);
      }
    }
  });
});

describe('cities by name', () => {
  const names = (text: string, state?: string) =>
    citiesByName(TOP_200.list, parseNameQuery(text, state)).map((c) => `${c.name}, ${c.state}`);

  it.each([
    ['columbus', undefined, ['Columbus, GA', 'Columbus, OH']],
    ['Columbus, OH', undefined, ['Columbus, OH']],
    ['columbus', 'oh', ['Columbus, OH']],
    ['ST. LOUIS', undefined, ['St. Louis, MO']],
    ['st louis', undefined, ['St. Louis, MO']],
    ['Sán Jose', undefined, ['San Jose, CA']],
    ['kansas city', 'KS', ['Kansas City, KS']],
    ['Springfield', undefined, ['Springfield, MA', 'Springfield, MO']],
    ['Atlantis', undefined, []],
  ])('finds %s (state %s) as %j', (text, state, expected) => {
    expect(names(text, state)).toEqual(expected);
  });

  it('gives exact names first, then names that start with it, then names that contain it, each in the list order, at most 10', () => {
    const lower = (c: City) => c.name.toLowerCase();
    const all = TOP_200.list;
    const tiered = (q: string) => [
      ...all.filter((c) => lower(c) === q),
      ...all.filter((c) => lower(c).startsWith(q) && lower(c) !== q),
      ...all.filter((c) => lower(c).includes(q) && !lower(c).startsWith(q)),
    ];
    expect(citiesByName(all, parseNameQuery('Port'))).toEqual(tiered('port'));
    expect(names('port')).toEqual(expect.arrayContaining(['Portland, OR', 'Shreveport, LA']));
    expect(names('port').indexOf('Portland, OR')).toBeLessThan(names('port').indexOf('Shreveport, LA'));
    expect(citiesByName(all, parseNameQuery('a'))).toEqual(tiered('a').slice(0, 10));
    expect(tiered('a').length).toBeGreaterThan(10);
  });

  it.each([
    ['', undefined, 'name'],
    [' .,', undefined, 'name'],
    ['Columbus, ZZ', undefined, 'name'],
    ['Columbus', 'Ohio', 'state'],
    ['Columbus, OH', 'GA', 'state'],
  ])('refuses name %j with state %j, naming %s', (text, state, argument) => {
    expect(() => parseNameQuery(text, state)).toThrow(NameQueryError);
    try {
      parseNameQuery(text, state);
    } catch (error) {
      expect((error as NameQueryError).argument).toBe(argument);
    }
  });
});
