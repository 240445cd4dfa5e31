/**
 * Turns a request into a response with the same rules everywhere: the render step, the functions
 * and the local server all answer through `respond`.
 */

import { ShardUnavailable } from '../../store/shards/shard-format.js';
import { Chunks, JSON_TYPE, JsonRows } from '../contract/answer.js';
import type { ApiContext } from '../contract/context.js';
import { ApiError, plainError } from '../contract/error.js';
import { findRoute, type Route } from '../routes.js';
import { cdnCacheOf, netlifyVary } from './cdn.js';
import { whenFetched } from './fetch-rounds.js';

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** `https://host` of the request, where it came over HTTP. */
  origin?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, or pieces of text read lazily (a streamed answer). */
  body: string | Iterable<string>;
}

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
export const DATA_CACHE = 'public, max-age=300, s-maxage=300, stale-while-revalidate=600';
export const ERROR_CACHE = 'no-store';
export const CORS = { 'Access-Control-Allow-Origin': '*' } as const;

/** Log sink for failures whose details must not reach clients. */
export type ErrorLog = (message: string, error: unknown) => void;
const defaultLog: ErrorLog = (message, error) => console.error(message, error);

/** The answer to one request, by the route at its path. Never rejects. */
export function respond(req: ApiRequest, ctx: ApiContext, log: ErrorLog = defaultLog): Promise<ApiResponse> {
  return respondByRoute(findRoute(req.path), req, ctx, log);
}

/** When to ask again after a 503 for data that could not be read. */
export const DATA_RETRY_AFTER_SECONDS = 30;

/**
 * The stored data cannot be read now (a shard Netlify Blobs did not give): 503, never cached,
 * with when to ask again. Its cause goes to the log, never to the client.
 */
export const dataUnavailable = (): ApiError =>
  plainError(503, 'DATA_UNAVAILABLE', `The stored data cannot be read right now; retry in ${DATA_RETRY_AFTER_SECONDS} seconds`, {
    headers: { 'Retry-After': String(DATA_RETRY_AFTER_SECONDS) },
  });

/**
 * `respond`, on a store fetched before it is read (fetch-rounds.ts) where the context has one: every
 * shard the answer reads is fetched before it is given. Never rejects.
 */
export async function respondFetched(req: ApiRequest, ctx: ApiContext, log: ErrorLog = defaultLog): Promise<ApiResponse> {
  try {
    return await whenFetched(
      ctx,
      (c, l) => respond(req, c, l),
      log,
      (r) => {
        if (typeof r.body !== 'string') (r.body as Partial<Iterator<string>>).return?.();
      },
    );
  } catch (error) {
    return forMethod(req.method, failureResponse(req, error, log));
  }
}

/** The answer to one request by a given route (undefined: no endpoint at that path). Never rejects. */
export async function respondByRoute(
  route: Route | undefined,
  req: ApiRequest,
  ctx: ApiContext,
  log: ErrorLog = defaultLog,
): Promise<ApiResponse> {
  const method = req.method.toUpperCase();
  if (method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': '*',
        'Access-Control-Max-Age': '86400',
        Allow: ALLOWED_METHODS,
        'Cache-Control': 'public, max-age=86400',
      },
      body: '',
    };
  }
  let response: ApiResponse;
  try {
    if (method !== 'GET' && method !== 'HEAD') {
      throw plainError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed: this API is read-only (use GET)`, {
        headers: { Allow: ALLOWED_METHODS },
      });
    }
    if (!route) throw plainError(404, 'NO_ENDPOINT', `No endpoint at ${req.path}; the endpoints are listed in /openapi.json`);
    const answer = await route.handler(req.query, ctx, req.origin);
    const vary = netlifyVary(route);
    const body =
      'text' in answer
        ? answer.text instanceof Chunks
          ? answer.text.read()
          : answer.text
        : answer.body instanceof JsonRows
          ? answer.body.read()
          : JSON.stringify(answer.body);
    response = {
      status: answer.status ?? 200,
      headers: {
        ...CORS,
        'Content-Type': answer.contentType ?? JSON_TYPE,
        'Cache-Control': DATA_CACHE,
        'Netlify-CDN-Cache-Control': cdnCacheOf(route),
        ...(vary ? { 'Netlify-Vary': vary } : {}),
        'X-Content-Type-Options': 'nosniff',
        ...answer.headers,
      },
      body,
    };
  } catch (error) {
    response = failureResponse(req, error, log);
  }
  return forMethod(method, response);
}

/**
 * The answer to a failure: an ApiError as it says; a shard that cannot be had, a 503 (its cause
 * logged, not its stack); anything else, a 500 with the error logged.
 */
function failureResponse(req: ApiRequest, error: unknown, log: ErrorLog): ApiResponse {
  if (error instanceof ApiError) return errorResponse(error);
  const unreadable = error instanceof ShardUnavailable;
  log(`${req.method} ${req.path} failed`, unreadable ? error.message : error);
  return errorResponse(unreadable ? dataUnavailable() : plainError(500, 'INTERNAL_ERROR', 'Internal server error'));
}

/** A HEAD's answer is its GET's with no body. */
const forMethod = (method: string, response: ApiResponse): ApiResponse =>
  method.toUpperCase() === 'HEAD' ? { ...response, body: '' } : response;

function errorResponse(error: ApiError): ApiResponse {
  return {
    status: error.status,
    headers: { ...CORS, 'Content-Type': JSON_TYPE, 'Cache-Control': ERROR_CACHE, 'X-Content-Type-Options': 'nosniff', ...error.headers },
    body: JSON.stringify(error),
  };
}
