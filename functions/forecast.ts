/** /api/forecast, the next 48 hours of a city cached up to 6 hours, and /api/alerts and /api/forecast-map, read from it through the same cache. */
import type { Config } from '@netlify/functions';
import { respondToRequest } from '../src/api/http/netlify.js';
import { environmentContext } from '../src/wiring/contexts.js';

export default (request: Request): Promise<Response> => respondToRequest(request, environmentContext());

// Per-client rate limit (src/api/http/cdn.ts, RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: ['/api/forecast', '/api/forecast-map', '/api/alerts'],
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
