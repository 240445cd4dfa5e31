/** /api/forecast, the next 48 hours of a city cached up to 6 hours, and /api/alerts, read from it through the same cache. */
import type { Config } from '@netlify/functions';
import { answer } from '../src/api/netlify.js';

export default (request: Request): Promise<Response> => answer(request);

export const config: Config = { path: ['/api/forecast', '/api/alerts'] };
