import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCityFile } from '../../src/domain/city-file.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { openStore } from '../../src/store/store.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Two cities that share a name, told apart by state, and one of the built-in set.
const top200 = readCityFile(new URL('../../cities/us-top-200.json', import.meta.url).pathname);
const entry = (slug: string) => {
  const { region: _r, ...c } = top200.find((x) => x.slug === slug)!;
  return c;
};
const SET = [entry('columbus-ga'), entry('columbus-oh'), entry('tulsa')];
const WINDOW = ['--from', '2025-04-01', '--to', '2025-04-03'];
const writeSet = (path: string, cities: unknown[]) => {
  writeFileSync(path, JSON.stringify(cities));
  return path;
};

describe('a city set chosen by the deployer', () => {
  it('refuses a bad cities file with exit 2, naming every bad entry, before a store is created', async () => {
    const dir = tempDir();
    const db = join(dir, 'x.db');
    const file = writeSet(join(dir, 'cities.json'), [SET[0], { ...SET[1], slug: 'Columbus' }, { ...SET[2], timezone: 'CST' }]);
    for (const [args, env] of [
      [['--cities-file', file], {}],
      [[], { CITIES_FILE: file }],
    ] as const) {
      const r = await runCli(['ingest', '--db', db, ...WINDOW, ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /cities\.json: 2 problems:\n {2}entry 2 \(Columbus\): slug must match .*\n {2}entry 3 \(tulsa\): timezone must be an IANA zone/,
      );
      expect(existsSync(db)).toBe(false);
    }
  });

  it('refuses --cities naming a slug outside the set', async () => {
    const dir = tempDir();
    const r = await runCli([
      'ingest',
      '--db',
      join(dir, 'x.db'),
      ...WINDOW,
      '--cities-file',
      writeSet(join(dir, 'c.json'), SET),
      '--cities',
      'austin',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cities: unsupported city "austin"; the set has 3: columbus-ga, columbus-oh, tulsa/);
  });

  it('replaces the set when the file changes: dropped cities keep their data unserved, and a slug with data never moves', async () => {
    const dir = tempDir();
    const db = join(dir, 'pollen.db');
    const first = await runCli(['ingest', '--db', db, ...WINDOW, '--cities-file', writeSet(join(dir, 'a.json'), SET)]);
    expect(first.code, first.stderr).toBe(0);
    const before = openStore(db, { readonly: true });
    const tulsaHours = before.pollen.hours('tulsa', 0, 1e9);
    before.close();
    expect(tulsaHours.length).toBeGreaterThan(48);

    const changed = await runCli([
      'ingest',
      '--db',
      db,
      ...WINDOW,
      '--cities-file',
      writeSet(join(dir, 'b.json'), [SET[0], entry('denver')]),
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/the city set now has 2 cities: 1 added, 2 no longer served \(their data is kept\)/);
    let store = openStore(db, { readonly: true });
    expect(store.cities.set().slugs).toEqual(['columbus-ga', 'denver']);
    expect(store.pollen.hours('tulsa', 0, 1e9)).toEqual(tulsaHours); // kept
    const sum = store.checks.checksum();
    store.close();

    const moved = await runCli([
      'ingest',
      '--db',
      db,
      ...WINDOW,
      '--cities-file',
      writeSet(join(dir, 'c.json'), [{ ...SET[0], lat: 32.5 }, entry('denver')]),
    ]);
    expect(moved.code).toBe(2);
    expect(moved.stderr).toMatch(
      /a slug with data cannot move; give the new place a new slug:\n {2}columbus-ga: its data is for 32.46098, -84.98771 \(America\/New_York\); the file says 32.5, -84.98771/,
    );
    const back = await runCli(['ingest', '--db', db, ...WINDOW, '--cities-file', join(dir, 'a.json')]);
    expect(back.code).toBe(0);
    store = openStore(db, { readonly: true });
    expect(store.cities.set().slugs).toEqual(['columbus-ga', 'columbus-oh', 'tulsa']);
    expect(store.checks.checksum()).not.toBe(sum); // only the set changed
    store.close();
  });

  describe('a store filled with one set, rendered, and served without the file', () => {
    let server: RunningServer;
    let dir: string;
    const get = async (path: string) => {
      const res = await fetch(server.url + path);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    beforeAll(async () => {
      dir = tempDir();
      const file = writeSet(join(dir, 'cities.json'), SET);
      const db = join(dir, 'pollen.db');
      expect((await runCli(['ingest', '--db', db, ...WINDOW, '--cities-file', file])).code).toBe(0);
      expect((await runCli(['render', '--db', db, '--publish', join(dir, 'publish')])).code).toBe(0);
      rmSync(file);
      process.env.POLLEN_DB = db;
      process.env.FORECAST_CACHE_DB = join(dir, 'forecast-cache.db');
      server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
    });
    afterAll(async () => server?.close());

    it('lists the set, with states, at /api/cities and from MCP list_cities', async () => {
      const { body } = await get('/api/cities');
      expect(body.cities.map((c: { name: string; slug: string; state: string }) => [c.name, c.slug, c.state])).toEqual([
        ['Columbus', 'columbus-ga', 'GA'],
        ['Columbus', 'columbus-oh', 'OH'],
        ['Tulsa', 'tulsa', 'OK'],
      ]);
      // Each with the position and zone of the cities file.
      const file = readCityFile(join(ROOT, 'cities', 'us-top-200.json'));
      for (const c of body.cities) {
        const e = file.find((f) => f.slug === c.slug)!;
        expect(c).toEqual({ name: e.name, slug: e.slug, state: e.state, lat: e.lat, lon: e.lon, timezone: e.timezone });
      }
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      const result = (await client.callTool({ name: 'list_cities', arguments: {} })) as { structuredContent?: unknown };
      await client.close();
      expect(result.structuredContent).toEqual(body);
    });

    it.each([
      '/api/pollen?city=columbus-ga&date=2025-04-02',
      '/api/pollen?city=columbus-ga',
      '/api/weather?city=columbus-ga&date=2025-04-02',
      '/api/weather?city=columbus-ga',
      '/api/pollen-range?city=columbus-ga,columbus-oh&from=2025-04-01&to=2025-04-03&aggregate=day',
      '/api/forecast?city=columbus-ga',
    ])('answers %s for a disambiguated slug', async (path) => {
      const { status, body } = await get(path);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(JSON.stringify(body)).toContain('columbus-ga');
    });

    it('answers every city of the set, and only those, in the cross-city forms', async () => {
      expect((await get('/api/pollen?date=2025-04-02')).body.rows.map((c: { city: string }) => c.city)).toEqual([
        'columbus-ga',
        'columbus-oh',
        'tulsa',
      ]);
      expect((await get('/api/map-data?date=2025-04-02')).body.features).toHaveLength(3);
      const range = await get('/api/pollen-range?from=2025-04-01&to=2025-04-02&aggregate=day');
      expect(range.body.cities).toEqual(['columbus-ga', 'columbus-oh', 'tulsa']);
    });

    it.each([
      '/api/pollen?city=austin',
      '/api/pollen?city=austin&date=2025-04-02',
      '/api/forecast?city=austin',
      '/api/pollen-range?city=austin&from=2025-04-01&to=2025-04-02',
    ])('answers %s, a built-in city outside the set, 404 UNSUPPORTED_CITY', async (path) => {
      const { status, body } = await get(path);
      expect(status).toBe(404);
      expect(body.code).toBe('UNSUPPORTED_CITY');
    });
  });
});
