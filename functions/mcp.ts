/** /mcp: the read-only MCP server over streamable HTTP (stateless, JSON responses). */
import type { Config } from '@netlify/functions';
import { environmentContext } from '../src/api/context.js';
import { handleMcp } from '../src/mcp/http.js';

export default (request: Request): Promise<Response> => handleMcp(request, environmentContext());

export const config: Config = { path: '/mcp' };
