/**
 * The served store cut into shards (src/store/shards/) and read back: every answer equals the one
 * the store gives, byte for byte and header for header, over cities, dates at the quarters' edges,
 * cross-city ranges and maps; the shards hold the store's rows as an independent MessagePack
 * reader (msgpackr) finds them, each named by its SHA-256; no answer reads more than 25 shards
 * or 8 MB; a shard that is not its key's bytes is a 503; and a render after one more day writes
 * only the shards whose bytes changed.
 */

import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unpack } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, respond } from '../../src/api/http/respond.js';
import { ROUTES } from '../../src/api/routes.js';
import { FolderShards, readShardManifest, type ShardManifest } from '../../src/deploy-data/shard-folder.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { callRoute } from '../../src/mcp/tools.js';
import { render } from '../../src/render/render.js';
import { cityShard, quarterOf } from '../../src/store/shards/shard-format.js';
import { ShardIndex, type ShardSource } from '../../src/store/shards/shard-index.js';
import { ShardStore } from '../../src/store/shards/shard-reader.js';
import { openStore, type Store } from '../../src/store/store.js';
import { shardContext, storeContext } from '../../src/wiring/contexts.js';
import { buildStore, ingestSample } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'honolulu', 'tulsa'];
// Across three quarters' edges: Q1 to Q3 of 2025.
const SPAN = { from: dayNumber('2025-03-20'), to: dayNumber('2025-07-03') };

const text = (r: ApiResponse) => (typeof r.body === 'string' ? r.body : [...r.body].join(''));
const answer = async (ctx: Parameters<typeof respond>[1], url: string) => {
  const u = new URL(url, 'http://x.test');
  const r = await respond({ method: 'GET', path: u.pathname, query: u.searchParams, origin: 'http://x.test' }, ctx);
  return { status: r.status, headers: r.headers, body: text(r) };
};

/** Requests over every store route: each city, dates at the quarters' edges and outside the data, both cuts, several cities at once. */
function requests(): string[] {
  const dates = ['2025-03-20', '2025-03-31', '2025-04-01', '2025-06-30', '2025-07-01', '2025-07-03', '2025-07-04', '2024-12-31'];
  const out = ['/api/health', '/api/available-dates', '/api/latest-date', '/api/cities', '/api/season', '/api/forecast-skill'];
  for (const city of [...CITIES, 'atlantis']) {
    out.push(`/api/pollen?city=${city}`, `/api/pollen?city=${city}&timezone=local`, `/api/weather?city=${city}`);
    out.push(`/api/season?city=${city}`, `/api/season?city=${city}&timezone=local`, `/api/forecast-skill?city=${city}`);
    for (const d of dates) {
      out.push(`/api/pollen?city=${city}&date=${d}`, `/api/pollen?city=${city}&date=${d}&timezone=local`);
      out.push(`/api/weather?city=${city}&date=${d}`);
    }
    out.push(`/api/pollen-range?city=${city}&from=2025-03-25&to=2025-07-02`);
    out.push(`/api/pollen-range?city=${city}&from=2025-03-01&to=2025-07-10&aggregate=day&timezone=local`);
  }
  for (const d of [...dates, 'latest']) {
    out.push(`/api/map-data?date=${d}`, `/api/map-data?date=${d}&timezone=local`, `/api/pollen?date=${d}`, `/api/weather?date=${d}`);
  }
  out.push(`/api/pollen-range?cities=${CITIES.join(',')}&from=2025-06-28&to=2025-07-02&aggregate=day`);
  out.push(`/api/pollen-range?cities=${CITIES.join(',')}&from=2025-03-30T20:00:00Z&to=2025-04-01T04:00:00Z`);
  out.push('/api/pollen?city=austin&date=2025-02-30', '/api/pollen-range?city=austin&from=2025-07-01&to=2025-03-01');
  return out;
}

/** A source that counts the shards and bytes an answer reads. */
function counted(source: ShardSource): ShardSource & { names: Set<string>; bytes: number } {
  const seen = { names: new Set<string>(), bytes: 0 };
  return Object.assign(seen, {
    get: (name: string) => {
      const bytes = source.get(name);
      if (bytes && !seen.names.has(name)) {
        seen.names.add(name);
        seen.bytes += bytes.length;
      }
      return bytes;
    },
  });
}

