import { describe, expect, it } from 'vitest';
import { D, type Json, jsonGetter } from '../helpers/api-get.js';
import { SITE_CITIES, useSite } from '../helpers/site.js';

const site = useSite();
const getJson = jsonGetter(site);

describe('GET /api/weather', () => {
  it('returns a city newest first, a city-day, and the compact snapshot of a date', async () => {
    const city = (await getJson('/api/weather?city=scranton')).body;
    expect(city.rows).toHaveLength(10);
    expect(city.rows[0].date).toBe('2025-04-10');
    expect(city.rows[0].temp_day_c).toBe(site.store.weather.cityDay('scranton', D('2025-04-10'))!.values.temp_day_c);

    const one = (await getJson('/api/weather?city=scranton&date=2025-04-02')).body;
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0]).toMatchObject({
      city_slug: 'scranton',
      date: '2025-04-02',
      timezone: 'America/New_York',
      tz: '-04:00',
      source: 'sample',
    });

    const snapshot = (await getJson('/api/weather?date=2025-04-02')).body;
    expect(snapshot.rows.map((r: Json) => r.city_slug)).toEqual([...SITE_CITIES].sort());
    for (const r of snapshot.rows)
      expect(Object.keys(r).every((k) => ['city_slug', 'date', 'temp_day_c', 'humidity', 'wind_speed_ms', 'aqi'].includes(k))).toBe(true);
    expect((await getJson('/api/weather')).body).toEqual((await getJson('/api/weather?date=2025-04-10')).body);
  });
});
