/** /api/nearest: the served cities nearest a point or a ZIP code; the one function besides MCP that carries the ZIP table. */
import type { Config } from '@netlify/functions';
import { environmentContext } from '../src/api/context.js';
import { answer } from '../src/api/netlify.js';
import { censusZips } from '../src/store/zip-table.js';

export default (request: Request): Promise<Response> => answer(request, environmentContext(process.env, censusZips));

export const config: Config = { path: '/api/nearest' };
