import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { jsonGetter } from '../helpers/api-get.js';
import { useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/cities', () => {
  it('lists every supported city by name', async () => {
    const { status, body } = await getJson('/api/cities');
    expect(status).toBe(200);
    expect(body.cities).toEqual(
      DEFAULT_CITIES.list.map((c) => ({ name: c.name, slug: c.slug, state: c.state, lat: c.lat, lon: c.lon, timezone: c.timezone })),
    );
  });
});
