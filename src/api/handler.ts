/** What an endpoint handler is: a parsed query and the store in, a body out. */
import type { Store } from '../store/store.js';

export interface ApiContext {
  store: Store;
}

export interface Answer {
  body: unknown;
  /** Defaults to `application/json`. */
  contentType?: string;
}

export type Handler = (query: URLSearchParams, ctx: ApiContext) => Answer;

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
