/** GET /api/cities */
import { CITIES } from '../domain/cities.js';
import type { Handler } from './handler.js';

export const cities: Handler = () => ({ body: { cities: CITIES.map((c) => ({ name: c.name, slug: c.slug })) } });
