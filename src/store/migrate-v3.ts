/**
 * Migration 3: from one row per hour to one packed row per city-day (store/codec.ts), weather
 * packed, texts in `label`, and the city set in `city`. Every value of the old rows is kept: the
 * old species blobs are decoded by their own reader below, which nothing else uses.
 *
 * Frozen: what it reads of version 2 (the weather columns, from the table itself; the cities
 * those stores served, written out here) is taken as it was, not from today's domain. It packs with the codec because the
 * codec is the format of the rows it writes, not a derivation: a reader of every later version
 * reads them with it, and the codec always reads every form it ever wrote (a new form is a new
 * mode beside the old ones, and rows are re-packed to it only by a migration of its own). So
 * rows this migration packs today read back as the rows it packed when it was released.
 */
import type { PollenHour } from '../domain/hours.js';
import { type Shape, type Species, type SpeciesLeaf, shapeKey, shapeOf } from '../domain/species/payload.js';
import type { WeatherValues } from '../domain/weather.js';
import { encodeDay, encodeWeather } from './codec.js';
import type { Db, Row } from './database.js';

/** The cities every store before version 3 served (slug, name, state, lat, lon, zone): the built-in 40 of that release. */
const SERVED_BEFORE: ReadonlyArray<readonly [string, string, string, number, number, string]> = [
  ['albuquerque', 'Albuquerque', 'NM', 35.0844, -106.6504, 'America/Denver'],
  ['anchorage', 'Anchorage', 'AK', 61.2181, -149.9003, 'America/Anchorage'],
  ['atlanta', 'Atlanta', 'GA', 33.749, -84.388, 'America/New_York'],
  ['austin', 'Austin', 'TX', 30.2672, -97.7431, 'America/Chicago'],
  ['billings', 'Billings', 'MT', 45.7833, -108.5007, 'America/Denver'],
  ['boise', 'Boise', 'ID', 43.615, -116.2023, 'America/Boise'],
  ['boston', 'Boston', 'MA', 42.3601, -71.0589, 'America/New_York'],
  ['buffalo', 'Buffalo', 'NY', 42.8864, -78.8784, 'America/New_York'],
  ['chicago', 'Chicago', 'IL', 41.8781, -87.6298, 'America/Chicago'],
  ['dallas', 'Dallas', 'TX', 32.7767, -96.797, 'America/Chicago'],
  ['denver', 'Denver', 'CO', 39.7392, -104.9903, 'America/Denver'],
  ['detroit', 'Detroit', 'MI', 42.3314, -83.0458, 'America/Detroit'],
  ['hartford', 'Hartford', 'CT', 41.7658, -72.6734, 'America/New_York'],
  ['honolulu', 'Honolulu', 'HI', 21.3069, -157.8583, 'Pacific/Honolulu'],
  ['houston', 'Houston', 'TX', 29.7604, -95.3698, 'America/Chicago'],
  ['indianapolis', 'Indianapolis', 'IN', 39.7684, -86.1581, 'America/Indiana/Indianapolis'],
  ['kansas-city', 'Kansas City', 'MO', 39.0997, -94.5786, 'America/Chicago'],
  ['knoxville', 'Knoxville', 'TN', 35.9606, -83.9207, 'America/New_York'],
  ['las-vegas', 'Las Vegas', 'NV', 36.1699, -115.1398, 'America/Los_Angeles'],
  ['los-angeles', 'Los Angeles', 'CA', 34.0522, -118.2437, 'America/Los_Angeles'],
  ['louisville', 'Louisville', 'KY', 38.2527, -85.7585, 'America/Kentucky/Louisville'],
  ['mcallen', 'McAllen', 'TX', 26.2034, -98.23, 'America/Chicago'],
  ['memphis', 'Memphis', 'TN', 35.1495, -90.049, 'America/Chicago'],
  ['miami', 'Miami', 'FL', 25.7617, -80.1918, 'America/New_York'],
  ['minneapolis', 'Minneapolis', 'MN', 44.9778, -93.265, 'America/Chicago'],
  ['new-orleans', 'New Orleans', 'LA', 29.9511, -90.0715, 'America/Chicago'],
  ['new-york', 'New York', 'NY', 40.7128, -74.006, 'America/New_York'],
  ['oklahoma-city', 'Oklahoma City', 'OK', 35.4676, -97.5164, 'America/Chicago'],
  ['philadelphia', 'Philadelphia', 'PA', 39.9526, -75.1652, 'America/New_York'],
  ['phoenix', 'Phoenix', 'AZ', 33.4484, -112.074, 'America/Phoenix'],
  ['portland', 'Portland', 'OR', 45.5152, -122.6784, 'America/Los_Angeles'],
  ['richmond', 'Richmond', 'VA', 37.5407, -77.436, 'America/New_York'],
  ['salt-lake-city', 'Salt Lake City', 'UT', 40.7608, -111.891, 'America/Denver'],
  ['san-antonio', 'San Antonio', 'TX', 29.4241, -98.4936, 'America/Chicago'],
  ['san-francisco', 'San Francisco', 'CA', 37.7749, -122.4194, 'America/Los_Angeles'],
  ['scranton', 'Scranton', 'PA', 41.409, -75.6624, 'America/New_York'],
  ['seattle', 'Seattle', 'WA', 47.6062, -122.3321, 'America/Los_Angeles'],
  ['st-louis', 'St. Louis', 'MO', 38.627, -90.1994, 'America/Chicago'],
  ['tulsa', 'Tulsa', 'OK', 36.154, -95.9928, 'America/Chicago'],
  ['wichita', 'Wichita', 'KS', 37.6872, -97.3301, 'America/Chicago'],
];

