/**
 * A chain of pollen providers, `POLLEN_PROVIDERS=atmospore,ambee`, through the real clients and
 * the CLI's ingest: fourteen daily runs fill three cities from Atmospore (a loopback answering in
 * its recorded format, test/fixtures/atmospore-*.json), whose days are one value each; on the
 * last run Atmospore answers 429 (its daily quota) for Tulsa, and Ambee (the loopback replay in
 * its v3 format) fills Tulsa's day. Then every daily answer holds Atmospore's days as it said
 * them, each value names its provider, the hourly answers of its days say why they have none,
 * each provider's forecasts are kept as issued, and no key appears anywhere.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayString, HOUR_MS } from '../../src/domain/dates.js';
import { parseIngestArgs } from '../../src/ingest/args.js';
import type { IngestSummary } from '../../src/ingest/ingest.js';
import { runIngest } from '../../src/ingest/run.js';
import { render } from '../../src/render/render.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type AtmosporeEntry, atmosporeCategory } from '../helpers/atmospore.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

type Json = Record<string, any>;

const ATMOSPORE_KEY = 'ak_chain-key-91b3f0';
const AMBEE_KEY = 'ambee-chain-key-4e7d';
const CITIES = ['austin', 'new-york', 'tulsa'];
/** The fixtures' fortnight: Atmospore's dates, each city's own. */
const D0 = dayNumber('2025-04-01');
const DAYS = 14;
/** Each run is the build's, at 06:30 UTC on the day after the one it ingests. */
const runAt = (k: number) => (D0 + k + 1) * DAY_MS + 6.5 * HOUR_MS;
const LAST = runAt(DAYS - 1);

/** Each city's fixture items, by date: the day's value as Atmospore said it. */
const items = new Map(CITIES.map((slug) => [slug, fixture(`atmospore-${slug}.json`)]));
type Item = Json & { species: Record<string, Json & AtmosporeEntry> };
const itemOf = (slug: string, day: number): Item => {
  const data = items.get(slug)!.data as Item[];
  // Dates past the fortnight (a forecast's) repeat it: the loopback still answers in the recorded form.
  const item = data[(((day - D0) % DAYS) + DAYS) % DAYS]!;
  return { ...item, date: dayString(day) };
};
const cityAt = (url: URL) =>
  CITIES.find((slug) => {
    const c = DEFAULT_CITIES.get(slug)!;
    return Number(url.searchParams.get('lat')) === c.lat && Number(url.searchParams.get('lon')) === c.lon;
  })!;

let atmospore: ScriptedServer;
let replay: ReplayServer;
let dir: string;
let db: string;
let store: Store;
let server: RunningServer;
let now = runAt(0);
/** Whether Atmospore refuses Tulsa for quota (the last run). */
let refuseTulsa = false;
const logs: string[] = [];
const summaries: IngestSummary[] = [];

const env = () => ({
  POLLEN_PROVIDERS: 'atmospore,ambee',
  ATMOSPORE_API_KEY: ATMOSPORE_KEY,
  ATMOSPORE_BASE_URL: atmospore.url,
  AMBEE_API_KEY: AMBEE_KEY,
  AMBEE_BASE_URL: replay.url,
  HTTP_RETRIES: '0',
  FORECAST_CACHE_DB: join(dir, 'forecast-cache.db'),
});

async function ingestRun(k: number): Promise<void> {
  now = runAt(k);
  refuseTulsa = k === DAYS - 1;
  const text: string[] = [];
  const sink = new Writable({
    write: (chunk, _e, done) => {
      text.push(String(chunk));
      done();
    },
  });
  const args = parseIngestArgs({ cities: CITIES.join(','), db, weather: 'sample', days: '1' }, Math.floor(now / DAY_MS), db, env());
  const summary = await runIngest(args, sink, sink, { env: env(), now: () => now });
  summaries.push(summary!);
  logs.push(text.join(''));
}

const get = async (path: string): Promise<Json> => {
  const res = await fetch(server.url + path);
  expect(res.status, path).toBe(200);
  const text = await res.text();
  for (const key of [ATMOSPORE_KEY, AMBEE_KEY]) expect(text, path).not.toContain(key);
  return JSON.parse(text) as Json;
};

