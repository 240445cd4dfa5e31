/** What an endpoint handler is: a parsed query and its context in, a body out. */
import type { DailyPollen } from '../domain/pollen-rows.js';
import type { ForecastService } from '../forecast/service.js';
import type { Store } from '../store/store.js';

/** What handlers may use; each is opened on first use. */
export interface ApiContext {
  readonly store: Store;
  readonly forecast: ForecastService;
  /**
   * Daily rows already computed, keyed `city|day|fetchedAt` so an entry can never be stale.
   * Only a render keeps one (between renders); functions compute every row.
   */
  readonly dailyRows?: Map<string, DailyPollen>;
}

/** A body produced piece by piece, so a large answer is never held whole. */
export class Chunks {
  constructor(readonly read: () => Iterable<string>) {}
}

export interface Answer {
  /** A JSON value, text, or `Chunks` of text. */
  body: unknown;
  /** Defaults to `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (query: URLSearchParams, ctx: ApiContext) => Answer | Promise<Answer>;

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
