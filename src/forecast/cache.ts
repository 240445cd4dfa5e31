/**
 * Where forecasts are cached and upstream calls counted: a small interface with a SQLite
 * implementation (local) and a Netlify Blobs one (deployed, where the file system is read-only).
 */

import { getStore } from '@netlify/blobs';
import { boundedFetch } from '../deploy-data/blobs-fetch.js';
import type { City } from '../domain/cities.js';
import type { CachedForecast, Store } from '../store/store.js';
import { FORECAST_CACHE_STORE, fetchKey, keptForecast } from './kept.js';

export type { CachedForecast } from '../store/store.js';

export interface ForecastCache {
  /** The city's forecast `provider` made, if cached. */
  read(provider: string, city: string): Promise<CachedForecast | undefined>;
  /** Caches the city's forecast as its provider's (`forecast.source`). */
  write(city: string, forecast: CachedForecast): Promise<void>;
  /** Keeps a fetched forecast as issued, for the next build to score (kept.ts). */
  keep(place: City, forecast: CachedForecast): Promise<void>;
  /** Upstream calls made to `provider` on a UTC day (`YYYY-MM-DD`), any purpose. */
  callsOn(provider: string, day: string): Promise<number>;
  countCall(provider: string, day: string): Promise<void>;
}

/** The cache in a writable SQLite store. */
export class SqliteForecastCache implements ForecastCache {
  constructor(private readonly store: Store) {}

  async read(provider: string, city: string) {
    return this.store.forecasts.get(city, provider);
  }

  async write(city: string, forecast: CachedForecast) {
    this.store.forecasts.put(city, forecast);
  }

  /** In the cache's own store, as the store keeps forecasts: a build reads them from there. */
  async keep(place: City, forecast: CachedForecast) {
    this.store.issued.keep(place.slug, keptForecast(forecast, 'function'));
  }

  async callsOn(provider: string, day: string) {
    const calls = this.store.ledger.callsOn(provider, day);
    return calls.ingest + calls.forecast;
  }

  async countCall(provider: string, day: string) {
    this.store.ledger.record(provider, day, 'forecast');
  }
}

type BlobStore = ReturnType<typeof getStore>;

/**
 * A city's forecast blob: under `forecast-hours/` since it holds hours, so a blob of answer rows
 * written before is never read; by provider, since a site's deploys share its Blobs, and a deploy of
 * another provider (a preview on the sample) would otherwise replace the entry the site's function
 * then fetches again, spending its budget.
 */
const forecastKey = (provider: string, city: string) => `forecast-hours/${provider}/${city}`;
/** The city's blob before entries were kept by provider: read no more, deleted when the city's entry is next written. */
const unkeyedForecastKey = (city: string) => `forecast-hours/${city}`;

/** Attempts at a counter increment before giving up (each loses only to another instance's increment). */
const COUNTER_ATTEMPTS = 8;

/**
 * The cache in Netlify Blobs, one JSON blob per city and one counter per provider-day. A counter
 * is incremented with a conditional write (`onlyIfNew`, then `onlyIfMatch` on the ETag read), so
 * two instances counting at once both count: the one that loses the race reads again and retries.
 */
export class BlobsForecastCache implements ForecastCache {
  private readonly blobs: BlobStore;

  constructor(blobs?: BlobStore) {
    // Each request to Blobs bounded (served/blobs-fetch.ts): an outage costs a request seconds, not the client's 25 s of retries.
    this.blobs = blobs ?? getStore({ name: FORECAST_CACHE_STORE, consistency: 'strong', fetch: boundedFetch() });
  }

  async read(provider: string, city: string) {
    return ((await this.blobs.get(forecastKey(provider, city), { type: 'json' })) as CachedForecast | null) ?? undefined;
  }

  async write(city: string, forecast: CachedForecast) {
    // One delete beside a write the refresh makes anyway, rather than a sweep of the store.
    await Promise.all([this.blobs.setJSON(forecastKey(forecast.source, city), forecast), this.blobs.delete(unkeyedForecastKey(city))]);
  }

  /** As fetched, one blob per fetch under `forecast-issued/<city>/<provider>/`: a build lists and reads them (kept.ts). */
  async keep(place: City, forecast: CachedForecast) {
    await this.blobs.setJSON(fetchKey(place.slug, forecast.source, forecast.fetchedAt), forecast);
  }

  async callsOn(provider: string, day: string) {
    return ((await this.blobs.get(`calls/${provider}/${day}`, { type: 'json' })) as number | null) ?? 0;
  }

  async countCall(provider: string, day: string) {
    const key = `calls/${provider}/${day}`;
    for (let attempt = 0; attempt < COUNTER_ATTEMPTS; attempt++) {
      // The ETag comes from the listing (a read of the local BlobsServer carries none), taken before
      // the value: the value read is then as new as the ETag or newer, never older, so a write
      // from a stale value always fails its condition.
      const listed = (await this.blobs.list({ prefix: key })).blobs.find((b) => b.key === key);
      const result = listed
        ? await this.blobs.setJSON(key, Number(await this.blobs.get(key, { type: 'json' })) + 1, { onlyIfMatch: listed.etag })
        : await this.blobs.setJSON(key, 1, { onlyIfNew: true });
      // @netlify/blobs reports a conditional write refused for any status but 412 as modified with
      // no ETag (its store.ts), so only a write that came back with one has counted.
      if (result.modified && result.etag) return;
      if (result.modified) throw new Error(`the call counter ${key} could not be written`);
    }
    throw new Error(`the call counter ${key} kept changing: ${COUNTER_ATTEMPTS} attempts lost to other instances`);
  }
}
