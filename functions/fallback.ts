/**
 * Answers what the CDN has no file for: rewrites that land on a missing file under /data/
 * (a malformed date, a date outside the snapshot) and the rules that send unsupported cities
 * and unknown /api/ paths here. Existing files win (`preferStatic`).
 */
import type { Config } from '@netlify/functions';
import { respondToRequest } from '../src/api/http/netlify.js';
import { environmentContext } from '../src/wiring/contexts.js';

export default (request: Request): Promise<Response> => respondToRequest(request, environmentContext());

// Per-client rate limit (src/api/http/cdn.ts, FALLBACK_RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: '/data/*',
  preferStatic: true,
  rateLimit: { windowLimit: 300, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
