import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cityFileText, topCities } from '../../build/cities/generate.js';
import { DEFAULT_CITIES, slugify } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';

const path = new URL('../../cities/us-top-200.json', import.meta.url).pathname;

describe('cities/us-top-200.json', () => {
  const cities = readCityFile(path);

  it('is a valid cities file of exactly 200 cities', () => {
    expect(cities).toHaveLength(200);
  });

  it('is what the generator writes from the installed GeoNames and zone data', () => {
    expect(readFileSync(path, 'utf8')).toBe(cityFileText(topCities(200)));
  });

  it('tells apart the names that repeat by state, and only those', () => {
    const count = new Map<string, number>();
    for (const c of cities) count.set(c.name, (count.get(c.name) ?? 0) + 1);
    for (const c of cities) expect(c.slug).toBe(count.get(c.name)! > 1 ? `${slugify(c.name)}-${c.state.toLowerCase()}` : slugify(c.name));
    expect(
      cities
        .filter((c) => c.name === 'Columbus')
        .map((c) => c.slug)
        .sort(),
    ).toEqual(['columbus-ga', 'columbus-oh']);
  });

  it('lists New York City once, not its boroughs, and no census-designated place', () => {
    const names = new Set(cities.map((c) => `${c.name}, ${c.state}`));
    expect(names.has('New York, NY')).toBe(true);
    for (const left of [
      'Brooklyn, NY',
      'Queens, NY',
      'Manhattan, NY',
      'The Bronx, NY',
      'Staten Island, NY',
      'Paradise, NV',
      'Metairie, LA',
      'East Los Angeles, CA',
    ])
      expect(names.has(left), left).toBe(false);
  });

  it('keeps the coordinates and zone of each built-in city it lists, so a store can switch sets', () => {
    const shared = cities.filter((c) => DEFAULT_CITIES.get(c.slug));
    expect(shared.length).toBeGreaterThan(30);
    for (const c of shared) expect(c).toEqual(DEFAULT_CITIES.get(c.slug));
  });
});
