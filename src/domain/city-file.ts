/**
 * A deployer's cities file: a JSON array of `{name, slug, state, lat, lon, timezone}`. Every
 * entry is checked before anything is written, and every bad entry is named.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoBounds, geoContains } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { type City, type CityEntry, cityOf, STATE_REGIONS } from './cities.js';
import { hasLocalMidnights } from './day-cuts.js';

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Slugs that name folders of the rendered files (data/pollen/by-date/...). */
const RESERVED_SLUGS = new Set(['by-date']);

/** The file could not be read as a city set; `problems` names every bad entry. */
export class CityFileError extends Error {
  constructor(
    readonly path: string,
    readonly problems: readonly string[],
  ) {
    super(`${path}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/**
 * True for an IANA zone name (Area/Location, written as the database writes it: `America/Chicago`,
 * not `america/chicago` or `CST`) that the runtime's time zone data knows.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Z][A-Za-z_-]*(\/[A-Z0-9][A-Za-z0-9_+-]*)+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// us-atlas: Census boundaries, simplified and in longitude/latitude; FIPS 60, 66, 69, 72 and 78
// are territories, not states.
const TERRITORIES = new Set(['60', '66', '69', '72', '78']);
let states: Array<{ shape: Feature<Polygon | MultiPolygon>; box: [[number, number], [number, number]] }> | undefined;
const statesOnce = () => {
  if (!states) {
    const require = createRequire(import.meta.url);
    const topology = JSON.parse(readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Topology<{
      states: GeometryCollection;
    }>;
    const collection = feature(topology, topology.objects.states) as unknown as { features: Array<Feature<Polygon | MultiPolygon>> };
    states = collection.features.filter((f) => !TERRITORIES.has(String(f.id))).map((shape) => ({ shape, box: geoBounds(shape) }));
  }
  return states;
};
const inBox = ([lon, lat]: [number, number], [[x0, y0], [x1, y1]]: [[number, number], [number, number]]) =>
  lat >= y0 && lat <= y1 && (x0 <= x1 ? lon >= x0 && lon <= x1 : lon >= x0 || lon <= x1); // Alaska's box wraps

/**
 * Whether a point lies in one of the 50 states or DC. The outlines are simplified, so a point on
 * the coast counts when it or a point about 5 km around it is inside.
 */
export function inUnitedStates(lat: number, lon: number): boolean {
  const d = 0.045;
  const points: Array<[number, number]> = [
    [lon, lat],
    [lon + d, lat],
    [lon - d, lat],
    [lon, lat + d],
    [lon, lat - d],
    [lon + d, lat + d],
    [lon - d, lat - d],
    [lon + d, lat - d],
    [lon - d, lat + d],
  ];
  return points.some((p) => statesOnce().some((s) => inBox(p, s.box) && geoContains(s.shape, p)));
}

/** The cities of a file's text, or a CityFileError naming every bad entry. */
export function parseCityFile(path: string, text: string): City[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CityFileError(path, [`not JSON: ${(error as Error).message}`]);
  }
  if (!Array.isArray(raw)) throw new CityFileError(path, ['expected a JSON array of {name, slug, state, lat, lon, timezone}']);
  if (raw.length === 0) throw new CityFileError(path, ['the array is empty: a deployment serves at least one city']);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const cities: City[] = [];
  raw.forEach((entry: unknown, i) => {
    const at = `entry ${i + 1}${typeof (entry as CityEntry)?.slug === 'string' ? ` (${(entry as CityEntry).slug})` : ''}`;
    const wrong: string[] = [];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: not an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    const extra = Object.keys(e).filter((k) => !['name', 'slug', 'state', 'lat', 'lon', 'timezone'].includes(k));
    if (extra.length > 0) wrong.push(`unknown field${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`);
    if (typeof e.name !== 'string' || e.name.trim() === '') wrong.push('name must be a non-empty string');
    if (typeof e.slug !== 'string' || !SLUG_PATTERN.test(e.slug))
      wrong.push(`slug must match ${SLUG_PATTERN.source} (got ${JSON.stringify(e.slug)})`);
    else if (RESERVED_SLUGS.has(e.slug)) wrong.push(`slug ${e.slug} is reserved (the API's files use it)`);
    else if (seen.has(e.slug)) wrong.push(`slug ${e.slug} repeats entry ${seen.get(e.slug)! + 1}`);
    else seen.set(e.slug, i);
    if (typeof e.state !== 'string' || !STATE_REGIONS[e.state])
      wrong.push(`state must be the USPS code of one of the 50 states or DC (got ${JSON.stringify(e.state)})`);
    if (typeof e.timezone !== 'string' || !isTimeZone(e.timezone))
      wrong.push(`timezone must be an IANA zone such as America/Chicago (got ${JSON.stringify(e.timezone)})`);
    // Local days start at local midnight, which must exist and begin a stored (UTC) hour.
    else if (!hasLocalMidnights(e.timezone))
      wrong.push(
        `timezone ${e.timezone} does not start every local day at a whole UTC hour, as every US zone does (whole hours from UTC, changes at 02:00)`,
      );
    const lat = e.lat;
    const lon = e.lon;
    if (
      typeof lat !== 'number' ||
      typeof lon !== 'number' ||
      !Number.isFinite(lat) ||
      !Number.isFinite(lon) ||
      Math.abs(lat) > 90 ||
      Math.abs(lon) > 180
    ) {
      wrong.push(`lat and lon must be numbers in degrees (got ${JSON.stringify(lat)}, ${JSON.stringify(lon)})`);
    } else if (!inUnitedStates(lat, lon)) wrong.push(`${lat}, ${lon} is not inside the 50 states and DC`);
    if (wrong.length > 0) problems.push(`${at}: ${wrong.join('; ')}`);
    else cities.push(cityOf(e as unknown as CityEntry));
  });
  if (problems.length > 0) throw new CityFileError(path, problems);
  return cities;
}

/** Reads and checks a cities file. */
export function readCityFile(path: string): City[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CityFileError(path, [`cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`]);
  }
  return parseCityFile(path, text);
}
