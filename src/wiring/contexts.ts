/**
 * Handler contexts (the contract's ApiContext), built where the service starts: each service is
 * created on first use, so a request opens only what it needs; and the functions' context is built
 * once per process (per environment), not per request.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { AnswerSettings, ApiContext, FetchingRead } from '../api/contract/context.js';
import { type BulkManifest, bulkIndexPath, readBulkIndex } from '../deploy-data/bulk-index.js';
import { type OutlookFile, outlookFilePath, readOutlookFile } from '../deploy-data/outlook-file.js';
import { RemoteShards } from '../deploy-data/remote-shards.js';
import { FolderShards, readShardManifest, type ShardManifest, shardFolderPath, shardManifestPath } from '../deploy-data/shard-folder.js';
import { readSiteFile, type SiteFile, servedDirPath, servedStorePath, siteFilePath } from '../deploy-data/site-file.js';
import { CitySet, cityOf, DEFAULT_CITIES } from '../domain/cities.js';
import type { ZipTable } from '../domain/geo.js';
import { type Allergen, allergensOf } from '../domain/species/allergens.js';
import { BlobsForecastCache, type ForecastCache, SqliteForecastCache } from '../forecast/cache.js';
import { ForecastCacheUnavailable, ForecastMisconfigured, ForecastService } from '../forecast/service.js';
import type { AnyPollenProvider } from '../providers/provider.js';
import { ConfigError, createProviders, forecastBudget } from '../providers/registry.js';
import { clockOf, DEFAULT_HEALTH_MAX_AGE_HOURS, forecastCachePath, MAX_BODY_BYTES, type Settings, settingsOf } from '../settings.js';
import { ShardIndex } from '../store/shards/shard-index.js';
import { ShardStore } from '../store/shards/shard-reader.js';
import type { OpenOptions, Store, StoreReader } from '../store/store.js';

export interface ContextParts {
  store: () => StoreReader;
  cities: () => CitySet;
  /** By default, the store's. */
  allergens?: () => Allergen[];
  forecast: () => ForecastService;
  settings?: Partial<AnswerSettings>;
  zips?: ZipTable;
  bulkIndex?: () => BulkManifest | undefined;
  outlooks?: () => OutlookFile | undefined;
  fetching?: ApiContext['fetching'];
}

/** A context whose services are built by `parts` when first read. */
export function lazyContext(parts: ContextParts): ApiContext {
  let store: StoreReader | undefined;
  let cities: CitySet | undefined;
  let allergens: Allergen[] | undefined;
  let forecast: ForecastService | undefined;
  let bulkIndex: { value: BulkManifest | undefined } | undefined;
  let outlooks: { value: OutlookFile | undefined } | undefined;
  return {
    settings: { now: Date.now, healthMaxAgeHours: DEFAULT_HEALTH_MAX_AGE_HOURS, maxBodyBytes: MAX_BODY_BYTES, ...parts.settings },
    zips: parts.zips,
    fetching: parts.fetching,
    get store() {
      return (store ??= parts.store());
    },
    get cities() {
      return (cities ??= parts.cities());
    },
    get allergens() {
      return (allergens ??= parts.allergens ? parts.allergens() : allergensOf(this.store.shapes.all()));
    },
    get forecast() {
      return (forecast ??= parts.forecast());
    },
    get bulkIndex() {
      return (bulkIndex ??= { value: parts.bulkIndex?.() }).value;
    },
    get outlooks() {
      return (outlooks ??= { value: parts.outlooks?.() }).value;
    },
  };
}

/**
 * How this process opens a SQLite store, where it may: the local server, the command line and the
 * tests hand it `openStore` (useSqlite). A deployed function never does, so that nft traces no
 * native module into its archive: it reads shards, and caches forecasts in Netlify Blobs.
 */
let sqlite: ((path: string, options: OpenOptions) => Store) | undefined;

/** Lets the contexts of this process open SQLite stores (the store never rendered, the local forecast cache). */
export function useSqlite(open: (path: string, options: OpenOptions) => Store): void {
  sqlite = open;
}

const stores = new Map<string, Store>();
/** The store at `path`, opened once per process; `version` tells apart the files a render renamed there in turn. */
const shared = (path: string, readonly: boolean, immutable = false, version = ''): Store => {
  if (!sqlite) throw new Error(`cannot open ${path}: this process reads no SQLite (a deployed function reads the shards in Netlify Blobs)`);
  const key = `${readonly ? 'r' : 'w'}:${resolve(path)}:${version}`;
  let store = stores.get(key);
  if (!store) stores.set(key, (store = sqlite(resolve(path), { readonly, immutable })));
  return store;
};

const services = new Map<string, ForecastService>();

/**
 * Closes every store this process opened, when it stops (a server ended by Ctrl-C): a writer's
 * close folds its WAL back into the file (Store.close), so the forecast cache stands alone.
 */
export function closeStores(): void {
  for (const store of stores.values()) store.close();
  stores.clear();
  services.clear();
}

