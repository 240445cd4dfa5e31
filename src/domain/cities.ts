/**
 * Cities: the built-in set of 40, and the set a deployer chooses (a cities file, kept in the
 * store). Slugs are the public identifiers and never change meaning within a deployment.
 */

/** NOAA's nine US climate regions, plus the two states outside them. */
export type ClimateRegion =
  | 'northeast'
  | 'upper-midwest'
  | 'ohio-valley'
  | 'southeast'
  | 'northern-rockies-plains'
  | 'south'
  | 'southwest'
  | 'northwest'
  | 'west'
  | 'alaska'
  | 'hawaii';

/** A city as a cities file gives it. */
export interface CityEntry {
  readonly name: string;
  readonly slug: string;
  /** USPS code of one of the 50 states or DC. */
  readonly state: string;
  readonly lat: number;
  readonly lon: number;
  /** IANA zone. */
  readonly timezone: string;
}

export interface City extends CityEntry {
  /** From the state: what the sample provider's seasons follow. */
  readonly region: ClimateRegion;
}

/** NOAA's climate region of each state and DC (ncei.noaa.gov "U.S. Climate Regions"). */
export const STATE_REGIONS: Readonly<Record<string, ClimateRegion>> = {
  CT: 'northeast',
  DE: 'northeast',
  DC: 'northeast',
  ME: 'northeast',
  MD: 'northeast',
  MA: 'northeast',
  NH: 'northeast',
  NJ: 'northeast',
  NY: 'northeast',
  PA: 'northeast',
  RI: 'northeast',
  VT: 'northeast',
  IA: 'upper-midwest',
  MI: 'upper-midwest',
  MN: 'upper-midwest',
  WI: 'upper-midwest',
  IL: 'ohio-valley',
  IN: 'ohio-valley',
  KY: 'ohio-valley',
  MO: 'ohio-valley',
  OH: 'ohio-valley',
  TN: 'ohio-valley',
  WV: 'ohio-valley',
  AL: 'southeast',
  FL: 'southeast',
  GA: 'southeast',
  NC: 'southeast',
  SC: 'southeast',
  VA: 'southeast',
  MT: 'northern-rockies-plains',
  NE: 'northern-rockies-plains',
  ND: 'northern-rockies-plains',
  SD: 'northern-rockies-plains',
  WY: 'northern-rockies-plains',
  AR: 'south',
  KS: 'south',
  LA: 'south',
  MS: 'south',
  OK: 'south',
  TX: 'south',
  AZ: 'southwest',
  CO: 'southwest',
  NM: 'southwest',
  UT: 'southwest',
  ID: 'northwest',
  OR: 'northwest',
  WA: 'northwest',
  CA: 'west',
  NV: 'west',
  AK: 'alaska',
  HI: 'hawaii',
};

/** A city from its entry; the state must be one of the 50 or DC. */
export function cityOf(entry: CityEntry): City {
  const region = STATE_REGIONS[entry.state];
  if (!region) throw new RangeError(`not a US state or DC: ${JSON.stringify(entry.state)}`);
  const { name, slug, state, lat, lon, timezone } = entry;
  return Object.freeze({ name, slug, state, lat, lon, timezone, region });
}

/** A fixed set of cities: by name for listing, by slug for lookups, slugs in byte order for cross-city rows. */
export class CitySet {
  /** Every city, ordered by display name (then state). */
  readonly list: readonly City[];
  /** Every slug in byte order, the order cross-city rows use. */
  readonly slugs: readonly string[];
  private readonly bySlug: ReadonlyMap<string, City>;

  constructor(cities: Iterable<City>) {
    this.list = [...cities].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.state.localeCompare(b.state, 'en'));
    this.bySlug = new Map(this.list.map((c) => [c.slug, c]));
    if (this.bySlug.size !== this.list.length) throw new RangeError('two cities share a slug');
    this.slugs = this.list.map((c) => c.slug).sort();
  }

  /** The city with this slug, or undefined for an unsupported one. */
  get(slug: string): City | undefined {
    return this.bySlug.get(slug);
  }

  get size(): number {
    return this.list.length;
  }
}

