/**
 * Forecasts kept as issued (docs/data.md, "Forecast skill"): a fetched forecast as the store
 * keeps it, and the forecasts the forecast function fetched between builds, as a build reads them:
 * from Netlify Blobs, where the deployed function keeps each fetch under `forecast-issued/`
 * (cache.ts), or from the local forecast cache's own store.
 */
import type { getStore } from '@netlify/blobs';
import type { KeptOrigin } from '../domain/verification/forecast-skill.js';
import { targetDays } from '../domain/verification/target-days.js';
import type { IssuedForecast } from '../store/issued-forecasts.js';
import type { CachedForecast } from '../store/store.js';
import { dailyForecastDays } from './kept-days.js';

/** The site's Blobs store of the forecast cache (cache.ts). */
export const FORECAST_CACHE_STORE = 'forecast-cache';

/**
 * Where the deployed cache keeps each fetch for the build: by city, provider and the instant the
 * provider answered (ms), so that two providers of a chain answering in one millisecond keep both.
 */
export const FETCHES_PREFIX = 'forecast-issued/';
export const fetchKey = (city: string, provider: string, fetchedAt: number): string => `${FETCHES_PREFIX}${city}/${provider}/${fetchedAt}`;

/**
 * A fetched forecast as the store keeps it: issued when the provider answered, with the UTC days
 * its hours cover enough, or a daily provider's dates as the build keeps them (kept-days.ts).
 */
export function keptForecast(f: CachedForecast, origin: KeptOrigin): IssuedForecast {
  const issued = { issuedAt: f.fetchedAt, source: f.source, origin };
  if (f.daily) {
    const { dayMeans, zone, days } = f.daily;
    return {
      ...issued,
      days: dailyForecastDays({ id: f.source, dayMeans }, { timezone: zone }, f.fetchedAt, { timezone: f.timezone, days }),
    };
  }
  const hours = f.hours.map((h) => ({ ...h, timezone: f.timezone }));
  // UTC days: the zone does not cut them.
  return { ...issued, days: targetDays({ issuedAt: f.fetchedAt, hours }, 'UTC', 'UTC') };
}

/**
 * One forecast the function fetched: its city and instant, how to read it, and how to forget it
 * once the store holds it for good or it is another provider's.
 */
export interface Fetched {
  city: string;
  fetchedAt: number;
  read(): Promise<IssuedForecast | undefined>;
  forget(): Promise<void>;
}

/** The forecasts the forecast function fetched and kept. */
export type FetchedForecasts = () => AsyncIterable<Fetched>;

type BlobStore = ReturnType<typeof getStore>;

/**
 * The fetches kept in Netlify Blobs (`list` with a prefix returns every page: @netlify/blobs
 * README, "list"). A key whose name does not read as `forecast-issued/<city>/<provider>/<ms>` (or
 * `<city>/<ms>`, as kept before keys named the provider) is passed over.
 */
export function blobFetches(blobs: BlobStore, prefix: string): FetchedForecasts {
  return async function* () {
    const { blobs: listed } = await blobs.list({ prefix });
    for (const { key } of listed) {
      const m = /^([a-z0-9-]+)\/(?:[a-z0-9-]+\/)?(\d{1,15})$/.exec(key.slice(prefix.length));
      if (!m) continue;
      yield {
        city: m[1]!,
        fetchedAt: Number(m[2]),
        read: async () => {
          const f = (await blobs.get(key, { type: 'json' })) as CachedForecast | null;
          return f ? keptForecast(f, 'function') : undefined;
        },
        forget: () => blobs.delete(key),
      };
    }
  };
}
