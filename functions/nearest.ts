/** /api/nearest: the served cities nearest a point or a ZIP code; the one function besides MCP that carries the ZIP table. */
import type { Config } from '@netlify/functions';
import { respondToRequest } from '../src/api/http/netlify.js';
import { censusZips } from '../src/store/zip-table.js';
import { environmentContext } from '../src/wiring/contexts.js';

export default (request: Request): Promise<Response> => respondToRequest(request, environmentContext(process.env, censusZips));

// Per-client rate limit (src/api/http/cdn.ts, RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: '/api/nearest',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
