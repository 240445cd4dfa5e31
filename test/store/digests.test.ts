/**
 * The store's digests tell a render which days and cities changed (render-cache.ts): each digest
 * must change with anything its files are made from, and only with that, and must not depend on
 * where SQLite keeps the rows.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreDigests } from '../../src/store/digests.js';
import { openStore } from '../../src/store/store.js';
import { buildStore, SITE_SPAN } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const DAY = SITE_SPAN.from + 3;
let built: string;

beforeAll(async () => {
  built = await buildStore(tempDir(), ['austin', 'honolulu'], SITE_SPAN);
  // A skill row as a render writes one into the served store (the city's forecast-skill answer).
  const db = new Database(built);
  db.prepare("INSERT INTO forecast_skill (city_id, skill) SELECT id, x'0102' FROM city WHERE slug = 'austin'").run();
  db.close();
}, 120_000);

const digestsOf = (path: string): StoreDigests => {
  const store = openStore(path, { readonly: true });
  try {
    return store.checks.digests();
  } finally {
    store.close();
  }
};

/** A copy of the built store with `sql` run on it, and its digests. */
function changed(sql: string): StoreDigests {
  const path = join(tempDir(), 'changed.db');
  const db = new Database(built, { readonly: true });
  db.prepare('VACUUM INTO ?').run(path);
  db.close();
  const copy = new Database(path);
  expect(copy.prepare(sql).run().changes, sql).toBeGreaterThan(0);
  copy.close();
  return digestsOf(path);
}

/** The keys of each map whose digest differs between `a` and `b`. */
function differing(a: StoreDigests, b: StoreDigests) {
  const keys = <K>(x: Map<K, Buffer>, y: Map<K, Buffer>) =>
    [...new Set([...x.keys(), ...y.keys()])].filter((k) => !(x.get(k) && y.get(k)?.equals(x.get(k)!)));
  return {
    names: !a.names.equals(b.names),
    utc: keys(a.values[0], b.values[0]),
    local: keys(a.values[1], b.values[1]),
    pollen: keys(a.pollen, b.pollen),
    weather: keys(a.weather, b.weather),
    cities: keys(a.cities, b.cities),
  };
}

const NOTHING = { names: false, utc: [], local: [], pollen: [], weather: [], cities: [] };
const austin = "(SELECT id FROM city WHERE slug = 'austin')";

describe('the store digests', () => {
  it('are the same for the same rows wherever SQLite keeps them: a compacted copy, rows written in another order', () => {
    const before = digestsOf(built);
    const path = join(tempDir(), 'reordered.db');
    const db = new Database(built, { readonly: true });
    db.prepare('VACUUM INTO ?').run(path);
    db.close();
    const copy = new Database(path);
    // Every day row deleted and written again, newest first: other pages, the same rows.
    for (const table of ['day_value', 'pollen_day', 'weather_day']) {
      copy.exec(`CREATE TEMP TABLE saved AS SELECT * FROM ${table}; DELETE FROM ${table};`);
      copy.exec(`INSERT INTO ${table} SELECT * FROM saved ORDER BY day DESC, city_id DESC; DROP TABLE saved;`);
    }
    copy.close();
    expect(differing(before, digestsOf(path))).toEqual(NOTHING);
    expect(before.values[0].size).toBe(10);
    expect([...before.cities.keys()]).toEqual(expect.arrayContaining(['austin', 'honolulu']));
  });

  it.each([
    [
      'a UTC day value',
      `UPDATE day_value SET data = x'00' WHERE city_id = ${austin} AND cut = 0 AND day = ${DAY}`,
      { utc: [DAY], cities: ['austin'] },
    ],
    [
      'a local day value',
      `UPDATE day_value SET data = x'00' WHERE city_id = ${austin} AND cut = 1 AND day = ${DAY}`,
      { local: [DAY], cities: ['austin'] },
    ],
    ["a day's hours", `UPDATE pollen_day SET data = x'00' WHERE city_id = ${austin} AND day = ${DAY}`, { pollen: [DAY] }],
    ["a day's zone, none for a zone", `UPDATE pollen_day SET zone_id = NULL WHERE city_id = ${austin} AND day = ${DAY}`, { pollen: [DAY] }],
    ["a day's status", `UPDATE pollen_day SET status = 2 WHERE city_id = ${austin} AND day = ${DAY}`, { pollen: [DAY] }],
    ["a day's mask", `UPDATE pollen_day SET mask = 1 WHERE city_id = ${austin} AND day = ${DAY}`, { pollen: [DAY] }],
    [
      "a day's weather",
      `UPDATE weather_day SET data = x'00' WHERE city_id = ${austin} AND day = ${DAY}`,
      { weather: [DAY], cities: ['austin'] },
    ],
    [
      'when the weather was fetched',
      `UPDATE weather_day SET fetched_at = fetched_at + 1 WHERE city_id = ${austin} AND day = ${DAY}`,
      { weather: [DAY], cities: ['austin'] },
    ],
    ['a skill', `UPDATE forecast_skill SET skill = x'0103' WHERE city_id = ${austin}`, { cities: ['austin'] }],
    ['a skill gone', `DELETE FROM forecast_skill WHERE city_id = ${austin}`, { cities: ['austin'] }],
    ['a day gone', `DELETE FROM day_value WHERE city_id = ${austin} AND cut = 0 AND day = ${DAY}`, { utc: [DAY], cities: ['austin'] }],
    [
      'the slug a city id names',
      "UPDATE city SET slug = 'austin-tx' WHERE slug = 'austin'",
      { names: true, cities: ['austin', 'austin-tx'] },
    ],
  ])('change with %s, where it is read, and nowhere else', (_what, sql, where) => {
    expect(differing(digestsOf(built), changed(sql))).toEqual({ ...NOTHING, ...where });
  });

  it('do not change with when the hours were fetched: a day fetched again with the same hours answers the same', () => {
    expect(differing(digestsOf(built), changed(`UPDATE pollen_day SET fetched_at = fetched_at + 1 WHERE city_id = ${austin}`))).toEqual(
      NOTHING,
    );
  });
});