beforeAll(async () => {
  atmospore = await scriptedServer();
  atmospore.on(
    (url) => url.pathname === '/v1/pollen',
    (req) => {
      const slug = cityAt(req.url);
      if (refuseTulsa && slug === 'tulsa')
        return { status: 429, body: { error: 'Daily API quota exceeded', limit: 100, used: 101, resets_at: '2025-04-15T00:00:00Z' } };
      const from = dayNumber(req.url.searchParams.get('dt')!);
      const n = Number(req.url.searchParams.get('forecast_days'));
      const base = items.get(slug)!;
      return { status: 200, body: { meta: base.meta, data: Array.from({ length: n }, (_, i) => itemOf(slug, from + i)) } };
    },
    10_000,
  );
  replay = await startReplayServer(AMBEE_KEY);
  replay.options = { now: () => now, ambeeHistoryHours: 48 };
  dir = mkdtempSync(join(tmpdir(), 'pollen-chain-'));
  db = join(dir, 'pollen.db');
  for (let k = 0; k < DAYS; k++) await ingestRun(k);
  store = openStore(db, { readonly: true });
  // Rendered and served as at the last run: the site's clock.
  process.env.POLLEN_NOW = new Date(LAST).toISOString();
  await render(store, join(dir, 'publish'));
  process.env.POLLEN_DB = db;
  // The functions read the same chain and keys (and the loopbacks) from their environment.
  Object.assign(process.env, env());
  server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
}, 300_000);

