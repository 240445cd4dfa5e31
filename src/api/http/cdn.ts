/**
 * What Netlify's edge is told about each route's answers, all of it from the route list: how long
 * its CDN keeps a function's answer, which query parameters that answer's cache key takes, and how
 * many requests one client may make to each function.
 */
import type { Route } from '../contract/route.js';

/** Netlify caches a function's answer at the CDN only with this header (durable: one function call per URL and period). */
export const CDN_CACHE = 'public, durable, s-maxage=300, stale-while-revalidate=600';
/**
 * The CDN cache of a function's answer to a route the render writes files for (the fallback's
 * long tail of city-days) or marked `untilDeploy`: such an answer changes only with a deploy,
 * and every production deploy invalidates what the CDN cached for the site, durable entries included ("a new deploy for that
 * site and context will cause all objects labelled with that ID to be invalidated",
 * netlify.com/blog/full-control-over-caching-with-cache-id; durable "invalidation follows all the
 * same rules as all other cache headers", netlify.com/blog/announcing-durable-caching). So one
 * function call per URL and deploy.
 */
export const UNTIL_DEPLOY_CDN_CACHE = 'public, durable, s-maxage=31536000';

/** Whether a route's answers are computed on request: no file holds them, and nothing keeps them until the next deploy. */
export const computedOnRequest = (route: Route): boolean => route.forms.length === 0 && !route.untilDeploy;

/** The `Netlify-CDN-Cache-Control` of a route's answers from a function. */
export const cdnCacheOf = (route: Route): string => (computedOnRequest(route) ? CDN_CACHE : UNTIL_DEPLOY_CDN_CACHE);

/**
 * The `Netlify-Vary` of a route's answers: the cache key takes the route's own query parameters
 * and no others, so `&utm_source=...` or `&x=<random>` shares the entry of the request without it
 * instead of computing the answer again. Without the header the whole query string keys a
 * function's answer ("query parameters are additionally factored into cache keys by default for
 * ... responses from serverless functions", docs.netlify.com/platform/caching). The directive is
 * `query=` and the names joined by `|` (netlify.com/blog/netlify-cache-key-variations:
 * "Netlify-Vary: query=item_id|page|per_page"; @netlify/plugin-nextjs writes it the same way in
 * src/run/headers.ts), the same for every answer of the route, as Netlify asks of one URL. A route
 * without parameters has none: its answers are files, whose cache key never takes the query.
 */
export function netlifyVary(route: Route): string | undefined {
  const names = Object.keys(route.params);
  return names.length > 0 ? `query=${names.join('|')}` : undefined;
}

/** MCP's path: its tool calls compute as the routes they mirror do. */
export const MCP_PATH = '/mcp';

/**
 * Requests one client may make in a window to a function that computes its answers on request,
 * with Netlify's own rate limiting for functions ("Customers in all plans can programmatically
 * apply limits to specific functions ... by adding rules in code"; past the limit a request is
 * blocked with 429, docs.netlify.com/security/secure-access-to-sites/rate-limiting). The fields
 * are those of `config.rateLimit` (@netlify/functions' RateLimitConfig), which zip-it-and-ship-it
 * turns into the function's traffic rules (src/rate_limit.ts in netlify/build's
 * zip-it-and-ship-it: a sliding window, aggregated by `domain` alone unless `aggregateBy` is an
 * array), so `['ip', 'domain']` makes it per client. 60 requests a minute is a page's use many
 * times over (a city shown asks the forecast twice, and the CDN answers repeats).
 */
export const RATE_LIMIT = { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] } as const;

/**
 * The fallback's: it answers every request without a file, each unknown parameter value a new
 * cache entry (a random slug, a date outside the files), so a client could make it compute on
 * every request. Its path, `/data/*`, also covers the static files it stands behind; whether
 * Netlify counts a request a static file answers against the function's rule is not documented,
 * so the limit leaves room for a page and a notebook reading the bulk files in byte ranges:
 * 300 a minute, five a second.
 */
export const FALLBACK_RATE_LIMIT = { windowLimit: 300, windowSize: 60, aggregateBy: ['ip', 'domain'] } as const;

/**
 * The rate limit of a function answering at these paths (its `config.path`): FALLBACK_RATE_LIMIT
 * for the fallback, RATE_LIMIT for every other. A function whose answers the CDN keeps until the
 * next deploy (nearest) is limited too: each new query is a new entry, computed. zip-it-and-ship-it
 * reads `config` from the source without running it (only literals count:
 * src/runtimes/node/parser/exports.ts), so each function writes the literal; a test keeps it equal
 * to this.
 */
export function rateLimitFor(paths: readonly string[]): typeof RATE_LIMIT | typeof FALLBACK_RATE_LIMIT {
  return paths.includes(FALLBACK_PATH) ? FALLBACK_RATE_LIMIT : RATE_LIMIT;
}

/** The fallback function's path: every request under /data/ that no file answers. */
export const FALLBACK_PATH = '/data/*';
