import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CitySet, cityOf, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { citiesTyped, closestSlug, likelyCity, typedNameQueries } from '../../src/domain/city-search.js';
import { ROOT } from '../helpers/cli.js';

const TOP_1000 = new CitySet(readCityFile(join(ROOT, 'cities', 'us-top-1000.json')).map(cityOf));
const label = (c: { name: string; state: string } | undefined) => c && `${c.name}, ${c.state}`;

describe('a city as a person types it', () => {
  it.each([
    ['Tulsa, OK', 'Tulsa, OK'],
    ['tulsa ok', 'Tulsa, OK'],
    ['Tulsa OK', 'Tulsa, OK'],
    ['  TULSA,ok ', 'Tulsa, OK'],
    ['tulsa, oklahoma', 'Tulsa, OK'],
    ['Tulsa Oklahoma', 'Tulsa, OK'],
    ['Oklahoma City', 'Oklahoma City, OK'],
    ['oklahoma city oklahoma', 'Oklahoma City, OK'],
    ['okc', 'Oklahoma City, OK'],
    ['New York City', 'New York, NY'],
    ['new york city, ny', 'New York, NY'],
    ['NYC', 'New York, NY'],
    ['New York', 'New York, NY'],
    ['new york ny', 'New York, NY'],
    ['New York, New York', 'New York, NY'],
    // Its whole name, though it ends in a state's: not West in New York.
    ['West New York', 'West New York, NJ'],
    ['Kansas City', 'Kansas City, KS'],
    ['kansas city mo', 'Kansas City, MO'],
    ['kansas city, missouri', 'Kansas City, MO'],
    ['Saint Louis', 'St. Louis, MO'],
    ['st paul', 'Saint Paul, MN'],
    ['Ft. Worth', 'Fort Worth, TX'],
    ['mt vernon ny', 'Mount Vernon, NY'],
    ['Washington DC', 'Washington, DC'],
    ['washington, district of columbia', 'Washington, DC'],
    ['Columbus, OH', 'Columbus, OH'],
    ['columbus ohio', 'Columbus, OH'],
    // Part of a name, as before: the first city in the list's order.
    ['wICH', 'Wichita, KS'],
    ['aus', 'Austin, TX'],
  ])('reads %j as %s', (typed, city) => {
    expect(label(citiesTyped(TOP_1000.list, typed)[0])).toBe(city);
  });

  it('gives every city of a repeated name when no state is typed, in the list order', () => {
    expect(citiesTyped(TOP_1000.list, 'columbus').map(label)).toEqual(['Columbus, GA', 'Columbus, IN', 'Columbus, OH']);
    expect(citiesTyped(TOP_1000.list, 'columbus in').map(label)).toEqual(['Columbus, IN']);
  });

  it.each([['Atlantis'], ['tusla'], ['constructor'], ['__proto__'], ['Tulsa, TX'], ['tulsa zz'], [''], [' ,. ']])(
    'finds no city for %j',
    (typed) => {
      expect(citiesTyped(DEFAULT_CITIES.list, typed)).toEqual([]);
    },
  );

  it('reads the whole text first, then a state split off its end, each also spelled otherwise', () => {
    expect(typedNameQueries('Tulsa, OK')).toEqual([{ name: 'tulsa ok' }, { name: 'tulsa', state: 'OK' }]);
    expect(typedNameQueries('New York City')).toEqual([{ name: 'new york city' }, { name: 'new york' }]);
    expect(typedNameQueries('saint louis, missouri')).toEqual([
      { name: 'saint louis missouri' },
      { name: 'st louis missouri' },
      { name: 'saint louis', state: 'MO' },
      { name: 'st louis', state: 'MO' },
    ]);
    // A state alone is no city and its state.
    expect(typedNameQueries('Oklahoma')).toEqual([{ name: 'oklahoma' }]);
    expect(typedNameQueries('ok')).toEqual([{ name: 'ok' }]);
    expect(typedNameQueries(' - ')).toEqual([]);
  });
});

describe('the city a mistyped name meant', () => {
  it.each([
    ['tusla', 'Tulsa, OK'],
    ['Tusla, OK', 'Tulsa, OK'],
    ['tusla oklahoma', 'Tulsa, OK'],
    // The state typed is wrong, the name right.
    ['Tulsa, TX', 'Tulsa, OK'],
    ['austin, ok', 'Austin, TX'],
    ['Wichta', 'Wichita, KS'],
    ['sant louis', 'St. Louis, MO'],
    ['New Yrok', 'New York, NY'],
    ['kansas-city', 'Kansas City, MO'],
    ['Atlantis', 'Atlanta, GA'],
    ['Springfield', undefined],
    ['', undefined],
  ])('reads %j as %s', (typed, city) => {
    expect(label(likelyCity(DEFAULT_CITIES.list, typed))).toBe(city);
  });

  it('takes the typed state into account when the name repeats', () => {
    expect(label(likelyCity(TOP_1000.list, 'Colombus, OH'))).toBe('Columbus, OH');
    expect(label(likelyCity(TOP_1000.list, 'colombus'))).toBe('Columbus, GA');
  });

  it('finds a slug one letter off, as an address gives it', () => {
    expect(label(likelyCity(TOP_1000.list, 'columbus-oj'))).toBe('Columbus, OH');
    expect(closestSlug(DEFAULT_CITIES.list, 'tusla')).toBe('tulsa');
  });
});
