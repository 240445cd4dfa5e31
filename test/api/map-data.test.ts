import { describe, expect, it } from 'vitest';
import { D, type Json, jsonGetter, max, SIMULATED } from '../helpers/api-get.js';
import { SITE_CITIES, useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/map-data', () => {
  it('is GeoJSON of the latest date by default, with the daily maxima of the stored hours', async () => {
    const { body, headers } = await getJson('/api/map-data');
    expect(headers.get('content-type')).toBe('application/geo+json');
    expect(body).toMatchObject({ type: 'FeatureCollection', date: '2025-04-10', aggregation: 'daily-category-maxima' });
    expect(body.features.map((f: Json) => f.properties.city)).toEqual([...SITE_CITIES].sort());
    for (const f of body.features) {
      const hours = site.store.pollen.hours(f.properties.city, D('2025-04-10') * 24, D('2025-04-11') * 24);
      expect(f.properties.tree).toBe(max(hours.map((h) => h.tree)));
      expect(f.properties.series.map((d: Json) => d.date)).toEqual(['2025-04-08', '2025-04-09', '2025-04-10']);
    }
    expect((await getJson('/api/map-data?date=latest')).body).toEqual(body);
  });

  it('gives null series days before the data starts, and no features on a date without data', async () => {
    const first = (await getJson('/api/map-data?date=2025-04-01')).body;
    expect(first.features[0].properties.series[0]).toMatchObject({ date: '2025-03-30', tree: null, risk_tree: null });
    expect((await getJson('/api/map-data?date=2024-01-01')).body).toEqual({
      type: 'FeatureCollection',
      features: [],
      date: '2024-01-01',
      aggregation: 'daily-category-maxima',
      ...SIMULATED,
    });
  });
});
