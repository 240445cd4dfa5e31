import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNTIL_DEPLOY_CDN_CACHE } from '../../src/api/http/cdn.js';
import { requestForFile } from '../../src/api/http/file-requests.js';
import { ROUTES } from '../../src/api/routes.js';
import { dayString } from '../../src/domain/dates.js';
import { listFiles, RenderError, type RenderSummary, render } from '../../src/render/render.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { buildStore, SITE_SPAN } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITY_DAY = /^data\/(pollen|weather)\/(?!by-date\/)[a-z0-9-]+\/\d{4}-\d{2}-\d{2}\.json$/;
const cityDayFiles = (dir: string) => listFiles(dir).filter((f) => CITY_DAY.test(f));
const dayOf = (file: string) => /(\d{4}-\d{2}-\d{2})\.json$/.exec(file)![1]!;

describe('the deploy file budget', () => {
  let dir: string;
  let store: Store;
  let full: RenderSummary;
  beforeAll(async () => {
    dir = tempDir();
    store = openStore(await buildStore(dir), { readonly: true });
    full = await render(store, join(dir, 'full'), { maxFiles: 100_000 });
  });
  afterAll(() => store.close());

  it('renders every city-day when the budget allows, and says so', () => {
    // 4 cities x 10 days, pollen and weather.
    expect(full.plan.cityDayDays).toBe(10);
    expect(full.plan.cityDayFiles).toBe(2 * 4 * 10);
    expect(full.files).toBe(full.plan.always + 80);
    expect(listFiles(join(dir, 'full'))).toHaveLength(full.files);
  });

  it.each([
    ['exactly the always-rendered files', 0, 0],
    ['one file short of a whole day', 7, 0],
    ['one whole day', 8, 1],
    ['three days and a part', 3 * 8 + 5, 3],
    ['every day', 80, 10],
  ])('with room for %s, renders the newest whole days that fit and never more files than the budget', async (_, room, days) => {
    const out = join(tempDir(), 'publish');
    const budget = full.plan.always + room;
    const summary = await render(store, out, { maxFiles: budget });
    const files = listFiles(out);
    expect(files.length).toBeLessThanOrEqual(budget);
    expect(files).toHaveLength(summary.files);
    expect(summary.plan.cityDayDays).toBe(days);
    const newest = Array.from({ length: days }, (_, i) => dayString(SITE_SPAN.to - i)).sort();
    expect([...new Set(cityDayFiles(out).map(dayOf))].sort()).toEqual(newest);
    expect(cityDayFiles(out)).toHaveLength(days * 8);
  });

  it('refuses, before writing anything, a budget smaller than the always-rendered files, saying how many days fit', async () => {
    const out = join(dir, 'full');
    const before = readdirSync(`${out}.renders`);
    // The always-rendered files: per city and once, plus 5 a day across cities (pollen, local pollen, two maps, weather).
    const perDay = 5;
    const budget = full.plan.always - 3 * perDay - 1; // 4 days' files short, less one: 6 of the 10 days fit
    const error = await render(store, out, { maxFiles: budget }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(
      `the files rendered in every deploy (${full.plan.always}: ${full.plan.always - 10 * perDay} made once or per city, and ${10 * perDay} for 10 days across cities) exceed DEPLOY_MAX_FILES=${budget}; ` +
        '6 days fit: serve at most 6 days (SERVE_DAYS=6), fewer cities, or raise DEPLOY_MAX_FILES. Nothing was written.',
    );
    expect(readdirSync(`${out}.renders`)).toEqual(before);
    expect(listFiles(out)).toHaveLength(full.files);
  });

  it('exits 1 from the command line over budget, and reads DEPLOY_MAX_FILES', async () => {
    const out = join(tempDir(), 'publish');
    const over = await runCli(['render', '--publish', out], { env: { POLLEN_DB: store.path, DEPLOY_MAX_FILES: '10' } });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain(
      'exceed DEPLOY_MAX_FILES=10; no day fits even then: serve fewer cities, or raise DEPLOY_MAX_FILES. Nothing was written.',
    );
    expect(existsSync(out)).toBe(false);
    const bad = await runCli(['render', '--publish', out], { env: { POLLEN_DB: store.path, DEPLOY_MAX_FILES: 'many' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('DEPLOY_MAX_FILES must be a whole number of files of at least 1 (got "many")');
    const fits = await runCli(['render', '--publish', out], {
      env: { POLLEN_DB: store.path, DEPLOY_MAX_FILES: String(full.plan.always + 16) },
    });
    expect(fits.code).toBe(0);
    expect(fits.stdout).toContain(
      `${full.plan.always + 16} of DEPLOY_MAX_FILES=${full.plan.always + 16} files: ${full.plan.always} always, and the city-day files of the newest 2 days (from ${dayString(SITE_SPAN.to - 1)})`,
    );
  });

  describe('served with a small budget', () => {
    let small: string;
    let server: RunningServer;
    beforeAll(async () => {
      small = join(tempDir(), 'publish');
      await render(store, small, { maxFiles: full.plan.always + 2 * 8 });
      process.env.POLLEN_DB = store.path;
      server = await serve({ root: ROOT, publishDir: small, port: 0 });
    });
    afterAll(() => server.close());

    it('answers every city-day identically, from a file or from the fallback function, the latter cached at the CDN until the next deploy', async () => {
      let fromFunction = 0;
      const rendered = new Set(listFiles(small));
      for (const file of listFiles(join(dir, 'full')).filter(
        (f) => f.startsWith('data/') && f !== 'data/fallback' && !f.startsWith('data/bulk/'),
      )) {
        const request = requestForFile(`/${file}`, new URLSearchParams())!;
        const res = await fetch(`${server.url}${request.path}?${request.query}`);
        expect(res.status, file).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dir, 'full', file))), file).toBe(true);
        if (!rendered.has(file)) {
          fromFunction++;
          expect(res.headers.get('netlify-cdn-cache-control'), file).toBe(UNTIL_DEPLOY_CDN_CACHE);
          expect(res.headers.get('cache-control'), file).toBe('public, max-age=300, s-maxage=300, stale-while-revalidate=600');
        }
      }
      expect(fromFunction).toBe(8 * 8);
    });

    it('caches until the next deploy only the answers of rendered routes and of nearest, which changes with deploys alone', async () => {
      expect(ROUTES.filter((r) => r.forms.length === 0 && !r.untilDeploy).map((r) => r.path)).toEqual([
        '/api/pollen-range',
        '/api/forecast',
        '/api/forecast-map',
        '/api/alerts',
        '/api/health',
      ]);
      expect(ROUTES.filter((r) => r.untilDeploy).map((r) => r.path)).toEqual(['/api/nearest']);
      const range = await fetch(`${server.url}/api/pollen-range?from=2025-04-01&to=2025-04-02&city=austin`);
      expect(range.headers.get('netlify-cdn-cache-control')).toBe('public, durable, s-maxage=300, stale-while-revalidate=600');
      const missing = await fetch(`${server.url}/api/pollen?city=austin&date=2025-13-01`);
      expect(missing.status).toBe(400);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      expect(missing.headers.get('netlify-cdn-cache-control')).toBeNull();
    });
  });
});
