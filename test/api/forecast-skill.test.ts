import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { GRADED } from '../../src/domain/species/risk.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { jsonGetter } from '../helpers/api-get.js';
import { SITE_CITIES, useSite } from '../helpers/site.js';

// The sample's forecasts kept as a first build keeps them (its past made again), so that the render scores them.
const site = useSite({
  prepare: async (store) => {
    const cities = SITE_CITIES.map((slug) => DEFAULT_CITIES.get(slug)!);
    await keepForecasts({ store, providers: [new SampleProvider()], cities, now: site.now, serveDays: 730 });
  },
});
const getJson = jsonGetter(site);

describe('GET /api/forecast-skill', () => {
  it("answers a city's skill from the render's file: every graded category, each with its leads in order", async () => {
    const { status, body } = await getJson('/api/forecast-skill?city=austin');
    expect(status).toBe(200);
    expect(body.city).toBe('austin');
    expect(body.categories.map((c: { category: string }) => c.category)).toEqual([...GRADED]);
    for (const c of body.categories) {
      const leads = c.leads.map((l: { lead: number }) => l.lead);
      expect(leads, c.category).toEqual([...leads].sort((a, b) => a - b));
      expect(leads.length, c.category).toBeGreaterThan(0);
    }
  });

  it('answers one category (any case) and one lead as the whole answer holds them, from the fallback function', async () => {
    const whole = (await getJson('/api/forecast-skill?city=austin')).body;
    const tree = (await getJson('/api/forecast-skill?city=austin&category=Tree')).body;
    expect(tree.categories).toEqual(whole.categories.filter((c: { category: string }) => c.category === 'tree'));
    const lead1 = (await getJson('/api/forecast-skill?city=austin&lead=1')).body;
    for (const [i, c] of lead1.categories.entries()) {
      expect(c.leads).toEqual(whole.categories[i].leads.filter((l: { lead: number }) => l.lead === 1));
      if (c.outlook) expect(c.outlook.days.every((d: { lead: number }) => d.lead === 1)).toBe(true);
    }
  });

  it.each([
    ['category=pine', 'category', "one of 'tree', 'grass', 'weed', 'ragweed' (any case)"],
    ['lead=14', 'lead', 'an integer from 0 to 13'],
    ['lead=-1', 'lead', 'an integer from 0 to 13'],
  ])('refuses %s with a 400 naming the parameter', async (query, parameter, expected) => {
    const { status, body } = await getJson(`/api/forecast-skill?city=austin&${query}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: `Invalid parameter '${parameter}': expected ${expected}`, code: 'INVALID_PARAMETER', parameter });
  });

  it('answers a city outside the set with UNSUPPORTED_CITY, and no city with a 400 naming it', async () => {
    const unsupported = await getJson('/api/forecast-skill?city=atlantis');
    expect(unsupported.status).toBe(404);
    expect(unsupported.body.code).toBe('UNSUPPORTED_CITY');
    const missing = await getJson('/api/forecast-skill');
    expect(missing.status).toBe(400);
    expect(missing.body.parameter).toBe('city');
  });
});
