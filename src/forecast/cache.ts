/**
 * Where forecasts are cached and upstream calls counted: a small interface with a SQLite
 * implementation (local) and a Netlify Blobs one (deployed, where the file system is read-only).
 */
import { getStore } from '@netlify/blobs';
import type { CachedForecast, Store } from '../store/store.js';

export interface ForecastCache {
  read(city: string): Promise<CachedForecast | undefined>;
  write(city: string, forecast: CachedForecast): Promise<void>;
  /** Upstream calls made to `provider` on a UTC day (`YYYY-MM-DD`), any purpose. */
  callsOn(provider: string, day: string): Promise<number>;
  countCall(provider: string, day: string): Promise<void>;
}

/** The cache in a writable SQLite store. */
export class SqliteForecastCache implements ForecastCache {
  constructor(private readonly store: Store) {}

  async read(city: string) {
    return this.store.cachedForecast(city);
  }

  async write(city: string, forecast: CachedForecast) {
    this.store.putForecast(city, forecast);
  }

  async callsOn(provider: string, day: string) {
    const calls = this.store.callsOn(provider, day);
    return calls.ingest + calls.forecast;
  }

  async countCall(provider: string, day: string) {
    this.store.recordCalls(provider, day, 'forecast');
  }
}

type BlobStore = ReturnType<typeof getStore>;

/**
 * The cache in Netlify Blobs, one JSON blob per city and one counter per provider-day. Counters
 * are read-modify-write, so concurrent instances may undercount slightly; the budget keeps a margin.
 */
export class BlobsForecastCache implements ForecastCache {
  private readonly blobs: BlobStore;

  constructor(blobs?: BlobStore) {
    this.blobs = blobs ?? getStore({ name: 'forecast-cache', consistency: 'strong' });
  }

  async read(city: string) {
    return ((await this.blobs.get(`forecast/${city}`, { type: 'json' })) as CachedForecast | null) ?? undefined;
  }

  async write(city: string, forecast: CachedForecast) {
    await this.blobs.setJSON(`forecast/${city}`, forecast);
  }

  async callsOn(provider: string, day: string) {
    return ((await this.blobs.get(`calls/${provider}/${day}`, { type: 'json' })) as number | null) ?? 0;
  }

  async countCall(provider: string, day: string) {
    await this.blobs.setJSON(`calls/${provider}/${day}`, (await this.callsOn(provider, day)) + 1);
  }
}
