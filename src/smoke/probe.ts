/**
 * What smoke's checks ask a deployment with: requests bounded by a timeout, and the assertions
 * every check shares (a data answer, an error answer, headers given once). A check fails by
 * throwing a Failure with the reason a deployer reads.
 */

/** A JSON body whose fields the checks read and test one by one. */
// biome-ignore lint/suspicious/noExplicitAny: the checks probe bodies of any shape, each field tested before use
export type Json = Record<string, any>;

/** What a 503 DATA_UNAVAILABLE most likely means on a deployment that was never answered from its data. */
const UNREADABLE_SHARDS =
  ' (the functions cannot read this deploy\'s shards from Netlify Blobs: a scheduled deploy needs `npx tsx build/cli.ts shards upload` before it, docs/deploying.md, "The shards in Netlify Blobs")';

/** A check failed for this reason. */
export class Failure extends Error {}

/** Fails the check with `why` unless `condition` holds. */
export const must = (condition: unknown, why: string): void => {
  if (!condition) throw new Failure(why);
};

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: () => Json;
}

/** What the checks learn on the way and later checks read: the provider, a date and a city with data. */
export interface Found {
  provider: string;
  date: string;
  city: string;
}

/** A query string of these parameters. */
export const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** One smoke run against a deployment. */
export class Probe {
  readonly found: Found = { provider: '', date: '', city: '' };

  constructor(
    readonly base: string,
    readonly timeoutMs: number,
  ) {}

  /** The answer to a request, read whole; redirects are not followed. */
  async get(path: string, init: RequestInit = {}): Promise<Got> {
    const res = await fetch(new URL(path, this.base), { redirect: 'manual', ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: () => {
        try {
          return JSON.parse(text) as Json;
        } catch {
          throw new Failure(`${path}: HTTP ${res.status} is not JSON (${text.slice(0, 80).replace(/\s+/g, ' ')})`);
        }
      },
    };
  }

  /** A data answer: 200, JSON of this type, CORS `*` once, a cache policy given once. */
  async data(path: string, type = 'application/json'): Promise<Json> {
    const r = await this.get(path);
    must(
      r.status === 200,
      `${path}: HTTP ${r.status} ${r.text.slice(0, 120)}${r.text.includes('"DATA_UNAVAILABLE"') ? UNREADABLE_SHARDS : ''}`,
    );
    must(
      (r.headers.get('content-type') ?? '').startsWith(type),
      `${path}: Content-Type ${r.headers.get('content-type')}, expected ${type}`,
    );
    headersOnce(path, r.headers);
    return r.json();
  }

  /** An error answer: this status, a JSON body with `error`, CORS once, never cached. */
  async problem(path: string, status: number, init?: RequestInit): Promise<Json> {
    const r = await this.get(path, init);
    must(r.status === status, `${path}: HTTP ${r.status}, expected ${status}`);
    const body = r.json();
    must(typeof body.error === 'string', `${path}: no error message in ${r.text.slice(0, 120)}`);
    must(
      r.headers.get('access-control-allow-origin') === '*',
      `${path}: Access-Control-Allow-Origin ${JSON.stringify(r.headers.get('access-control-allow-origin'))}`,
    );
    must(
      r.headers.get('cache-control') === 'no-store',
      `${path}: Cache-Control ${JSON.stringify(r.headers.get('cache-control'))}, expected no-store`,
    );
    return body;
  }
}

/** CORS `*` and the cache policy each given once: a CDN joining two rules' values would show `*, *`. */
export function headersOnce(path: string, headers: Headers): void {
  const origin = headers.get('access-control-allow-origin');
  must(origin === '*', `${path}: Access-Control-Allow-Origin ${JSON.stringify(origin)}, expected exactly *`);
  const cache = headers.get('cache-control') ?? '';
  must(cache !== '', `${path}: no Cache-Control`);
  const directives = cache.split(',').map((d) => d.trim().split('=')[0]);
  must(new Set(directives).size === directives.length, `${path}: Cache-Control given twice: ${cache}`);
}
