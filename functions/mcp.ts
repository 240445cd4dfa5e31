/** /mcp: the read-only MCP server over streamable HTTP (stateless, JSON responses); it carries the ZIP table for find_city. */
import type { Config } from '@netlify/functions';
import { handleMcp } from '../src/mcp/streamable-http.js';
import { censusZips } from '../src/store/zip-table.js';
import { environmentContext } from '../src/wiring/contexts.js';

export default (request: Request): Promise<Response> => handleMcp(request, environmentContext(process.env, censusZips));

// Per-client rate limit (src/api/http/cdn.ts, RATE_LIMIT): zip-it-and-ship-it reads only literals here.
export const config: Config = {
  path: '/mcp',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
