/** GET /api/cities: the cities served, by name, with their state so repeated names can be told apart. */
import type { Handler } from './handler.js';

export const cities: Handler = (_query, ctx) => ({ body: { cities: ctx.cities.list.map((c) => ({ name: c.name, slug: c.slug, state: c.state })) } });
