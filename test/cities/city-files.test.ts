import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cityFileText, topCities } from '../../build/cities/generate.js';
import { DEFAULT_CITIES, slugify } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';

describe.each([200, 1000])('cities/us-top-%i.json', (count) => {
  const path = new URL(`../../cities/us-top-${count}.json`, import.meta.url).pathname;
  const cities = readCityFile(path);

  it(`is a valid cities file of exactly ${count} cities`, () => {
    expect(cities).toHaveLength(count);
  });

  it('is what the generator writes from the installed GeoNames and zone data and the Census list', { timeout: 60_000 }, () => {
    expect(readFileSync(path, 'utf8')).toBe(cityFileText(topCities(count)));
  });

  it('tells apart the names that repeat by state, and only those', () => {
    const named = new Map<string, number>();
    for (const c of cities) named.set(c.name, (named.get(c.name) ?? 0) + 1);
    for (const c of cities) expect(c.slug).toBe(named.get(c.name)! > 1 ? `${slugify(c.name)}-${c.state.toLowerCase()}` : slugify(c.name));
    expect(
      cities
        .filter((c) => c.name === 'Columbus')
        .map((c) => c.slug)
        .sort(),
    ).toEqual(count === 200 ? ['columbus-ga', 'columbus-oh'] : ['columbus-ga', 'columbus-in', 'columbus-oh']);
  });

  it('lists New York City once, not its boroughs or neighbourhoods, no census-designated place and no place twice', () => {
    const names = new Set(cities.map((c) => `${c.name}, ${c.state}`));
    expect(names.has('New York, NY')).toBe(true);
    for (const left of [
      'Brooklyn, NY',
      'Queens, NY',
      'Manhattan, NY',
      'The Bronx, NY',
      'Staten Island, NY',
      'Elmhurst, NY',
      'Corona, NY',
      'Paradise, NV',
      'Metairie, LA',
      'East Los Angeles, CA',
      'Arlington, VA',
      'The Woodlands, TX',
      'Highlands Ranch, CO',
      'Columbia, MD',
      'Carol City, FL',
      'City of Sammamish, WA',
      'City of Milford (balance), CT',
    ])
      expect(names.has(left), left).toBe(false);
    // Cities consolidated with their county, which the Census list names otherwise, are in.
    for (const kept of ['Indianapolis, IN', 'Nashville, TN', 'Louisville, KY', 'Honolulu, HI', 'Anchorage, AK'])
      expect(names.has(kept), kept).toBe(true);
    if (count === 1000)
      for (const kept of ['Sammamish, WA', 'Milford, CT', 'Goodyear, AZ', 'Avondale, AZ', 'Weymouth, MA'])
        expect(names.has(kept), kept).toBe(true);
  });

  it('keeps the coordinates and zone of each built-in city it lists, so a store can switch sets', () => {
    const shared = cities.filter((c) => DEFAULT_CITIES.get(c.slug));
    expect(shared.length).toBeGreaterThan(30);
    for (const c of shared) expect(c).toEqual(DEFAULT_CITIES.get(c.slug));
  });
});
