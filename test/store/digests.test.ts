/**
 * The store's digests tell a render which days and cities changed (render-cache.ts): each digest
 * must change with anything its files are made from, and only with that, and must not depend on
 * where SQLite keeps the rows.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS } from '../../src/domain/dates.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { dayDigestsFromRows, refreshDayDigests, type StoreDigests } from '../../src/store/digests.js';
import { openStore } from '../../src/store/store.js';
import { buildStore, SITE_SPAN } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const DAY = SITE_SPAN.from + 3;
let built: string;

beforeAll(async () => {
  built = await buildStore(tempDir(), ['austin', 'honolulu'], SITE_SPAN);
  // The forecasts, outlooks and climatologies a build keeps as issued.
  const store = openStore(built);
  const cities = ['austin', 'honolulu'].map((slug) => DEFAULT_CITIES.get(slug)!);
  await keepForecasts({ store, providers: [new SampleProvider()], cities, now: (SITE_SPAN.to + 1) * DAY_MS, serveDays: 730 });
  store.close();
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

/** A copy of the built store, open for writing with SQL. */
function copyOf(name: string): { path: string; db: Database.Database } {
  const path = join(tempDir(), name);
  const db = new Database(built, { readonly: true });
  db.prepare('VACUUM INTO ?').run(path);
  db.close();
  return { path, db: new Database(path) };
}

/** A copy of the built store with `sql` run on it, and its digests. */
function changed(sql: string): StoreDigests {
  const { path, db: copy } = copyOf('changed.db');
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
    const { path, db: copy } = copyOf('reordered.db');
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

const staleCount = (db: Database.Database) => db.prepare('SELECT count(*) FROM day_digest_stale').pluck().get() as number;

/** The day digests as a reader gets them, in the order of `dayDigestsFromRows`. */
function readDays(path: string): Array<Map<number, Buffer>> {
  const d = digestsOf(path);
  return [d.values[0], d.values[1], d.pollen, d.weather, d.kept.forecasts, d.kept.outlooks, d.kept.climatologies];
}

/** Each part's days, each with its digest in hex: equal maps compare equal. */
const hex = (parts: Array<Map<number, Buffer>>) =>
  parts.map((m) => Object.fromEntries([...m].sort((a, b) => a[0] - b[0]).map(([day, d]) => [day, d.toString('hex')])));

/** Each table a day's digest reads: its key columns, its column of the day, how many of that column's units a day is, and its data column. */
const TABLES = {
  day_value: { keys: 'city_id, cut, day', day: 'day', unit: 1, data: 'data' },
  pollen_day: { keys: 'city_id, day', day: 'day', unit: 1, data: 'data' },
  weather_day: { keys: 'city_id, day', day: 'day', unit: 1, data: 'data' },
  forecast_issued: { keys: 'city_id, issued_at', day: 'issued_at', unit: DAY_MS, data: 'days' },
  outlook_issued: { keys: 'city_id, issue_day', day: 'issue_day', unit: 1, data: 'data' },
  climatology_issued: { keys: 'city_id, day', day: 'day', unit: 1, data: 'data' },
} as const;
const TABLE_NAMES = Object.keys(TABLES) as Array<keyof typeof TABLES>;
/** A write to the day tables as SQL, of any shape a writer could make (a change, a row gone, a row moved, one added or replaced), or a refresh. */
const write = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    table: fc.constantFrom(...TABLE_NAMES),
    nth: fc.nat(),
    data: fc.uint8Array({ maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('drop' as const), table: fc.constantFrom(...TABLE_NAMES), nth: fc.nat() }),
  fc.record({
    kind: fc.constant('move' as const),
    table: fc.constantFrom(...TABLE_NAMES),
    nth: fc.nat(),
    by: fc.integer({ min: -12, max: 12 }),
  }),
  fc.record({
    kind: fc.constant('copy' as const),
    table: fc.constantFrom(...TABLE_NAMES),
    nth: fc.nat(),
    by: fc.integer({ min: -3, max: 12 }),
  }),
  fc.record({ kind: fc.constant('refresh' as const) }),
);

type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