/** `St. Louis` -> `st-louis`: lower case ASCII words joined by hyphens. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

type Row = [name: string, state: string, lat: number, lon: number, timezone: string];

/**
 * The built-in 40: NOAA's nine climate regions, Alaska and Hawaii, all six US time zones, and
 * the well-known spring-allergy cities. A store without a chosen set serves these.
 */
const ROWS: Row[] = [
  ['Albuquerque', 'NM', 35.0844, -106.6504, 'America/Denver'],
  ['Anchorage', 'AK', 61.2181, -149.9003, 'America/Anchorage'],
  ['Atlanta', 'GA', 33.749, -84.388, 'America/New_York'],
  ['Austin', 'TX', 30.2672, -97.7431, 'America/Chicago'],
  ['Billings', 'MT', 45.7833, -108.5007, 'America/Denver'],
  ['Boise', 'ID', 43.615, -116.2023, 'America/Boise'],
  ['Boston', 'MA', 42.3601, -71.0589, 'America/New_York'],
  ['Buffalo', 'NY', 42.8864, -78.8784, 'America/New_York'],
  ['Chicago', 'IL', 41.8781, -87.6298, 'America/Chicago'],
  ['Dallas', 'TX', 32.7767, -96.797, 'America/Chicago'],
  ['Denver', 'CO', 39.7392, -104.9903, 'America/Denver'],
  ['Detroit', 'MI', 42.3314, -83.0458, 'America/Detroit'],
  ['Hartford', 'CT', 41.7658, -72.6734, 'America/New_York'],
  ['Honolulu', 'HI', 21.3069, -157.8583, 'Pacific/Honolulu'],
  ['Houston', 'TX', 29.7604, -95.3698, 'America/Chicago'],
  ['Indianapolis', 'IN', 39.7684, -86.1581, 'America/Indiana/Indianapolis'],
  ['Kansas City', 'MO', 39.0997, -94.5786, 'America/Chicago'],
  ['Knoxville', 'TN', 35.9606, -83.9207, 'America/New_York'],
  ['Las Vegas', 'NV', 36.1699, -115.1398, 'America/Los_Angeles'],
  ['Los Angeles', 'CA', 34.0522, -118.2437, 'America/Los_Angeles'],
  ['Louisville', 'KY', 38.2527, -85.7585, 'America/Kentucky/Louisville'],
  ['McAllen', 'TX', 26.2034, -98.23, 'America/Chicago'],
  ['Memphis', 'TN', 35.1495, -90.049, 'America/Chicago'],
  ['Miami', 'FL', 25.7617, -80.1918, 'America/New_York'],
  ['Minneapolis', 'MN', 44.9778, -93.265, 'America/Chicago'],
  ['New Orleans', 'LA', 29.9511, -90.0715, 'America/Chicago'],
  ['New York', 'NY', 40.7128, -74.006, 'America/New_York'],
  ['Oklahoma City', 'OK', 35.4676, -97.5164, 'America/Chicago'],
  ['Philadelphia', 'PA', 39.9526, -75.1652, 'America/New_York'],
  ['Phoenix', 'AZ', 33.4484, -112.074, 'America/Phoenix'],
  ['Portland', 'OR', 45.5152, -122.6784, 'America/Los_Angeles'],
  ['Richmond', 'VA', 37.5407, -77.436, 'America/New_York'],
  ['Salt Lake City', 'UT', 40.7608, -111.891, 'America/Denver'],
  ['San Antonio', 'TX', 29.4241, -98.4936, 'America/Chicago'],
  ['San Francisco', 'CA', 37.7749, -122.4194, 'America/Los_Angeles'],
  ['Scranton', 'PA', 41.409, -75.6624, 'America/New_York'],
  ['Seattle', 'WA', 47.6062, -122.3321, 'America/Los_Angeles'],
  ['St. Louis', 'MO', 38.627, -90.1994, 'America/Chicago'],
  ['Tulsa', 'OK', 36.154, -95.9928, 'America/Chicago'],
  ['Wichita', 'KS', 37.6872, -97.3301, 'America/Chicago'],
];

/** The built-in 40 cities. */
export const DEFAULT_CITIES = new CitySet(
  ROWS.map(([name, state, lat, lon, timezone]) => cityOf({ name, slug: slugify(name), state, lat, lon, timezone })),
);
