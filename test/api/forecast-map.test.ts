/**
 * /api/forecast-map: each city's forecast of its local today or tomorrow as the map's features,
 * read from the forecast cache the panel's /api/forecast fills, with the same day values, and
 * never asking the provider itself.
 */
import { describe, expect, it } from 'vitest';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
// 08:00 UTC: 03:00 of April 11 in Austin and Wichita (CDT), 04:00 in Scranton, 22:00 of April 10 in Honolulu.
const NOW = Date.parse('2025-04-11T08:00:00Z');
const site = useSite({ now: NOW });
const json = async (path: string): Promise<{ status: number; type: string | null; body: Json }> => {
  const res = await site.get(path);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Json };
};
const SEV: Record<string, number> = { Low: 1, Moderate: 2, High: 3, 'Very High': 4 };

describe('GET /api/forecast-map', () => {
  it('holds no city before any forecast is cached, and asks no provider for one', async () => {
    const { status, type, body } = await json('/api/forecast-map');
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/geo\+json/);
    expectMatchesOpenApi('/api/forecast-map', 200, body);
    expect(body).toMatchObject({ type: 'FeatureCollection', forecast: true, day: 'today', timezone: 'local', features: [], dates: [] });
    // The map read the cache only: Scranton's first forecast still comes from the provider.
    expect((await json('/api/forecast?city=scranton')).body.source).toBe('sample');
  });

  it.each([
    ['today', 0],
    ['tomorrow', 1],
  ] as const)("%s: each cached city's local day, with the levels /api/forecast's day rows give", async (day, index) => {
    const panels = new Map<string, Json>();
    for (const city of ['austin', 'honolulu', 'scranton'])
      panels.set(city, (await json(`/api/forecast?city=${city}&aggregate=day&timezone=local`)).body);
    const { status, body } = await json(`/api/forecast-map?day=${day}`);
    expect(status).toBe(200);
    expectMatchesOpenApi('/api/forecast-map', 200, body);
    expect(body).toMatchObject({ forecast: true, day, provider: 'sample', simulated: true });
    // Wichita's forecast was never asked for: it is not on the map.
    expect(body.features.map((f: Json) => f.properties.city)).toEqual(['austin', 'honolulu', 'scranton']);
    // Honolulu is still on April 10 while the others are on April 11.
    expect(body.dates).toEqual(index === 0 ? ['2025-04-10', '2025-04-11'] : ['2025-04-11', '2025-04-12']);
    for (const f of body.features as Json[]) {
      const p = f.properties;
      const row = panels.get(p.city)!.rows[index];
      expect(p.date, p.city).toBe(row.date);
      expect(p).toMatchObject({
        forecast: true,
        stale: false,
        hours: row.hours,
        tree: row.peak_tree,
        grass: row.peak_grass,
        weed: row.peak_weed,
      });
      expect([p.risk_tree, p.risk_grass, p.risk_weed]).toEqual([row.peak_risk_tree, row.peak_risk_grass, row.peak_risk_weed]);
      expect(p.sev_tree).toBe(SEV[row.peak_risk_tree] ?? 0);
      expect(p.sev_total).toBe(Math.max(p.sev_tree, p.sev_grass, p.sev_weed, p.sev_ragweed));
      expect(p.series.map((d: Json) => d.date)).toHaveLength(3);
      expect(p.series[2]).toMatchObject({ date: row.date, tree: row.peak_tree, risk_tree: row.peak_risk_tree });
    }
  });

  it('refuses a day it does not know, naming the parameter', async () => {
    const { status, body } = await json('/api/forecast-map?day=yesterday');
    expect(status).toBe(400);
    expect(body.error).toMatch(/day/);
    expectMatchesOpenApi('/api/forecast-map', 400, body);
  });
});
