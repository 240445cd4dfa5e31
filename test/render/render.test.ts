import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fallback from '../../functions/fallback.js';
import { findRoute, requestForFile } from '../../src/api/routes.js';
import { cityBySlug } from '../../src/domain/cities.js';
import { dayString } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { listFiles, render } from '../../src/render/render.js';
import { SITE_FILES } from '../../src/site/build.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { buildStore, SITE_CITIES, SITE_SPAN, useSite } from '../helpers/site.js';
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
    const files = listFiles(site.publish).filter((f) => f !== '_redirects' && !siteFileNames.has(f));
    expect(listFiles(site.publish).filter((f) => siteFileNames.has(f))).toHaveLength(siteFileNames.size);
    // For pollen and weather: 4 cities x 10 days, 10 dates, all 40 cities' daily lists, latest;
    // then 10 maps and latest, cities/available-dates/latest-date, and 3 discovery files.
    expect(files.length).toBe(2 * (4 * 10 + 10 + 40 + 1) + 11 + 3 + 3);
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
    await render(site.store, a);
    await render(site.store, b);
    const files = listFiles(a).sort();
    expect(listFiles(b).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
  });

  it('rewrites only the files whose answer changed after one more day is ingested', async () => {
    const dir = tempDir();
    const db = await buildStore(dir);
    const publish = join(dir, 'publish');
    let store = openStore(db, { readonly: true });
    const first = await render(store, publish);
    store.close();

    const next = SITE_SPAN.to + 1;
    store = openStore(db);
    const sample = new SampleProvider();
    await ingest({ store, pollen: sample, weather: sample, cities: SITE_CITIES.map((c) => cityBySlug(c)!), span: { from: next, to: next } });
    store.close();
    store = openStore(db, { readonly: true });
    const second = await render(store, publish);
    store.close();

    const date = dayString(next);
    const expected = [
      ...SITE_CITIES.flatMap((c) => [`data/pollen/${c}/${date}.json`, `data/pollen/${c}.json`, `data/weather/${c}/${date}.json`, `data/weather/${c}.json`]),
      `data/pollen/by-date/${date}.json`, 'data/pollen/latest.json',
      `data/weather/by-date/${date}.json`, 'data/weather/latest.json',
      `data/map-data/${date}.json`, 'data/map-data/latest.json',
      'data/available-dates.json', 'data/latest-date.json',
    ];
    expect(second.written.sort()).toEqual(expected.sort());
    expect(second.written.length).toBeLessThanOrEqual(SITE_CITIES.length * 8 + 20);
    expect(second.files).toBe(first.files + 2 * SITE_CITIES.length + 3);
    expect(second.removed).toBe(0);

    // Skipping unaffected files must not change the result: a fresh full render is identical.
    store = openStore(db, { readonly: true });
    const fresh = join(dir, 'fresh');
    await render(store, fresh);
    store.close();
    const names = listFiles(publish).sort();
    expect(listFiles(fresh).sort()).toEqual(names);
    for (const f of names) expect(readFileSync(join(fresh, f)).equals(readFileSync(join(publish, f))), f).toBe(true);
  });

  it('leaves the previous render whole and served when killed midway', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['atlanta', 'boise', 'chicago', 'dallas', 'denver', 'miami', 'tulsa', 'seattle'], { from: SITE_SPAN.from - 60, to: SITE_SPAN.to });
    const publish = join(dir, 'publish');
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    const served = readlinkSync(publish);
    const before = new Map(listFiles(publish).map((f) => [f, readFileSync(join(publish, f))]));

    // Kill the next render once it has written part of its new folder.
    const renders = `${publish}.renders`;
    const killed = await runCli(['render', '--db', db, '--publish', publish], {
      killWhen: () => readdirSync(renders).some((d) => d !== served.split('/').pop() && existsSync(join(renders, d, 'data', 'pollen')) && listFiles(join(renders, d)).length > 200),
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(readlinkSync(publish)).toBe(served);
    expect(listFiles(publish).length).toBe(before.size);
    for (const [f, bytes] of before) expect(readFileSync(join(publish, f)).equals(bytes), f).toBe(true);

    // The next render finishes and clears the half-written folder.
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    expect(readdirSync(renders)).toHaveLength(1);
  });
});

describe('an incremental render after a past day changes', () => {
  it('rewrites that day, its city lists and the three maps that show it, matching a full render', async () => {
    const dir = tempDir();
    const db = await buildStore(dir);
    const publish = join(dir, 'publish');
    let store = openStore(db, { readonly: true });
    await render(store, publish);
    store.close();

    const day = SITE_SPAN.from + 3;
    store = openStore(db);
    const hours = store.hours('wichita', day * 24, day * 24 + 24).map(({ timezone: _t, source: _s, ...h }) => ({ ...h, tree: (h.tree ?? 0) * 2 + 1 }));
    store.writeCityDay({ city: 'wichita', day, pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: Date.now(), hours } });
    store.close();
    store = openStore(db, { readonly: true });
    const again = await render(store, publish);
    const fresh = join(dir, 'fresh');
    await render(store, fresh);
    store.close();

    const d = (k: number) => dayString(day + k);
    expect(again.written.sort()).toEqual(
      [`data/pollen/wichita/${d(0)}.json`, 'data/pollen/wichita.json', `data/pollen/by-date/${d(0)}.json`, `data/map-data/${d(0)}.json`, `data/map-data/${d(1)}.json`, `data/map-data/${d(2)}.json`].sort(),
    );
    for (const f of listFiles(fresh)) expect(readFileSync(join(fresh, f)).equals(readFileSync(join(publish, f))), f).toBe(true);
  });
});
