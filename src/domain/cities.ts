/** The fixed set of supported cities. Slugs are the public identifiers and never change. */

/** NOAA's nine US climate regions, plus the two states outside them. */
export type ClimateRegion =
  | 'northeast' | 'upper-midwest' | 'ohio-valley' | 'southeast' | 'northern-rockies-plains'
  | 'south' | 'southwest' | 'northwest' | 'west' | 'alaska' | 'hawaii';

export interface City {
  readonly name: string;
  readonly slug: string;
  readonly state: string;
  readonly lat: number;
  readonly lon: number;
  readonly timezone: string;
  readonly region: ClimateRegion;
}

type Row = [name: string, state: string, lat: number, lon: number, timezone: string, region: ClimateRegion];

const ROWS: Row[] = [
  ['Albuquerque', 'NM', 35.0844, -106.6504, 'America/Denver', 'southwest'],
  ['Anchorage', 'AK', 61.2181, -149.9003, 'America/Anchorage', 'alaska'],
  ['Atlanta', 'GA', 33.749, -84.388, 'America/New_York', 'southeast'],
  ['Austin', 'TX', 30.2672, -97.7431, 'America/Chicago', 'south'],
  ['Billings', 'MT', 45.7833, -108.5007, 'America/Denver', 'northern-rockies-plains'],
  ['Boise', 'ID', 43.615, -116.2023, 'America/Boise', 'northwest'],
  ['Boston', 'MA', 42.3601, -71.0589, 'America/New_York', 'northeast'],
  ['Buffalo', 'NY', 42.8864, -78.8784, 'America/New_York', 'northeast'],
  ['Chicago', 'IL', 41.8781, -87.6298, 'America/Chicago', 'ohio-valley'],
  ['Dallas', 'TX', 32.7767, -96.797, 'America/Chicago', 'south'],
  ['Denver', 'CO', 39.7392, -104.9903, 'America/Denver', 'southwest'],
  ['Detroit', 'MI', 42.3314, -83.0458, 'America/Detroit', 'upper-midwest'],
  ['Hartford', 'CT', 41.7658, -72.6734, 'America/New_York', 'northeast'],
  ['Honolulu', 'HI', 21.3069, -157.8583, 'Pacific/Honolulu', 'hawaii'],
  ['Houston', 'TX', 29.7604, -95.3698, 'America/Chicago', 'south'],
  ['Indianapolis', 'IN', 39.7684, -86.1581, 'America/Indiana/Indianapolis', 'ohio-valley'],
  ['Kansas City', 'MO', 39.0997, -94.5786, 'America/Chicago', 'ohio-valley'],
  ['Knoxville', 'TN', 35.9606, -83.9207, 'America/New_York', 'ohio-valley'],
  ['Las Vegas', 'NV', 36.1699, -115.1398, 'America/Los_Angeles', 'west'],
  ['Los Angeles', 'CA', 34.0522, -118.2437, 'America/Los_Angeles', 'west'],
  ['Louisville', 'KY', 38.2527, -85.7585, 'America/Kentucky/Louisville', 'ohio-valley'],
  ['McAllen', 'TX', 26.2034, -98.23, 'America/Chicago', 'south'],
  ['Memphis', 'TN', 35.1495, -90.049, 'America/Chicago', 'ohio-valley'],
  ['Miami', 'FL', 25.7617, -80.1918, 'America/New_York', 'southeast'],
  ['Minneapolis', 'MN', 44.9778, -93.265, 'America/Chicago', 'upper-midwest'],
  ['New Orleans', 'LA', 29.9511, -90.0715, 'America/Chicago', 'south'],
  ['New York', 'NY', 40.7128, -74.006, 'America/New_York', 'northeast'],
  ['Oklahoma City', 'OK', 35.4676, -97.5164, 'America/Chicago', 'south'],
  ['Philadelphia', 'PA', 39.9526, -75.1652, 'America/New_York', 'northeast'],
  ['Phoenix', 'AZ', 33.4484, -112.074, 'America/Phoenix', 'southwest'],
  ['Portland', 'OR', 45.5152, -122.6784, 'America/Los_Angeles', 'northwest'],
  ['Richmond', 'VA', 37.5407, -77.436, 'America/New_York', 'southeast'],
  ['Salt Lake City', 'UT', 40.7608, -111.891, 'America/Denver', 'southwest'],
  ['San Antonio', 'TX', 29.4241, -98.4936, 'America/Chicago', 'south'],
  ['San Francisco', 'CA', 37.7749, -122.4194, 'America/Los_Angeles', 'west'],
  ['Scranton', 'PA', 41.409, -75.6624, 'America/New_York', 'northeast'],
  ['Seattle', 'WA', 47.6062, -122.3321, 'America/Los_Angeles', 'northwest'],
  ['St. Louis', 'MO', 38.627, -90.1994, 'America/Chicago', 'ohio-valley'],
  ['Tulsa', 'OK', 36.154, -95.9928, 'America/Chicago', 'south'],
  ['Wichita', 'KS', 37.6872, -97.3301, 'America/Chicago', 'south'],
];

/** `St. Louis` -> `st-louis`: lower case ASCII words joined by hyphens. */
export function slugify(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Every supported city, ordered by display name. */
export const CITIES: readonly City[] = ROWS.map(([name, state, lat, lon, timezone, region]) =>
  Object.freeze({ name, slug: slugify(name), state, lat, lon, timezone, region }),
).sort((a, b) => a.name.localeCompare(b.name, 'en'));

const BY_SLUG = new Map(CITIES.map((c) => [c.slug, c]));

/** The city with this slug, or undefined for an unsupported one. */
export function cityBySlug(slug: string): City | undefined {
  return BY_SLUG.get(slug);
}

/** Every supported slug in byte order, the order cross-city rows use. */
export const SLUGS_IN_ORDER: readonly string[] = CITIES.map((c) => c.slug).sort();