/** The local forecast cache's store; where it cannot be opened, says why in the log and throws ForecastCacheUnavailable. */
function openCache(path: string): Store {
  try {
    return shared(path, false);
  } catch (error) {
    const unavailable = new ForecastCacheUnavailable(path, error);
    console.error(
      `forecast unavailable: ${unavailable.message} (deployed, the cache is Netlify Blobs; set FORECAST_CACHE_DB to a writable file otherwise)`,
    );
    throw unavailable;
  }
}

/** The pollen providers forecasts come from, comma-separated in order of preference, and what named them (for a message). */
interface ForecastChain {
  chain: string;
  namedBy: string;
}

/** The forecast service of a chain of providers and a cache, one per process for each. */
function forecastService(s: Settings, env: NodeJS.ProcessEnv, { chain, namedBy }: ForecastChain): ForecastService {
  const cachePath = forecastCachePath(s.POLLEN_DB, s);
  const key = `${chain}|${onNetlify(s) ? 'blobs' : resolve(cachePath)}|${s.FORECAST_DAILY_BUDGET ?? ''}|${s.POLLEN_NOW ?? ''}`;
  let service = services.get(key);
  if (!service) {
    let providers: AnyPollenProvider[];
    try {
      // The service counts one call per refresh, so the client makes exactly one: no retries
      // (a failed refresh hands over to the next provider, else serves the stale cache, and the next request tries again).
      providers = createProviders({ pollen: chain, weather: 'sample', env: { ...env, HTTP_RETRIES: '0' } }).chain;
    } catch (error) {
      if (error instanceof ConfigError) throw new ForecastMisconfigured(`${namedBy}, and ${error.message}`);
      throw error;
    }
    const cache: ForecastCache = onNetlify(s) ? new BlobsForecastCache() : new SqliteForecastCache(openCache(cachePath));
    services.set(
      key,
      (service = new ForecastService({ providers, cache, dailyBudget: (id) => forecastBudget(id, env), now: clockOf(env) })),
    );
  }
  return service;
}

const contexts = new WeakMap<Settings, Map<ZipTable | undefined, { ctx: ApiContext; served: string }>>();

/**
 * The folder of the render served beside `db`, resolved through the `served` link once
 * (render/publish-link.ts), or empty before any render. A render swaps the link; where one runs
 * beside a server (`npm start`, `render` while `serve` runs), the next request builds a context
 * over the new folder, and every file a context reads comes from the one it resolved: never the
 * manifest of one render with the site file of the next. On Netlify a deploy's files never change,
 * so it stays the one.
 */
function servedVersion(db: string): string {
  try {
    return realpathSync(servedDirPath(db));
  } catch {
    return '';
  }
}

/** Where a context whose render's folder is `served` (empty: none) finds the file a render leaves at `path` beside the store. */
const resolvedIn =
  (served: string) =>
  (path: string): string =>
    served === '' ? path : join(served, basename(path));

/**
 * The context functions use, from the environment, built once per process and environment: the
 * served store a render wrote beside `$POLLEN_DB` (read-only; the store itself before any render);
 * its city set, or where there is no store (the forecast function) the site file's; the forecast
 * from the provider that filled the store, as the store or, without one, the site file says (so
 * real history never comes with simulated forecasts, whichever function asks), cached in Netlify
 * Blobs when deployed and in the store's own local cache otherwise (`forecastCachePath`), within the provider's forecast budget
 * (`forecastBudget`). `zips` is the ZIP table, given by the entry points that carry it.
 */
export function environmentContext(env: NodeJS.ProcessEnv = process.env, zips?: ZipTable): ApiContext {
  const s = settingsOf(env);
  let byZips = contexts.get(s);
  if (!byZips) contexts.set(s, (byZips = new Map()));
  const version = servedVersion(s.POLLEN_DB);
  let built = byZips.get(zips);
  if (built?.served !== version) byZips.set(zips, (built = { ctx: buildContext(s, env, zips, version), served: version }));
  return built.ctx;
}

function buildContext(s: Settings, env: NodeJS.ProcessEnv, zips: ZipTable | undefined, version: string): ApiContext {
  const db = s.POLLEN_DB;
  const at = resolvedIn(version);
  const manifest = readShardManifest(at(shardManifestPath(db)));
  if (manifest && onNetlify(s)) return remoteContext(s, env, zips, manifest, at);
  if (manifest) {
    const source = new FolderShards(shardFolderPath(db), manifest);
    let shards: ShardStore | undefined;
    const open = () => (shards ??= new ShardStore(ShardIndex.of(source), source));
    return lazyContext({
      ...beside(s, zips, at, env),
      store: open,
      cities: () => open().index.citySet(),
      forecast: () =>
        forecastService(
          s,
          env,
          forecastChain(s, () => open().pollen.latestSource()),
        ),
    });
  }
  // Never rendered with shards: the served store a render left, else the store itself.
  // The store functions open: the served one the render wrote, else (never rendered) the store itself.
  const servedStore = at(servedStorePath(db));
  const served = existsSync(servedStore) ? servedStore : db;
  const site = () => readSiteFile(at(siteFilePath(db)));
  let store: Store | undefined;
  // The served copy is immutable (render replaces it by rename); the store itself, before any render, is not.
  const open = () => (store ??= shared(served, true, served !== db, version));
  return lazyContext({
    ...beside(s, zips, at, env),
    store: open,
    cities: () => (existsSync(served) ? open().cities.set() : siteCities(site())),
    allergens: () => (existsSync(served) ? allergensOf(open().shapes.all()) : (site()?.allergens ?? [])),
    forecast: () =>
      forecastService(
        s,
        env,
        forecastChain(s, () => (existsSync(served) ? open().pollen.latestSource() : site()?.provider)),
      ),
  });
}