function apply(db: Database.Database, w: Write): void {
  if (w.kind === 'refresh') {
    refreshDayDigests(db);
    return;
  }
  const { keys, day, unit, data } = TABLES[w.table];
  const rows = db.prepare(`SELECT ${keys} FROM ${w.table} ORDER BY ${keys}`).raw().all() as number[][];
  if (rows.length === 0) return;
  const key = rows[w.nth % rows.length]!;
  const where = `WHERE ${keys
    .split(', ')
    .map((k) => `${k} = ?`)
    .join(' AND ')}`;
  if (w.kind === 'set') db.prepare(`UPDATE ${w.table} SET ${data} = ? ${where}`).run(Buffer.from(w.data), ...key);
  else if (w.kind === 'drop') db.prepare(`DELETE FROM ${w.table} ${where}`).run(...key);
  else if (w.kind === 'move') db.prepare(`UPDATE OR IGNORE ${w.table} SET ${day} = ${day} + ? ${where}`).run(w.by * unit, ...key);
  else {
    // INSERT OR REPLACE deletes the row in the way without a delete trigger (SQLite runs those only with recursive triggers on).
    const columns = (db.prepare(`SELECT name FROM pragma_table_info('${w.table}')`).pluck().all() as string[]).map((c) =>
      c === day ? `${day} + ${w.by * unit}` : c,
    );
    db.prepare(`INSERT OR REPLACE INTO ${w.table} SELECT ${columns.join(', ')} FROM ${w.table} ${where}`).run(...key);
  }
}

describe('the day digests kept in the store', () => {
  it('are every day of every part, and none stale, in a store its writer closed', () => {
    const db = new Database(built, { readonly: true });
    expect(staleCount(db)).toBe(0);
    const kept = readDays(built);
    expect(hex(kept)).toEqual(hex(dayDigestsFromRows(db)));
    const days = (sql: string) => db.prepare(`SELECT count(DISTINCT day) FROM ${sql}`).pluck().get();
    expect(kept.map((m) => m.size)).toEqual([
      days('day_value WHERE cut = 0'),
      days('day_value WHERE cut = 1'),
      days('pollen_day'),
      days('weather_day'),
      db.prepare('SELECT count(DISTINCT issued_at / 86400000) FROM forecast_issued').pluck().get(),
      db.prepare('SELECT count(DISTINCT issue_day) FROM outlook_issued').pluck().get(),
      days('climatology_issued'),
    ]);
    expect(kept[0]!.size).toBe(10);
    // The sample's forecasts made again, issued from two days before the first of the 10 days (they
    // reach it at lead 2) to the last; its outlooks from the second day to the day after the last; the
    // climatologies of the days they reach, 7 more.
    expect(kept.slice(4).map((m) => m.size)).toEqual([12, 10, 17]);
    db.close();
  });

  it('are what the rows give after any writes, to a reader before a refresh and kept after it (property)', () => {
    fc.assert(
      fc.property(fc.array(write, { minLength: 1, maxLength: 12 }), (writes) => {
        const { path, db } = copyOf('written.db');
        for (const w of writes) apply(db, w);
        const fromRows = hex(dayDigestsFromRows(db));
        db.close();
        // A reader with days still stale digests them itself.
        expect(hex(readDays(path))).toEqual(fromRows);
        // A writer's close digests them again and keeps them.
        openStore(path).close();
        const after = new Database(path, { readonly: true });
        expect(staleCount(after)).toBe(0);
        after.close();
        expect(hex(readDays(path))).toEqual(fromRows);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('mark the days written stale, and only those', () => {
    const { db } = copyOf('marked.db');
    db.prepare(`UPDATE pollen_day SET data = x'00' WHERE city_id = ${austin} AND day = ?`).run(DAY);
    db.prepare(`DELETE FROM day_value WHERE city_id = ${austin} AND cut = 1 AND day = ?`).run(DAY + 1);
    db.prepare(`UPDATE weather_day SET day = ? WHERE city_id = ${austin} AND day = ?`).run(DAY + 100, DAY + 2);
    db.prepare(`UPDATE forecast_issued SET days = x'00' WHERE city_id = ${austin} AND issued_at / 86400000 = ?`).run(DAY);
    db.prepare(`DELETE FROM outlook_issued WHERE city_id = ${austin} AND issue_day = ?`).run(DAY + 3);
    db.prepare(`UPDATE climatology_issued SET day = ? WHERE city_id = ${austin} AND day = ?`).run(DAY + 200, DAY + 4);
    expect(db.prepare('SELECT part, day FROM day_digest_stale ORDER BY part, day').raw().all()).toEqual([
      [1, DAY + 1],
      [2, DAY],
      [3, DAY + 2],
      [3, DAY + 100],
      [4, DAY],
      [5, DAY + 3],
      [6, DAY + 4],
      [6, DAY + 200],
    ]);
    db.close();
  });
});