describe('the served store read from its shards', () => {
  let dir: string;
  let db: string;
  let served: Store;
  let manifest: ShardManifest;
  let folder: FolderShards;

  beforeAll(async () => {
    dir = tempDir();
    db = await buildStore(dir, CITIES, SPAN);
    const store = openStore(db, { readonly: true });
    await render(store, join(dir, 'publish'));
    store.close();
    served = openStore(servedStorePath(db), { readonly: true, immutable: true });
    manifest = readShardManifest(join(dir, 'served', 'shards.json'))!;
    folder = new FolderShards(join(dir, 'shards'), manifest);
  }, 300_000);
  afterAll(() => served?.close());

  it('answers every request as the store it was cut from, byte for byte and header for header', async () => {
    const fromStore = storeContext(served);
    const fromShards = shardContext(new ShardStore(ShardIndex.of(folder), folder));
    const asked = requests();
    for (const url of asked) expect(await answer(fromShards, url), url).toEqual(await answer(fromStore, url));
    // Not a list of errors: most answers hold data.
    const ok = await Promise.all(asked.map(async (url) => (await answer(fromStore, url)).status === 200));
    expect(ok.filter(Boolean).length).toBeGreaterThan(asked.length * 0.7);
    // Every store route is asked.
    const paths = new Set(asked.map((u) => new URL(u, 'http://x.test').pathname));
    for (const route of ROUTES.filter(
      (r) => r.path.startsWith('/api/') && !['forecast', 'forecast-map', 'alerts', 'nearest'].some((p) => r.path.endsWith(p)),
    ))
      expect(paths, route.path).toContain(route.path);
  }, 120_000);

  it('reads no more than 25 shards or 8 MB for any answer', async () => {
    const index = ShardIndex.of(folder);
    const most = { shards: 0, bytes: 0 };
    for (const url of requests()) {
      const source = counted(folder);
      await answer(shardContext(new ShardStore(index, source)), url);
      expect(source.names.size + 1, url).toBeLessThanOrEqual(25); // and the index
      expect(source.bytes, url).toBeLessThanOrEqual(8 * 1024 * 1024);
      most.shards = Math.max(most.shards, source.names.size);
      most.bytes = Math.max(most.bytes, source.bytes);
    }
    // The longest range here spans the three quarters of the data (and a city's list its quarters too).
    expect(most.shards).toBeGreaterThanOrEqual(3);
  });

  it("names each shard by its bytes' SHA-256, and an independent MessagePack reader finds the store's rows in them", () => {
    const files = readdirSync(join(dir, 'shards'));
    expect(new Set(files)).toEqual(new Set(Object.values(manifest.shards)));
    for (const key of files)
      expect(
        createHash('sha256')
          .update(readFileSync(join(dir, 'shards', key)))
          .digest('hex'),
      ).toBe(key);
    const read = (name: string) => unpack(readFileSync(join(dir, 'shards', manifest.shards[name]!))) as Record<string, unknown>;
    const sql = new Database(servedStorePath(db), { readonly: true });
    try {
      const index = read('index');
      expect(index.cities).toEqual(
        sql.prepare('SELECT id, slug, name, state, lat, lon, timezone, active FROM city ORDER BY id').raw().all(),
      );
      const tulsa = sql.prepare("SELECT id FROM city WHERE slug = 'tulsa'").pluck().get() as number;
      const q2 = [dayNumber('2025-04-01'), dayNumber('2025-06-30')];
      const quarter = read(cityShard('tulsa', q2[0]!));
      const bytes = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)));
      expect(bytes(quarter.pollen as unknown[][])).toEqual(
        bytes(
          sql
            .prepare(
              'SELECT city_id, day, source_id, zone_id, mask, data FROM pollen_day WHERE city_id = ? AND day BETWEEN ? AND ? AND mask <> 0 ORDER BY day',
            )
            .raw()
            .all(tulsa, ...q2) as unknown[][],
        ),
      );
      expect((quarter.pollen as unknown[][]).length).toBe(91);
      expect(bytes(quarter.values as unknown[][])).toEqual(
        bytes(
          sql
            .prepare('SELECT city_id, cut, day, data FROM day_value WHERE city_id = ? AND day BETWEEN ? AND ? ORDER BY cut, day')
            .raw()
            .all(tulsa, ...q2) as unknown[][],
        ),
      );
      const day = read(`day/2025-05-05`);
      expect((day.weather as unknown[][]).map((r) => r[0])).toEqual(
        sql.prepare(`SELECT city_id FROM weather_day WHERE day = ? AND status = 1 ORDER BY city_id`).pluck().all(dayNumber('2025-05-05')),
      );
      expect(Object.keys(manifest.shards).filter((n) => n.startsWith('city/tulsa/'))).toEqual(
        ['2025-q1', '2025-q2', '2025-q3'].map((q) => `city/tulsa/${q}`),
      );
      expect(quarterOf(dayNumber('2025-07-01'))).toBe('2025-q3');
    } finally {
      sql.close();
    }
  });

  it('answers 503 DATA_UNAVAILABLE, never cached, where a shard is not the bytes its key names, and MCP says so as a tool error', async () => {
    const broken = tempDir();
    cpSync(join(dir, 'shards'), broken, { recursive: true });
    const name = cityShard('tulsa', dayNumber('2025-05-05'));
    writeFileSync(join(broken, manifest.shards[name]!), 'not this shard');
    const source = new FolderShards(broken, manifest);
    const ctx = shardContext(new ShardStore(ShardIndex.of(source), source));
    const r = await answer(ctx, '/api/pollen?city=tulsa&date=2025-05-05');
    expect(r.status).toBe(503);
    expect(r.headers).toMatchObject({ 'Cache-Control': 'no-store', 'Retry-After': '30' });
    expect(r.headers['Netlify-CDN-Cache-Control']).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({
      error: 'The stored data cannot be read right now; retry in 30 seconds',
      code: 'DATA_UNAVAILABLE',
    });
    // Another city's shards are whole: its answers are given.
    expect((await answer(ctx, '/api/pollen?city=austin&date=2025-05-05')).status).toBe(200);
    const route = ROUTES.find((r) => r.path === '/api/pollen')!;
    const tool = await callRoute(route, ctx, new URLSearchParams({ city: 'tulsa', date: '2025-05-05' }));
    expect(tool).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The stored data cannot be read right now; retry in 30 seconds' }],
    });
  });

  it("after one more day, a render writes only the shards whose bytes changed, and keeps the previous render's until the next", async () => {
    const before = manifest;
    const next = SPAN.to + 1;
    const store = openStore(db);
    await ingestSample(store, CITIES, { from: next, to: next });
    const summary = await render(store, join(dir, 'publish'));
    const after = readShardManifest(join(dir, 'served', 'shards.json'))!;
    const oldKeys = new Set(Object.values(before.shards));
    const changed = Object.keys(after.shards).filter((n) => after.shards[n] !== before.shards[n]);
    expect(summary.shards.written).toBe(new Set(changed.map((n) => after.shards[n]!).filter((k) => !oldKeys.has(k))).size);
    // The day's work: the index, the new day and the one before it (its local days end in the new one),
    // each city's quarter, and the skills the new day's scores change.
    const expected = new Set(['index', `day/${dayString(next)}`, `day/${dayString(next - 1)}`, ...CITIES.map((c) => cityShard(c, next))]);
    for (const n of changed) expect(expected.has(n) || n.startsWith('skill/'), n).toBe(true);
    expect(changed.length).toBeLessThan(Object.keys(after.shards).length / 10);
    // The previous render's manifest is kept, and every shard it names is still there.
    expect(readShardManifest(join(dir, 'served', 'shards.previous.json'))).toEqual(before);
    for (const key of Object.values(before.shards)) expect(existsSync(join(dir, 'shards', key)), key).toBe(true);
    // A third render drops what neither of the last two names.
    await ingestSample(store, CITIES, { from: next + 1, to: next + 1 });
    await render(store, join(dir, 'publish'));
    store.close();
    const last = readShardManifest(join(dir, 'served', 'shards.json'))!;
    const kept = new Set([...Object.values(last.shards), ...Object.values(after.shards)]);
    expect(new Set(readdirSync(join(dir, 'shards')))).toEqual(kept);
  }, 300_000);
});

