/** /api/pollen-range: any window of hourly or daily rows, streamed and compressed. */
import type { Config } from '@netlify/functions';
import { answer } from '../src/api/netlify.js';

export default (request: Request): Promise<Response> => answer(request);

export const config: Config = { path: '/api/pollen-range' };
