/**
 * What a handler is given: the store it reads, the cities, the forecast service and the settings
 * of the answer. An interface: the server's and functions' side (src/wiring/contexts.ts) builds it.
 */

import type { BulkManifest } from '../../deploy-data/bulk-index.js';
import type { OutlookFile } from '../../deploy-data/outlook-file.js';
import type { CitySet } from '../../domain/cities.js';
import type { ZipTable } from '../../domain/geo.js';
import type { Allergen } from '../../domain/species/allergens.js';
import type { ForecastService } from '../../forecast/service.js';
import type { StoreReader } from '../../store/reader.js';

/** What handlers read of the process: its clock, and settled once from the environment, the health limit. */
export interface AnswerSettings {
  now: () => number;
  /** `/api/health` is `ok` while the newest stored hour is at most this old. */
  healthMaxAgeHours: number;
  /**
   * The most bytes one answer's body may take, decided before its rows are read: what the
   * delivery carries (a function's stream over HTTP; less inside an MCP result, which holds it twice).
   */
  maxBodyBytes: number;
}

/** What handlers may use; each is opened on first use. */
export interface ApiContext {
  readonly store: StoreReader;
  /** The cities served: the store's set (or the site file's, where there is no store). */
  readonly cities: CitySet;
  /** The allergens the served data holds (the store's species shapes, or the site file's): what `species=` may name. */
  readonly allergens: readonly Allergen[];
  readonly forecast: ForecastService;
  readonly settings: AnswerSettings;
  /** ZIP codes' centroids: only where the function carries the table (nearest, mcp). */
  readonly zips?: ZipTable;
  /** The bulk files' manifest a render left beside the store, if any (MCP's get_bulk_files). */
  readonly bulkIndex: BulkManifest | undefined;
  /** The outlooks a render left beside the store, if any (/api/forecast?days=, /api/alerts). */
  readonly outlooks: OutlookFile | undefined;
  /**
   * Where the store is fetched before it is read (its shards in Netlify Blobs): a reading of it
   * for one request (api/http/fetch-rounds.ts). Absent where every read is at hand (a file).
   */
  readonly fetching?: () => Promise<FetchingRead>;
}

/** One request's reading of a store that is fetched before it is read. */
export interface FetchingRead {
  /** The context to answer with: its store reads what is not fetched yet as empty, and notes it. */
  readonly ctx: ApiContext;
  /** Whether a read noted something not fetched yet. */
  lacking(): boolean;
  /** Fetches what was noted; throws ShardUnavailable when it cannot be had. */
  fetch(): Promise<void>;
}

/** The same context with some settings replaced; its services are the context's own, opened once. */
export function withSettings(ctx: ApiContext, settings: Partial<AnswerSettings>): ApiContext {
  return {
    settings: { ...ctx.settings, ...settings },
    zips: ctx.zips,
    fetching:
      ctx.fetching &&
      (async () => {
        const read = await ctx.fetching!();
        return { ...read, ctx: withSettings(read.ctx, settings) };
      }),
    get store() {
      return ctx.store;
    },
    get cities() {
      return ctx.cities;
    },
    get allergens() {
      return ctx.allergens;
    },
    get forecast() {
      return ctx.forecast;
    },
    get bulkIndex() {
      return ctx.bulkIndex;
    },
    get outlooks() {
      return ctx.outlooks;
    },
  };
}
