/**
 * Where a build reads the forecasts the forecast function fetched (keep-forecasts.ts): the site's
 * Blobs, or the local forecast cache, a SQLite store of its own. Apart from forecast/kept.ts so
 * that the functions, which import that, carry no SQLite.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { getStore } from '@netlify/blobs';
import { blobFetches, FETCHES_PREFIX, FORECAST_CACHE_STORE, type FetchedForecasts } from '../forecast/kept.js';
import { settingsOf } from '../settings.js';
import { openStore, type Store } from '../store/store.js';

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
 * "API access"); else the local forecast cache ($FORECAST_CACHE_DB) when there is one beside
 * another store than `db`; else nowhere. `close` closes what was opened.
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
  const path = resolve(s.FORECAST_CACHE_DB);
  if (path === resolve(db) || !existsSync(path)) return undefined;
  const cache = openStore(path);
  return { fetched: storeFetches(cache), close: () => cache.close() };
}
