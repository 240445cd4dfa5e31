/** Handler contexts: each service is created on first use, so a request opens only what it needs. */
import { resolve } from 'node:path';
import { BlobsForecastCache, SqliteForecastCache, type ForecastCache } from '../forecast/cache.js';
import { ForecastService } from '../forecast/service.js';
import { AMBEE_ID } from '../providers/ambee.js';
import { createProviders, DEFAULT_FORECAST_RESERVE, number } from '../providers/registry.js';
import { DEFAULT_DB_PATH, openStore, type Store } from '../store/store.js';
import type { DailyPollen } from '../domain/pollen-rows.js';
import type { ApiContext } from './handler.js';

export interface ContextParts {
  store: () => Store;
  forecast: () => ForecastService;
  dailyRows?: Map<string, DailyPollen>;
}

/** A context whose services are built by `parts` when first read. */
export function lazyContext(parts: ContextParts): ApiContext {
  let store: Store | undefined;
  let forecast: ForecastService | undefined;
  return {
    dailyRows: parts.dailyRows,
    get store() {
      return (store ??= parts.store());
    },
    get forecast() {
      return (forecast ??= parts.forecast());
    },
  };
}

export const DEFAULT_FORECAST_CACHE_PATH = 'snapshots/forecast-cache.db';

const stores = new Map<string, Store>();
const shared = (path: string, readonly: boolean): Store => {
  const key = `${readonly ? 'r' : 'w'}:${resolve(path)}`;
  let store = stores.get(key);
  if (!store) stores.set(key, (store = openStore(resolve(path), { readonly })));
  return store;
};

const services = new Map<string, ForecastService>();

/**
 * The context functions use, from the environment: the read-only store at `$POLLEN_DB`; the
 * forecast from `$POLLEN_PROVIDER` (default `sample`), cached in Netlify Blobs when deployed and
 * in `$FORECAST_CACHE_DB` otherwise, within `$FORECAST_DAILY_BUDGET` calls a day (default: none).
 */
export function environmentContext(env: NodeJS.ProcessEnv = process.env): ApiContext {
  return lazyContext({
    store: () => shared(env.POLLEN_DB ?? DEFAULT_DB_PATH, true),
    forecast: () => {
      const providerId = env.POLLEN_PROVIDER ?? 'sample';
      const onNetlify = Boolean(env.NETLIFY_BLOBS_CONTEXT ?? (globalThis as { netlifyBlobsContext?: unknown }).netlifyBlobsContext);
      const cachePath = env.FORECAST_CACHE_DB ?? DEFAULT_FORECAST_CACHE_PATH;
      const key = `${providerId}|${onNetlify ? 'blobs' : cachePath}|${env.FORECAST_DAILY_BUDGET ?? ''}`;
      let service = services.get(key);
      if (!service) {
        const cache: ForecastCache = onNetlify ? new BlobsForecastCache() : new SqliteForecastCache(shared(cachePath, false));
        // Forecasts spend the part of the provider's budget that ingest leaves them (its reserve).
        const reserve = providerId === AMBEE_ID ? number(env, 'AMBEE_FORECAST_RESERVE', DEFAULT_FORECAST_RESERVE) : null;
        const budget = env.FORECAST_DAILY_BUDGET ? number(env, 'FORECAST_DAILY_BUDGET', 0) : reserve;
        // The service counts one call per refresh, so the client makes exactly one: no retries
        // (a failed refresh serves the stale cache, and the next request tries again).
        const { pollen } = createProviders({ pollen: providerId, weather: 'sample', env: { ...env, HTTP_RETRIES: '0' } });
        services.set(key, (service = new ForecastService({ provider: pollen, cache, dailyBudget: budget })));
      }
      return service;
    },
  });
}

/** The context of a render: the store it renders, its daily-row memo, and no forecast (never rendered). */
export function storeContext(store: Store, dailyRows?: Map<string, DailyPollen>): ApiContext {
  return lazyContext({
    dailyRows,
    store: () => store,
    forecast: () => {
      throw new Error('the forecast is not part of a render');
    },
  });
}
