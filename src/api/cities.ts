/** GET /api/cities: the cities served, by name, with their state (repeated names) and their position and zone. */
import type { City } from '../domain/cities.js';
import type { Handler } from './handler.js';

/** A city as answers give it. */
export const cityRow = (c: City) => ({ name: c.name, slug: c.slug, state: c.state, lat: c.lat, lon: c.lon, timezone: c.timezone });

export const cities: Handler = (_query, ctx) => ({ body: { cities: ctx.cities.list.map(cityRow) } });
