import { describe, expect, it } from 'vitest';
import { CityFileError, inUnitedStates, isTimeZone, parseCityFile } from '../../src/domain/city-file.js';

const tulsa = { name: 'Tulsa', slug: 'tulsa', state: 'OK', lat: 36.154, lon: -95.9928, timezone: 'America/Chicago' };
const problemsOf = (entries: unknown): string[] => {
  try {
    parseCityFile('cities.json', typeof entries === 'string' ? entries : JSON.stringify(entries));
  } catch (error) {
    if (error instanceof CityFileError) return [...error.problems];
    throw error;
  }
  return [];
};

describe('a cities file', () => {
  it('reads a valid file into cities with their climate region', () => {
    const [city] = parseCityFile('cities.json', JSON.stringify([tulsa]));
    expect(city).toEqual({ ...tulsa, region: 'south' });
  });

  it.each([
    ['text that is not JSON', '[{', /^not JSON/],
    ['an object instead of an array', { cities: [] }, /expected a JSON array/],
    ['an empty array', [], /the array is empty/],
    ['an entry that is not an object', [tulsa, 'denver'], /^entry 2: not an object/],
    ['an unknown field', [{ ...tulsa, population: 1 }], /^entry 1 \(tulsa\): unknown field population/],
    ['an empty name', [{ ...tulsa, name: ' ' }], /name must be a non-empty string/],
    ['a slug with capitals', [{ ...tulsa, slug: 'Tulsa' }], /slug must match .* \(got "Tulsa"\)/],
    ['a slug with a trailing hyphen', [{ ...tulsa, slug: 'tulsa-' }], /slug must match/],
    ['a slug given twice', [tulsa, { ...tulsa, name: 'Tulsa again' }], /^entry 2 \(tulsa\): slug tulsa repeats entry 1/],
    ['a territory for a state', [{ ...tulsa, state: 'PR' }], /state must be the USPS code .* \(got "PR"\)/],
    ['a state in lower case', [{ ...tulsa, state: 'ok' }], /state must be/],
    ['a zone abbreviation', [{ ...tulsa, timezone: 'CST' }], /timezone must be an IANA zone .* \(got "CST"\)/],
    ['a zone in lower case', [{ ...tulsa, timezone: 'america/chicago' }], /timezone must be an IANA zone/],
    ['a zone that does not exist', [{ ...tulsa, timezone: 'America/Tulsa' }], /timezone must be an IANA zone/],
    [
      'a zone half an hour from UTC',
      [{ ...tulsa, timezone: 'America/St_Johns' }],
      /timezone America\/St_Johns does not start every local day at a whole UTC hour/,
    ],
    [
      'a zone whose clocks change at midnight',
      [{ ...tulsa, timezone: 'America/Havana' }],
      /timezone America\/Havana does not start every local day at a whole UTC hour/,
    ],
    ['a slug the rendered files use', [{ ...tulsa, slug: 'by-date' }], /slug by-date is reserved/],
    ['coordinates as strings', [{ ...tulsa, lat: '36.1' }], /lat and lon must be numbers/],
    ['a latitude past the pole', [{ ...tulsa, lat: 91 }], /lat and lon must be numbers/],
    ['a point in Mexico', [{ ...tulsa, lat: 19.4326, lon: -99.1332 }], /19.4326, -99.1332 is not inside the 50 states and DC/],
    ['a point in San Juan, Puerto Rico', [{ ...tulsa, lat: 18.4655, lon: -66.1057 }], /is not inside the 50 states and DC/],
    ['latitude and longitude swapped', [{ ...tulsa, lat: -95.9928, lon: 36.154 }], /lat and lon must be numbers/],
  ])('refuses %s, naming the entry', (_what, entries, problem) => {
    const problems = problemsOf(entries);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it('names every bad entry at once, and nothing of a file with one bad entry is read', () => {
    const problems = problemsOf([
      tulsa,
      { ...tulsa, slug: 'x_y' },
      { ...tulsa, slug: 'ok-1' },
      { ...tulsa, slug: 'ok-2', timezone: 'Mars/Olympus' },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^entry 2 \(x_y\): slug must match/),
      expect.stringMatching(/^entry 4 \(ok-2\): timezone must be/),
    ]);
  });

  it.each([
    ['Honolulu', 21.3069, -157.8583, true],
    ['Anchorage', 61.2181, -149.9003, true],
    ['Washington, DC', 38.9072, -77.0369, true],
    ['Key West, on the simplified coast', 24.5551, -81.78, true],
    ['Adak, Alaska, west of 180', 51.88, -176.6581, true],
    ['Toronto', 43.6532, -79.3832, false],
    ['the middle of Lake Michigan', 43.5, -87.0, false],
    ['Guam', 13.4443, 144.7937, false],
  ])('places %s inside the 50 states and DC: %s', (_where, lat, lon, inside) => {
    expect(inUnitedStates(lat, lon)).toBe(inside);
  });

  it.each([
    ['America/Chicago', true],
    ['America/Indiana/Indianapolis', true],
    ['Pacific/Honolulu', true],
    ['UTC', false],
    ['EST5EDT', false],
    ['America/Nowhere', false],
  ])('takes %s as an IANA zone of a place: %s', (zone, valid) => {
    expect(isTimeZone(zone)).toBe(valid);
  });
});