/** Version 2's weather_day columns that are not measurements: every other column is one. */
const WEATHER_KEYS = new Set(['city_id', 'day', 'source_id', 'fetched_at', 'status']);

/** The migration: new tables, the city set, every pollen and weather day packed, the old tables replaced. */
export function migrateToPackedDays(db: Db): void {
  createTables(db);
  addServedCities(db);
  const label = labelIds(db);
  const cityIds = db.prepare('SELECT id FROM city ORDER BY id').pluck().all() as number[];
  packPollenDays(db, cityIds, label);
  packWeatherDays(db, cityIds, label);
  db.exec(`
    DROP TABLE pollen_hour;
    DROP TABLE pollen_day;
    DROP TABLE weather_day;
    ALTER TABLE pollen_day_packed RENAME TO pollen_day;
    ALTER TABLE weather_day_packed RENAME TO weather_day;
    CREATE INDEX pollen_day_by_day ON pollen_day (day);
    CREATE INDEX weather_day_by_day ON weather_day (day);
  `);
}

function createTables(db: Db): void {
  db.exec(`
    CREATE TABLE label (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);

    -- The city set: what the deployer serves (active) and every slug that ever had data.
    ALTER TABLE city ADD COLUMN name TEXT;
    ALTER TABLE city ADD COLUMN state TEXT;
    ALTER TABLE city ADD COLUMN lat REAL;
    ALTER TABLE city ADD COLUMN lon REAL;
    ALTER TABLE city ADD COLUMN timezone TEXT;
    ALTER TABLE city ADD COLUMN active INTEGER NOT NULL DEFAULT 0;

    CREATE TABLE pollen_day_packed (
      city_id INTEGER NOT NULL REFERENCES city(id),
      day INTEGER NOT NULL,              -- days since 1970-01-01
      source_id INTEGER NOT NULL REFERENCES source(id),
      zone_id INTEGER REFERENCES label(id),  -- the provider's time zone
      status INTEGER NOT NULL CHECK (status IN (1, 2, 3)),
      mask INTEGER NOT NULL,             -- bit h: hour h of the day is stored
      fetched_at INTEGER NOT NULL,       -- ms since epoch
      data BLOB,                         -- the hours, packed; NULL for an empty day
      PRIMARY KEY (city_id, day)
    ) WITHOUT ROWID;

    CREATE TABLE weather_day_packed (
      city_id INTEGER NOT NULL REFERENCES city(id),
      day INTEGER NOT NULL,
      source_id INTEGER NOT NULL REFERENCES source(id),
      status INTEGER NOT NULL CHECK (status IN (1, 3)),
      fetched_at INTEGER NOT NULL,
      data BLOB NOT NULL,                -- the fields present and their values, packed
      PRIMARY KEY (city_id, day)
    ) WITHOUT ROWID;
  `);
}

/** Stores before this one served the built-in 40, whichever of them had data yet. */
function addServedCities(db: Db): void {
  const addCity = db.prepare('INSERT INTO city (slug) VALUES (?) ON CONFLICT (slug) DO NOTHING');
  const setCity = db.prepare('UPDATE city SET name = ?, state = ?, lat = ?, lon = ?, timezone = ?, active = 1 WHERE slug = ?');
  for (const [slug, name, state, lat, lon, zone] of SERVED_BEFORE) {
    addCity.run(slug);
    setCity.run(name, state, lat, lon, zone, slug);
  }
}

/** The id of a text in `label`, added when new. */
function labelIds(db: Db): (text: string) => number {
  const labels = new Map<string, number>();
  const addLabel = db
    .prepare('INSERT INTO label (text) VALUES (?) ON CONFLICT (text) DO UPDATE SET text = excluded.text RETURNING id')
    .pluck();
  return (text) => {
    let id = labels.get(text);
    if (id === undefined) labels.set(text, (id = addLabel.get(text) as number));
    return id;
  };
}

