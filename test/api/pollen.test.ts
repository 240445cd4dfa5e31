import { describe, expect, it } from 'vitest';
import { dayString } from '../../src/domain/dates.js';
import { THRESHOLDS } from '../../src/domain/species/risk.js';
import { D, type Json, jsonGetter, max, mean, SIMULATED } from '../helpers/api-get.js';
import { SITE_CITIES, useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/pollen', () => {
  it('returns the hourly rows of a city-day as stored, graded by the highest allergen', async () => {
    const { body } = await getJson('/api/pollen?city=austin&date=2025-04-03');
    const stored = site.store.pollen.hours('austin', D('2025-04-03') * 24, D('2025-04-04') * 24);
    expect(body.city).toBe('austin');
    expect(body.date).toBe('2025-04-03');
    expect(body.rows).toHaveLength(stored.length);
    body.rows.forEach((row: Json, i: number) => {
      const h = stored[i]!;
      expect(row.ts).toBe(new Date(h.hour * 3_600_000).toISOString());
      expect([row.tree, row.grass, row.weed, row.total, row.species]).toEqual([h.tree, h.grass, h.weed, h.total, h.species]);
      const oak = Math.max(...Object.values(h.species!.Tree as Record<string, number>));
      const [t1, t2, t3] = THRESHOLDS.tree;
      expect(row.risk_tree).toBe(oak === 0 ? 'None' : oak < t1 ? 'Low' : oak < t2 ? 'Moderate' : oak < t3 ? 'High' : 'Very High');
      expect(row.timezone).toBe('America/Chicago');
    });
  });

  it('returns daily rows of a city newest first, with means and peaks of the stored hours', async () => {
    const { body } = await getJson('/api/pollen?city=wichita');
    expect(body.rows.map((r: Json) => r.date)).toEqual(Array.from({ length: 10 }, (_, i) => dayString(D('2025-04-10') - i)));
    for (const row of body.rows) {
      const hours = site.store.pollen.hours('wichita', D(row.date) * 24, D(row.date) * 24 + 24);
      expect(row.tree).toBe(mean(hours.map((h) => h.tree)));
      expect(row.weed).toBe(mean(hours.map((h) => h.weed)));
      expect(row.peak_tree).toBe(max(hours.map((h) => h.tree)));
      expect(row.peak_total).toBe(max(hours.map((h) => h.total)));
    }
  });

  it('returns one cross-city row per city with data, by slug, for a date and for no parameters', async () => {
    const { body } = await getJson('/api/pollen?date=2025-04-05');
    expect(body.rows.map((r: Json) => r.city)).toEqual([...SITE_CITIES].sort());
    for (const row of body.rows) {
      const hours = site.store.pollen.hours(row.city, D('2025-04-05') * 24, D('2025-04-06') * 24);
      expect(row.count).toBe(
        (max(hours.map((h) => h.tree)) ?? 0) + (max(hours.map((h) => h.grass)) ?? 0) + (max(hours.map((h) => h.weed)) ?? 0),
      );
      expect(row).toMatchObject({ date: '2025-04-05', source: 'sample', is_forecast: false, max_weed: max(hours.map((h) => h.weed)) ?? 0 });
    }
    expect((await getJson('/api/pollen')).body).toEqual((await getJson('/api/pollen?date=2025-04-10')).body);
  });

  it.each([
    ['/api/pollen?city=austin&date=2024-01-01', { city: 'austin', date: '2024-01-01', ...SIMULATED, rows: [] }],
    ['/api/pollen?date=2024-01-01', { date: '2024-01-01', ...SIMULATED, rows: [] }],
    ['/api/weather?city=austin&date=2024-01-01', { city: 'austin', date: '2024-01-01', ...SIMULATED, rows: [] }],
  ])('answers a valid date without data with empty rows: %s', async (url, expected) => {
    const { status, body } = await getJson(url);
    expect(status).toBe(200);
    expect(body).toEqual(expected);
  });
});
