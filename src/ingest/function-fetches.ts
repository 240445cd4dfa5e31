/**
 * Where a build reads the forecasts the forecast function fetched (keep-forecasts.ts): the site's
 * Blobs, or the local forecast cache, a SQLite store of its own. Apart from forecast/kept.ts so
 * that the functions, which import that, carry no SQLite.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { getStore } from '@netlify/blobs';
import { blobFetches, FETCHES_PREFIX, type FetchedForecasts, FORECAST_CACHE_STORE } from '../forecast/kept.js';
import { forecastCachePath, settingsOf } from '../settings.js';
import { openStore, type Store, StoreVersionError } from '../store/store.js';

/** The fetches the local forecast cache kept in its own store (SqliteForecastCache.keep): read where they are, never forgotten there. */
export function storeFetches(cache: Store): FetchedForecasts {
  return async function* () {
    for (const { city, forecast } of cache.issued.all())
      yield { city, fetchedAt: forecast.issuedAt, read: async () => forecast, forget: async () => {} };
  };
}

/**
 * Where a build reads the forecast function's fetches: the site's Blobs, read over Netlify's API
 * with NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (as the store's snapshot is: @netlify/blobs README,
 * "API access"); else `db`'s own local forecast cache (`forecastCachePath`) when there is one
 * and it is another file than `db`; else nowhere. `close` closes what was opened.
 */
export function functionFetches(
  db: string,
  env: NodeJS.ProcessEnv = process.env,
): { fetched: FetchedForecasts; close: () => void } | undefined {
  const s = settingsOf(env);
  if (s.NETLIFY_SITE_ID && s.NETLIFY_AUTH_TOKEN) {
    const blobs = getStore({ name: FORECAST_CACHE_STORE, siteID: s.NETLIFY_SITE_ID, token: s.NETLIFY_AUTH_TOKEN, consistency: 'strong' });
    return { fetched: blobFetches(blobs, FETCHES_PREFIX), close: () => {} };
  }
  const path = resolve(forecastCachePath(db, s));
  if (path === resolve(db) || !existsSync(path)) return undefined;
  const cache = openCacheToRead(path);
  return { fetched: storeFetches(cache), close: () => cache.close() };
}

/**
 * The local cache, read-only: a server may hold it as its writer (`npm start` beside an ingest), and a
 * reader neither waits for it nor changes the file. A cache an older version of this code wrote is
 * brought to this one's schema first, as a writer, as any store a command opens.
 */
function openCacheToRead(path: string): Store {
  try {
    return openStore(path, { readonly: true });
  } catch (error) {
    if (!(error instanceof StoreVersionError)) throw error;
    openStore(path).close();
    return openStore(path, { readonly: true });
  }
}
