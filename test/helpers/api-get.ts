/**
 * GETs of a sample site's answers as the API tests read them: each response checked for what every
 * answer must have (CORS, the cache policy, a body the OpenAPI document allows).
 */
import { expect } from 'vitest';
import { DATA_CACHE, ERROR_CACHE } from '../../src/api/http/respond.js';
import { dayNumber } from '../../src/domain/dates.js';
import { expectMatchesOpenApi } from './openapi.js';
import type { Site } from './site.js';

export type Json = Record<string, any>;

/** The getter of `site`'s JSON answers over HTTP, checking what every response must have. */
export const jsonGetter =
  (site: Site) =>
  async (pathAndQuery: string): Promise<{ status: number; body: Json; headers: Headers }> => {
    const res = await site.get(pathAndQuery);
    const body = (await res.json()) as Json;
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe(res.status === 200 ? DATA_CACHE : ERROR_CACHE);
    const path = new URL(pathAndQuery, 'http://x').pathname;
    if ((path.startsWith('/api/') && res.status !== 404) || body.code === 'UNSUPPORTED_CITY') expectMatchesOpenApi(path, res.status, body);
    return { status: res.status, body, headers: res.headers };
  };

export const D = (date: string) => dayNumber(date);
/** What every answer that carries values says of them on the sample provider. */
export const SIMULATED = { provider: 'sample', simulated: true };
export const mean = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.round(v.reduce((a, b) => a + b, 0) / v.length) : null;
};
export const max = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.max(...v) : null;
};