/** Each city-day's hours, read from version 2's rows, packed into pollen_day_packed. */
function packPollenDays(db: Db, cityIds: readonly number[], label: (text: string) => number): void {
  const shapes = new Map<number, Shape>(
    (db.prepare('SELECT id, keys FROM species_shape').all() as Row[]).map((r) => [r.id as number, JSON.parse(r.keys as string) as Shape]),
  );
  const shapeIds = new Map([...shapes].map(([id, shape]) => [shapeKey(build(shape, [])), id]));
  const addShape = db.prepare('INSERT INTO species_shape (keys) VALUES (?) RETURNING id').pluck();
  const shapeId = (species: Species) => {
    const key = shapeKey(species);
    let id = shapeIds.get(key);
    if (id === undefined) shapeIds.set(key, (id = addShape.get(JSON.stringify(shapeOf(species))) as number));
    return id;
  };
  const hoursOf = db.prepare(
    'SELECT hour, tree, grass, weed, total, shape_id, species FROM pollen_hour WHERE city_id = ? AND hour >= ? AND hour < ? ORDER BY hour',
  );
  const putDay = db.prepare(
    'INSERT INTO pollen_day_packed (city_id, day, source_id, zone_id, status, mask, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // One city at a time with .all(): a statement being iterated blocks the writes in the loop.
  const daysOf = db.prepare('SELECT * FROM pollen_day WHERE city_id = ? ORDER BY day');
  for (const d of cityIds.flatMap((id) => daysOf.all(id) as Row[])) {
    const day = d.day as number;
    const hours = (hoursOf.all(d.city_id, day * 24, day * 24 + 24) as Row[]).map(
      (r): PollenHour => ({
        hour: r.hour as number,
        tree: r.tree as number | null,
        grass: r.grass as number | null,
        weed: r.weed as number | null,
        total: r.total as number,
        species: r.shape_id === null ? null : decodeLegacySpecies(shapes.get(r.shape_id as number)!, r.species as Uint8Array),
      }),
    );
    const packed = encodeDay(day, hours, shapeId);
    const zone = d.timezone === null ? null : label(d.timezone as string);
    putDay.run(d.city_id, day, d.source_id, zone, d.status, packed.mask, d.fetched_at, packed.data);
  }
}

/** Each weather row's measured columns, packed into weather_day_packed. */
function packWeatherDays(db: Db, cityIds: readonly number[], label: (text: string) => number): void {
  const putWeather = db.prepare(
    'INSERT INTO weather_day_packed (city_id, day, source_id, status, fetched_at, data) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const weatherOf = db.prepare('SELECT * FROM weather_day WHERE city_id = ? ORDER BY day');
  const measured = (db.prepare("SELECT name FROM pragma_table_info('weather_day')").pluck().all() as string[]).filter(
    (c) => !WEATHER_KEYS.has(c),
  );
  for (const w of cityIds.flatMap((id) => weatherOf.all(id) as Row[])) {
    const values: Record<string, unknown> = {};
    for (const f of measured) if (w[f] !== null) values[f] = w[f];
    putWeather.run(w.city_id, w.day, w.source_id, w.status, w.fetched_at, encodeWeather(values as WeatherValues, label));
  }
}

/** Version 2's species values: a bitmap of non-zero slots, then a varint per slot whose low 2 bits say int, float64 or null. */
function decodeLegacySpecies(shape: Shape, blob: Uint8Array): Species {
  let slot = 0;
  let pos = 0;
  for (const e of shape) pos += e.length === 2 ? e[1].length : 1;
  pos = Math.ceil(pos / 8);
  const values: SpeciesLeaf[] = [];
  const slots = shape.reduce((n, e) => n + (e.length === 2 ? e[1].length : 1), 0);
  while (slot < slots) {
    const i = slot++;
    if (!(blob[i >> 3]! & (1 << (i & 7)))) {
      values.push(0);
      continue;
    }
    let token = 0;
    let scale = 1;
    for (;;) {
      const b = blob[pos++]!;
      token += (b & 0x7f) * scale;
      if (b < 0x80) break;
      scale *= 128;
    }
    const tag = token % 4;
    if (tag === 2) values.push(null);
    else if (tag === 0) values.push((token - tag) / 4);
    else {
      values.push(new DataView(blob.buffer, blob.byteOffset + pos, 8).getFloat64(0, true));
      pos += 8;
    }
  }
  return build(shape, values);
}

/** A payload from its shape and leaves (0 where none are given), keys in their original order. */
function build(shape: Shape, values: readonly SpeciesLeaf[]): Species {
  let i = 0;
  const next = (): SpeciesLeaf => (i < values.length ? values[i++]! : 0); // a null leaf stays null
  const out: Species = {};
  const set = (target: Record<string, unknown>, key: string, value: unknown) =>
    key === '__proto__'
      ? Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
      : (target[key] = value);
  for (const e of shape) {
    if (e.length === 2) {
      const group: Record<string, SpeciesLeaf> = {};
      for (const k of e[1]) set(group, k, next());
      set(out, e[0], group);
    } else set(out, e[0], next());
  }
  return out;
}
