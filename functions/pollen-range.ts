/** /api/pollen-range: any window of hourly or daily rows, streamed and compressed. */
import type { Config } from '@netlify/functions';
import { respondToRequest } from '../src/api/http/netlify.js';
import { environmentContext } from '../src/wiring/contexts.js';

export default (request: Request): Promise<Response> => respondToRequest(request, environmentContext());

// Per-client rate limit (src/api/http/cdn.ts, RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: '/api/pollen-range',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
