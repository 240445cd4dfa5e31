/** /api/health: how fresh the data is (200 ok, 503 stale), for uptime monitors; never cached. */
import type { Config } from '@netlify/functions';
import { answer } from '../src/api/netlify.js';

export default (request: Request): Promise<Response> => answer(request);

export const config: Config = { path: '/api/health' };