describe('a range over more than its shards allow', () => {
  let dir: string;
  let served: Store;
  let folder: FolderShards;
  const cities = ['austin', 'boise', 'dallas', 'denver', 'houston', 'miami', 'phoenix', 'seattle', 'tulsa', 'wichita'];
  const [from, to] = [dayNumber('2025-01-01'), dayNumber('2025-07-05')];

  beforeAll(async () => {
    dir = tempDir();
    const db = await buildStore(dir, cities, { from, to });
    const store = openStore(db, { readonly: true });
    await render(store, join(dir, 'publish'));
    store.close();
    served = openStore(servedStorePath(db), { readonly: true, immutable: true });
    folder = new FolderShards(join(dir, 'shards'), readShardManifest(join(dir, 'served', 'shards.json'))!);
  }, 300_000);
  afterAll(() => served?.close());

  it('comes in pages of at most 23 city-quarters, the same from shards as from the store, which join to every row', async () => {
    const index = ShardIndex.of(folder);
    const range = `from=2025-01-01&to=2025-07-06&limit=50000`;
    // Ten cities of three quarters each: 30 city-quarters, over the 23 one answer may read.
    const hours = cities.reduce((n, c) => n + served.pollen.hours(c, from * 24, (to + 1) * 24).length, 0);
    const localDays = cities.reduce((n, c) => n + served.values.span(c, 'local', from, to).size, 0);
    for (const [first, whole] of [
      [`/api/pollen-range?${range}`, hours],
      [`/api/pollen-range?${range}&aggregate=day&timezone=local`, localDays],
    ] as const) {
      const rows: string[] = [];
      let url: string | undefined = first;
      let pages = 0;
      while (url && pages < 10) {
        const source = counted(folder);
        const got = await answer(shardContext(new ShardStore(index, source)), url);
        expect(got, url).toEqual(await answer(storeContext(served), url));
        expect(source.names.size + 1, url).toBeLessThanOrEqual(25);
        const body = JSON.parse(got.body) as { rows: unknown[]; next?: string; truncated: boolean };
        rows.push(...body.rows.map((r) => JSON.stringify(r)));
        url = body.next;
        pages++;
      }
      expect(pages, first).toBe(2);
      expect(rows.length, first).toBe(whole);
      expect(new Set(rows).size, first).toBe(rows.length);
    }
  }, 120_000);
});
