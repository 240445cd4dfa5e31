import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import fallback from '../../functions/fallback.js';
import { requestForFile } from '../../src/api/http/file-requests.js';
import { findRoute, ROUTES, type Route } from '../../src/api/routes.js';
import { shardManifestPath } from '../../src/deploy-data/shard-folder.js';
import { type SiteFile, servedDirPath, servedStorePath, siteFilePath } from '../../src/deploy-data/site-file.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { listFiles, render } from '../../src/render/render.js';
import { functionOverheadBytes } from '../../src/render/served-store.js';
import { THREAD_CACHE } from '../../src/render/threads/thread-code.js';
import { settingsOf } from '../../src/settings.js';
import { SITE_FILES } from '../../src/site/build.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { buildStore, SITE_SPAN, useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const site = useSite();
const siteFileNames = new Set(SITE_FILES);

/** The API URL a rendered file answers. */
function apiUrlFor(file: string): string {
  if (findRoute(`/${file}`)) return `/${file}`;
  const request = requestForFile(`/${file}`, new URLSearchParams())!;
  return `${request.path}?${request.query}`;
}

describe('build render', () => {
  it('writes a file for every enumerable answer, each byte-identical to the fallback function’s answer', async () => {
    const files = listFiles(site.publish).filter((f) => f !== '_redirects' && !siteFileNames.has(f) && !f.startsWith('data/bulk/'));
    expect(listFiles(site.publish).filter((f) => siteFileNames.has(f))).toHaveLength(siteFileNames.size);
    // The bulk files (test/render/bulk.test.ts): one month, three kinds in two formats, the seasons and the forecast pairs in two, and the manifest.
    expect(listFiles(site.publish).filter((f) => f.startsWith('data/bulk/'))).toHaveLength(3 * 2 + 2 + 2 + 1);
    // For pollen and weather: 4 cities x 10 days, 10 dates, all 40 cities' daily lists; then 10
    // maps, cities/available-dates/latest-date, and 3 discovery files. (Parameterless pollen,
    // map and weather requests are the fallback function's, whatever their query.) Local days:
    // 40 cities' daily lists, 10 dates across cities, 10 maps (a city's local day is the function's).
    // Seasons: the 4 cities with data, in UTC and local days. Forecast skill: each of the 40 cities.
    expect(files.length).toBe(2 * (4 * 10 + 10 + 40) + 10 + 3 + 3 + (40 + 10 + 10) + 2 * 4 + 40);
    process.env.POLLEN_DB = site.db;
    for (const file of files) {
      const res = await fallback(new Request(`http://localhost${apiUrlFor(file)}`));
      expect(res.status, file).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(site.publish, file))), file).toBe(true);
    }
  });

  it('keeps every folder under 54,000 files', () => {
    const perFolder = new Map<string, number>();
    for (const f of listFiles(site.publish)) perFolder.set(dirname(f), (perFolder.get(dirname(f)) ?? 0) + 1);
    expect(Math.max(...perFolder.values())).toBeLessThan(54_000);
  });

  it('is deterministic: the same store renders byte-identical trees', async () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    // Each from an empty render cache: nothing of one is reused by the other.
    await render(site.store, a, { cacheDir: join(dir, 'cache-a') });
    await render(site.store, b, { cacheDir: join(dir, 'cache-b') });
    const files = listFiles(a).sort();
    expect(listFiles(b).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
  });

  it('renders in worker threads byte-identical to one thread', async () => {
    const dir = tempDir();
    const [one, two] = [join(dir, 'one'), join(dir, 'two')];
    expect((await render(site.store, one, { workers: 0, cacheDir: join(dir, 'cache-one') })).workers).toBe(0);
    expect((await render(site.store, two, { workers: 2, cacheDir: join(dir, 'cache-two') })).workers).toBe(2);
    const files = listFiles(one).sort();
    expect(listFiles(two).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(one, f)).equals(readFileSync(join(two, f))), f).toBe(true);
  });

  it('runs its threads from a bundle of their code, and through tsx, byte-identical, where the bundle cannot be written', async () => {
    const dir = tempDir();
    const [bundled, loaded] = [join(dir, 'bundled'), join(dir, 'loaded')];
    // Within the project, where the bundle's imports of libraries resolve.
    mkdirSync(THREAD_CACHE, { recursive: true });
    const threads = mkdtempSync(join(THREAD_CACHE, 'test-'));
    try {
      const one = await render(site.store, bundled, { workers: 2, cacheDir: join(dir, 'cache-a'), threadCache: threads });
      expect(one.warnings).toEqual([]);
      expect(readdirSync(threads)).toEqual([expect.stringMatching(/^render-threads-[0-9a-f]{16}$/)]);
      // A file where the folder should be: nothing can be written below it.
      writeFileSync(join(threads, 'not-a-folder'), '');
      const two = await render(site.store, loaded, {
        workers: 2,
        cacheDir: join(dir, 'cache-b'),
        threadCache: join(threads, 'not-a-folder'),
      });
      expect(two.warnings).toEqual([
        expect.stringMatching(/^the render threads' code could not be bundled under .*not-a-folder .*through tsx/),
      ]);
    } finally {
      rmSync(threads, { recursive: true, force: true });
    }
    const files = listFiles(bundled).sort();
    expect(listFiles(loaded).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(bundled, f)).equals(readFileSync(join(loaded, f))), f).toBe(true);
  });

  it('gives functions the newest SERVE_DAYS days from the first of their month, and the served cities, keeping all history in the store', async () => {
    const dir = tempDir();
    // 28 March to 10 April: 3 days served reach back to 8 April, and so from 1 April (the oldest month whole).
    const db = await buildStore(dir, ['tulsa', 'boise'], { from: dayNumber('2025-03-28'), to: SITE_SPAN.to });
    const store = openStore(db);
    store.cities.replace([DEFAULT_CITIES.get('tulsa')!]);
    store.ledger.record('sample', '2025-04-10', 'ingest', 3);
    const summary = await render(store, join(dir, 'publish'), { serveDays: 3 });
    expect(summary.served.cityDays).toBe(2 * 10); // pollen and weather of tulsa
    const served = openStore(servedStorePath(db), { readonly: true });
    const days = served.pollen.daysWithData().map(dayString);
    expect([days[0], days.at(-1), days.length]).toEqual(['2025-04-10', '2025-04-01', 10]);
    expect(served.pollen.hours('boise', 0, 1e9)).toEqual([]);
    expect(served.ledger.callsOn('sample', '2025-04-10')).toEqual({ ingest: 0, forecast: 0 });
    served.close();
    expect(store.pollen.daysWithData()).toHaveLength(14);
    expect(store.ledger.callsOn('sample', '2025-04-10')).toEqual({ ingest: 3, forecast: 0 });
    expect(store.pollen.hours('boise', 0, 1e9).length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(dir, 'publish', 'data', 'available-dates.json'), 'utf8')).dates).toHaveLength(10);
    store.close();
    expect(() => settingsOf({ SERVE_DAYS: '0' }).SERVE_DAYS).toThrow(/SERVE_DAYS must be a whole number of days of at least 1 \(got "0"\)/);
  });

  it("refuses, publishing nothing, a store whose shards' manifest would push a function over its zipped limit", async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], SITE_SPAN);
    const store = openStore(db, { readonly: true });
    const publish = join(dir, 'publish');
    await render(store, publish);
    const [served, before, manifest] = [realpathSync(publish), readFileSync(servedStorePath(db)), readFileSync(shardManifestPath(db))];
    // A limit the manifest just passes: the functions carry it deflated, beside their code.
    const limit =
      (await functionOverheadBytes()) + deflateRawSync(JSON.stringify(JSON.parse(manifest.toString('utf8'))), { level: 6 }).length - 1;
    await expect(render(store, publish, { functionLimitBytes: limit })).rejects.toThrow(
      /the shards' manifest would make each function about [\d.]+ MB zipped, over [\d.]+ MB: serve fewer cities or days \(SERVE_DAYS\)\. Nothing was published\./,
    );
    store.close();
    expect(realpathSync(publish)).toBe(served);
    expect(readFileSync(servedStorePath(db)).equals(before)).toBe(true);
    expect(readFileSync(shardManifestPath(db)).equals(manifest)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([
      'pollen.db',
      'publish',
      'publish.renders',
      'render-cache',
      'render-cache.key',
      'served',
      'shards',
    ]);
    // The files beside the store are those of the render served.
    expect(realpathSync(servedDirPath(db))).toBe(join(dirname(served), 'served'));
  });

  it('leaves the previous render whole and served when killed midway', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['atlanta', 'boise', 'chicago', 'dallas', 'denver', 'miami', 'tulsa', 'seattle'], {
      from: SITE_SPAN.from - 60,
      to: SITE_SPAN.to,
    });
    const publish = join(dir, 'publish');
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    const served = realpathSync(publish);
    const before = new Map(listFiles(publish).map((f) => [f, readFileSync(join(publish, f))]));

    // Kill the next render once it has written part of its new folder.
    const renders = `${publish}.renders`;
    const generation = (path: string) => basename(dirname(path));
    const killed = await runCli(['render', '--db', db, '--publish', publish], {
      killWhen: () =>
        readdirSync(renders).some(
          (d) =>
            ![generation(served), 'current'].includes(d) &&
            existsSync(join(renders, d, 'site', 'data', 'pollen')) &&
            listFiles(join(renders, d, 'site')).length > 200,
        ),
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(realpathSync(publish)).toBe(served);
    expect(listFiles(publish).length).toBe(before.size);
    for (const [f, bytes] of before) expect(readFileSync(join(publish, f)).equals(bytes), f).toBe(true);

    // The next render finishes and clears the half-written folder; of the one it replaced, only the files beside the store stay, until the next.
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    expect(readdirSync(renders).sort()).toEqual(['current', generation(realpathSync(publish)), generation(served)].sort());
    expect(readdirSync(join(renders, generation(served)))).toEqual(['served']);
  });

  it('fails when an enumerated request does not answer 200, leaving the previous render served', async () => {
    const dir = tempDir();
    const publish = join(dir, 'publish');
    await render(site.store, publish);
    const served = realpathSync(publish);
    const broken: Route[] = ROUTES.map((r) =>
      r.path === '/api/weather' ? { ...r, handler: () => Promise.reject(new Error('disk error')) } : r,
    );
    await expect(render(site.store, publish, { routes: broken })).rejects.toThrow(
      /\/api\/weather\?city=albuquerque answered 500: \{"error":"Internal server error","code":"INTERNAL_ERROR"\}; the previous render stays served/,
    );
    expect(realpathSync(publish)).toBe(served);
    expect(readdirSync(`${publish}.renders`).sort()).toEqual(['current', basename(dirname(served))]);
  });

  it("exits 1 from the command line when a city's stored days cannot be read, and 0 for a publish folder written with a trailing slash", async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], { from: SITE_SPAN.from, to: SITE_SPAN.from });
    const ok = await runCli(['render', '--db', db, '--publish', `${join(dir, 'publish')}/`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(dir, 'publish', 'data', 'cities.json'), 'utf8')).toContain('tulsa');
    const siteFile = JSON.parse(readFileSync(siteFilePath(db), 'utf8')) as SiteFile;
    expect(siteFile.provider).toBe('sample');
    expect(siteFile.cities.map((c) => c.slug)).toEqual(DEFAULT_CITIES.list.map((c) => c.slug));
    corruptSpecies(db);
    const failed = await runCli(['render', '--db', db, '--publish', join(dir, 'publish')]);
    expect(failed.code).toBe(1);
    // Its forecast skill, scored on its daily rows before any answer is rendered, reads them first.
    expect(failed.stderr).toMatch(/error: the forecast skill of tulsa could not be computed: .*Nothing was published/);
  });

  it('fails the same way when the forecast skill is scored in a thread of its own, the previous render still served', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], { from: SITE_SPAN.from, to: SITE_SPAN.from });
    const publish = join(dir, 'publish');
    await render(openStore(db), publish, { workers: 0 });
    const served = realpathSync(publish);
    corruptSpecies(db);
    await expect(render(openStore(db), publish, { workers: 2 })).rejects.toThrow(
      /^the forecast skill of tulsa could not be computed: .*Nothing was published\.$/,
    );
    expect(realpathSync(publish)).toBe(served);
    expect(readdirSync(dir).filter((f) => f.includes('.next-'))).toEqual([]);
  });

  it('renders an empty store without the latest date, which the fallback answers 404', async () => {
    const dir = tempDir();
    const db = join(dir, 'empty.db');
    openStore(db).close();
    const store = openStore(db, { readonly: true });
    const publish = join(dir, 'publish');
    await render(store, publish);
    store.close();
    const files = listFiles(publish);
    expect(files).not.toContain('data/latest-date.json');
    expect(JSON.parse(readFileSync(join(publish, 'data', 'available-dates.json'), 'utf8'))).toEqual({ dates: [] });
    expect(JSON.parse(readFileSync(join(publish, 'data', 'pollen', 'tulsa.json'), 'utf8'))).toEqual({
      city: 'tulsa',
      provider: null,
      rows: [],
    });
    expect(files.filter((f) => /\d{4}-\d{2}-\d{2}/.test(f))).toEqual([]);
  });
});

/** Damages the species shapes of a store, as a bad disk or a bug would: decoding them then throws. */
function corruptSpecies(db: string): void {
  const raw = new Database(db);
  raw.prepare("UPDATE species_shape SET keys = 'not json'").run();
  raw.close();
}
