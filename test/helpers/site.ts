import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import { offsetMinutes } from '../../src/domain/day-cuts.js';
import { ingest } from '../../src/ingest/ingest.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { type RenderSummary, render } from '../../src/render/render.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ROOT } from './cli.js';
import { dayAfter, setClock } from './clock.js';

export const SITE_CITIES = ['austin', 'honolulu', 'scranton', 'wichita'];
export const SITE_SPAN = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-10') };

export interface Site {
  /** The instant the site's server takes as now (its `POLLEN_NOW`), and the pages opened on it should. */
  now: number;
  dir: string;
  db: string;
  publish: string;
  store: Store;
  rendered: RenderSummary;
  server: RunningServer;
  get: (pathAndQuery: string, init?: RequestInit) => Promise<Response>;
}

/** Ingests the sample's days of `span` for slugs of the built-in set into an open store, as a build's next day does. */
export async function ingestSample(store: Store, slugs: readonly string[], span: { from: number; to: number }): Promise<void> {
  const sample = new SampleProvider();
  await ingest({ store, pollen: sample, weather: sample, cities: slugs.map((c) => DEFAULT_CITIES.get(c)!), span });
}

/** Fills a small sample store: the given slugs of the built-in set, or a city set of its own. */
export async function buildStore(dir: string, cities: string[] | readonly City[] = SITE_CITIES, span = SITE_SPAN): Promise<string> {
  const db = join(dir, 'pollen.db');
  const store = openStore(db);
  const sample = new SampleProvider();
  const chosen = cities.map((c) => (typeof c === 'string' ? DEFAULT_CITIES.get(c)! : c));
  if (typeof cities[0] !== 'string') store.cities.replace(chosen);
  await ingest({ store, pollen: sample, weather: sample, cities: chosen, span });
  store.close();
  return db;
}

export interface SiteOptions {
  /** Slugs of the built-in set, or a set of its own. */
  cities?: string[] | readonly City[];
  span?: { from: number; to: number };
  queryMatching?: 'lenient' | 'exact';
  /** The server's now: by default 15:00 UTC on the day after the span's last day. */
  now?: number;
  /** Writes to the store before the render (data the sample provider never makes). */
  prepare?: (store: Store) => void | Promise<void>;
}

/** A sample store of its own, rendered and served on 127.0.0.1 for the suite (by default 4 cities, 2025-04-01..10). */
export function useSite(options: SiteOptions = {}): Site {
  const site = { now: options.now ?? dayAfter((options.span ?? SITE_SPAN).to) } as Site;
  let restoreClock: (() => void) | undefined;
  beforeAll(async () => {
    site.dir = mkdtempSync(join(tmpdir(), 'pollen-site-'));
    site.db = await buildStore(site.dir, options.cities, options.span);
    if (options.prepare) {
      const writable = openStore(site.db);
      await options.prepare(writable);
      writable.close();
    }
    site.store = openStore(site.db, { readonly: true });
    site.publish = join(site.dir, 'publish');
    site.rendered = await render(site.store, site.publish);
    process.env.POLLEN_DB = site.db;
    process.env.FORECAST_CACHE_DB = join(site.dir, 'forecast-cache.db');
    restoreClock = setClock(site.now);
    site.server = await serve({ root: ROOT, publishDir: site.publish, port: 0, queryMatching: options.queryMatching });
    site.get = (p, init) => fetch(site.server.url + p, init);
  });
  afterAll(async () => {
    await site.server?.close();
    restoreClock?.();
    site.store?.close();
    rmSync(site.dir, { recursive: true, force: true });
  });
  return site;
}

/**
 * A sample site of `slugs` at the instant `now`: 400 days to the day before the first city's
 * calendar day, and the forecasts and outlooks a build keeps at `now`: the outlook it issues for
 * that day reaches 7 days ahead.
 */
export function useSiteToToday(slugs: string[], now: number): Site {
  // The first city's calendar day at `now`.
  const local = now + offsetMinutes(DEFAULT_CITIES.get(slugs[0]!)!.timezone, now) * 60_000;
  const yesterday = Math.floor(local / DAY_MS) - 1;
  return useSite({
    now,
    cities: slugs,
    span: { from: yesterday - 399, to: yesterday },
    prepare: async (store) => {
      const cities = slugs.map((slug) => DEFAULT_CITIES.get(slug)!);
      await keepForecasts({ store, providers: [new SampleProvider()], cities, now, serveDays: 730 });
    },
  });
}