afterAll(async () => {
  await server?.close();
  store?.close();
  await replay?.close();
  await atmospore?.close();
  for (const name of ['POLLEN_NOW', 'POLLEN_DB', ...Object.keys(env())]) delete process.env[name];
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const browser = useBrowser({ now: LAST });

describe.skipIf(!hasChromium)("the city panel of Atmospore's days, on a phone", () => {
  it('draws no hours from a day or a forecast of days, says why in plain words, and fits the phone', async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${server.url}/?city=austin`);
      await page.waitForSelector('#panel section.alerts');
      const text = (await page.locator('#panel').textContent()) ?? '';
      expect(text).toContain('Atmospore gives one value a day, not hours.');
      expect(text).toContain('Atmospore forecasts one value a day, not hours: its days are in the strip above.');
      // No hourly chart (the day's, or the forecast's): there are no hours to draw.
      const charts = await page.locator('#panel svg.chart').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label') ?? ''));
      expect(charts.filter((label) => /^Hourly|^48-hour forecast/.test(label))).toEqual([]);
      // Today and tomorrow from Atmospore's days, its 25 plants in the picker, all inside the phone.
      const days = (await get('/api/forecast?city=austin&aggregate=day&timezone=local&days=7')) as Json;
      expect(await page.locator('#panel .today .day-level').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-date')))).toEqual(
        (days.rows as Json[]).slice(0, 2).map((r) => r.date),
      );
      await page.locator('.allergen-picker summary').click();
      expect(await page.locator('.allergen-picker label').count()).toBeGreaterThan(10);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await page.close();
    }
  });
});

describe('a chain of pollen providers, atmospore then ambee', () => {
  it("ingests fourteen days of three cities from Atmospore, one request a city a run, and Tulsa's last day from Ambee after a 429", () => {
    for (const [k, s] of summaries.slice(0, -1).entries()) {
      expect(s.providers.atmospore, `run ${k}`).toEqual({ cityDays: 3, calls: 3 });
      expect(s.providers.ambee, `run ${k}`).toEqual({ cityDays: 0, calls: 0 });
      expect(s.dailyValues, `run ${k}`).toBe(3);
    }
    const last = summaries.at(-1)!;
    expect(last.providers).toEqual({ atmospore: { cityDays: 2, calls: 3 }, ambee: { cityDays: 1, calls: 1 } });
    expect(last.stopped.atmospore).toMatch(/quota/i);
    expect(last.failed).toEqual([]);
    expect(logs.at(-1)).toMatch(/atmospore: gave 2 pollen city-days for 3 requests/);
    expect(logs.at(-1)).toMatch(/ambee: gave 1 pollen city-days for 1 requests/);
    // The stored days: Atmospore's one value each (no hour), Tulsa's last Ambee's hours.
    for (const slug of CITIES) {
      const days = store.pollen.storedDays(slug, D0, D0 + DAYS - 1);
      expect(days.size, slug).toBe(DAYS);
      for (const [day, d] of days) {
        const ambee = slug === 'tulsa' && day === D0 + DAYS - 1;
        const hours = store.pollen.hours(slug, day * 24, day * 24 + 24).length;
        if (!ambee) expect([d.source, d.status, hours], `${slug} ${dayString(day)}`).toEqual(['atmospore', 'complete', 0]);
        // The replay's model leaves an hour out now and then: Ambee's day is complete or nearly.
        else expect([d.source, hours >= 23], `${slug} ${dayString(day)}`).toEqual(['ambee', true]);
      }
    }
  });

  it("gives each city's daily rows as Atmospore said them, in UTC and local days, as the rendered file does", async () => {
    const body = await get('/api/pollen?city=austin');
    expect(body).toMatchObject({ city: 'austin', provider: 'atmospore' });
    expect(body).not.toHaveProperty('simulated');
    expect(body.rows.map((r: Json) => r.date)).toEqual(Array.from({ length: DAYS }, (_, i) => dayString(D0 + DAYS - 1 - i)));
    for (const row of body.rows) {
      const item = itemOf('austin', dayNumber(row.date));
      expect([row.tree, row.grass, row.weed], row.date).toEqual([
        Math.round(atmosporeCategory(item, 'tree')),
        Math.round(atmosporeCategory(item, 'grass')),
        Math.round(atmosporeCategory(item, 'weed')),
      ]);
      // Oak is Oak and ragweed is Weed's Ragweed, whoever says it; Atmospore's own words stay apart from NAB's.
      expect(row.species.Tree.Oak, row.date).toBe(Math.round(item.species.oak!.value));
      expect(row.species.Weed.Ragweed, row.date).toBe(Math.round(item.species.ambrosia!.value));
      expect(['None', 'Low', 'Moderate', 'High', 'Very High']).toContain(row.risk_tree);
      // The day's one value is its peak (unrounded, as peaks are): no hourly maximum was made from it.
      expect(row.peak_tree).toBeCloseTo(atmosporeCategory(item, 'tree'), 6);
    }
    expect(JSON.parse(readFileSync(join(dir, 'publish', 'data/pollen/austin.json'), 'utf8'))).toEqual(body);
    const local = await get('/api/pollen?city=austin&timezone=local');
    expect(local.rows.map((r: Json) => [r.date, r.tree, r.hours])).toEqual(body.rows.map((r: Json) => [r.date, r.tree, 0]));
  });

  it("says per value which provider it is from: Tulsa's days list both, its last Ambee's", async () => {
    const body = await get('/api/pollen?city=tulsa');
    expect(body).toMatchObject({ provider: null, providers: ['ambee', 'atmospore'] });
    expect(body.rows[0]).toMatchObject({ date: dayString(D0 + DAYS - 1), providers: ['ambee'] });
    expect(body.rows.slice(1).every((r: Json) => r.providers.join() === 'atmospore')).toBe(true);
    const across = await get(`/api/pollen?date=${dayString(D0 + DAYS - 1)}`);
    expect(Object.fromEntries(across.rows.map((r: Json) => [r.city, r.source]))).toEqual({
      austin: 'atmospore',
      'new-york': 'atmospore',
      tulsa: 'ambee',
    });
    const map = await get(`/api/map-data?date=${dayString(D0 + 5)}`);
    const austin = map.features.find((f: Json) => f.properties.city === 'austin');
    expect(austin.properties.tree).toBeCloseTo(atmosporeCategory(itemOf('austin', D0 + 5), 'tree'), 6);
  });

  it('answers the hours of an Atmospore day with no rows, saying it gives one value a day and where the day is', async () => {
    for (const query of ['', '&timezone=local']) {
      const body = await get(`/api/pollen?city=austin&date=${dayString(D0 + 3)}${query}`);
      expect(body.rows).toEqual([]);
      expect(body.provider).toBe('atmospore');
      expect(body.daily_only).toEqual({
        provider: 'atmospore',
        note: `atmospore gives one value a day, not hours: the day is a daily row of /api/pollen?city=austin${query}`,
      });
    }
    // An Ambee day's hours are hours, as ever.
    const tulsa = await get(`/api/pollen?city=tulsa&date=${dayString(D0 + DAYS - 1)}`);
    expect([tulsa.rows.length >= 23, 'daily_only' in tulsa]).toEqual([true, false]);
  });

  it("keeps each provider's forecasts as issued: Atmospore's fourteen days, Ambee's 48 hours", () => {
    for (const slug of CITIES) {
      const kept = store.issued.since(slug, 0);
      const mine = kept.filter((f) => f.source === 'atmospore');
      // One a run but the last, which stopped calling Atmospore once it refused for quota: fourteen days from the place's today.
      expect(mine.length, slug).toBe(DAYS - 1);
      for (const f of mine) {
        expect(f.days.map((d) => d.lead)).toEqual(Array.from({ length: 14 }, (_, i) => i));
        expect(f.days.every((d) => d.hours === 0)).toBe(true);
      }
      expect(kept.filter((f) => f.source === 'ambee').length, slug).toBe(DAYS);
    }
  });

  it('never shows a key in what ingest printed or a provider was asked in a path', () => {
    for (const text of logs) for (const key of [ATMOSPORE_KEY, AMBEE_KEY]) expect(text).not.toContain(key);
    expect(atmospore.seen.every((r) => !r.path.includes(ATMOSPORE_KEY) && r.headers['x-api-key'] === ATMOSPORE_KEY)).toBe(true);
  });
});
