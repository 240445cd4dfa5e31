/** /api/pollen-range: any window of hourly or daily rows, streamed and compressed. */
import type { Config } from '@netlify/functions';
import { answer } from '../src/api/netlify.js';

export default (request: Request): Promise<Response> => answer(request);

// Per-client rate limit (src/api/cdn.ts, RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: '/api/pollen-range',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