/** The cities a site file names, else (no render yet) the built-in ones. */
const siteCities = (file: SiteFile | undefined): CitySet => (file ? new CitySet(file.cities.map(cityOf)) : DEFAULT_CITIES);

/** Whether this process runs on Netlify, with its Blobs. */
const onNetlify = (s: Settings): boolean =>
  Boolean(s.NETLIFY_BLOBS_CONTEXT ?? (globalThis as { netlifyBlobsContext?: unknown }).netlifyBlobsContext);

/** What every context of a render's output has: the settings, the ZIP table, the files left beside the store. */
function beside(s: Settings, zips: ZipTable | undefined, at: (path: string) => string, env: NodeJS.ProcessEnv) {
  const db = s.POLLEN_DB;
  return {
    settings: { now: clockOf(env), healthMaxAgeHours: s.HEALTH_MAX_AGE_HOURS },
    zips,
    bulkIndex: () => readBulkIndex(at(bulkIndexPath(db))),
    outlooks: () => readOutlookFile(at(outlookFilePath(db))),
  };
}

/**
 * The context of a deployed function: the store is the deploy's shards in Netlify Blobs, fetched
 * as each answer reads them (`fetching`); the cities, the allergens and the provider are the site
 * file's, which the function carries (the same render wrote it and the shards' index).
 */
function remoteContext(
  s: Settings,
  env: NodeJS.ProcessEnv,
  zips: ZipTable | undefined,
  manifest: ShardManifest,
  at: (path: string) => string,
): ApiContext {
  const site = () => readSiteFile(at(siteFilePath(s.POLLEN_DB)));
  const remote = new RemoteShards(manifest);
  const forecast = () =>
    forecastService(
      s,
      env,
      forecastChain(s, () => site()?.provider),
    );
  const parts = {
    ...beside(s, zips, at, env),
    forecast,
    store: (): StoreReader => {
      throw new Error("a deployed function's store is read through `fetching`");
    },
    cities: () => siteCities(site()),
    allergens: () => site()?.allergens ?? [],
  };
  const fetching = async (): Promise<FetchingRead> => {
    const session = await remote.session();
    const store = new ShardStore(session.index, session);
    return {
      ctx: lazyContext({
        ...parts,
        forecast: () => ctx.forecast,
        store: () => store,
        cities: () => session.index.citySet(),
        allergens: undefined,
      }),
      lacking: () => session.lacking(),
      fetch: () => session.fetch(),
    };
  };
  const ctx = lazyContext({ ...parts, fetching });
  return ctx;
}

/**
 * The providers forecasts come from: `POLLEN_PROVIDERS` when set (the chain ingest follows too),
 * else the one that filled the store (`filledBy`, read only then).
 */
function forecastChain(s: Settings, filledBy: () => string | null | undefined): ForecastChain {
  if (s.POLLEN_PROVIDERS) return { chain: s.POLLEN_PROVIDERS, namedBy: `POLLEN_PROVIDERS names ${s.POLLEN_PROVIDERS}` };
  const provider = forecastProvider(filledBy(), s.POLLEN_PROVIDER);
  return { chain: provider, namedBy: `this deployment's data comes from ${provider}` };
}

/**
 * Without `POLLEN_PROVIDERS`, the provider forecasts come from: the one that filled the store (`filledBy`, the newest stored
 * day's), never a default. `POLLEN_PROVIDER` may repeat it; one that names another provider, or a
 * store no provider has filled yet, refuses every refresh, since a forecast of other data would be
 * cached and served as this deployment's.
 */
function forecastProvider(filledBy: string | null | undefined, named: string | undefined): string {
  if (!filledBy) throw new ForecastMisconfigured('this deployment has no pollen data yet, so no provider to forecast from');
  if (named && named !== filledBy)
    throw new ForecastMisconfigured(
      `this deployment's data comes from ${filledBy}, and POLLEN_PROVIDER names ${named}: unset it, or set it to ${filledBy}`,
    );
  return filledBy;
}

/** A render's contexts have no forecast: it is never rendered. */
const noForecast = (): never => {
  throw new Error('the forecast is not part of a render');
};

/** The context of a render (and of tests): the store it renders, and no forecast. */
export function storeContext(store: Store, zips?: ZipTable): ApiContext {
  return lazyContext({ zips, store: () => store, cities: () => store.cities.set(), forecast: noForecast });
}

/** The context of a store read from its shards (the answers of `storeContext` over the store they were cut from), and no forecast. */
export function shardContext(shards: ShardStore, zips?: ZipTable): ApiContext {
  return lazyContext({ zips, store: () => shards, cities: () => shards.index.citySet(), forecast: noForecast });
}
