import { describe, expect, it } from 'vitest';
import { aqiFromConcentrations } from '../../src/domain/aqi.js';
import { cityBySlug } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { sanitizeWeather } from '../../src/domain/weather.js';
import { HttpClient } from '../../src/providers/http.js';
import { OpenMeteoProvider, describeWeatherCode } from '../../src/providers/open-meteo.js';
import { OpenWeatherMapProvider } from '../../src/providers/openweathermap.js';
import { ProviderError } from '../../src/providers/provider.js';
import { fixture, mockAgent } from '../helpers/fixtures.js';

const tulsa = cityBySlug('tulsa')!;
const http = (agent: ReturnType<typeof mockAgent>, provider: string, secrets: string[] = []) =>
  new HttpClient({ provider, policy: { retries: 1 }, dispatcher: agent, secrets, sleep: async () => {} });

describe('Open-Meteo client', () => {
  const span = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-02') };

  it('maps daily weather and computes the AQI from daily mean concentrations', async () => {
    const agent = mockAgent();
    let archivePath = '';
    agent.get('https://archive-api.open-meteo.com').intercept({ path: (p) => p.startsWith('/v1/archive?'), method: 'GET' }).reply((req) => {
      archivePath = req.path;
      return { statusCode: 200, data: fixture('open-meteo-archive.json') };
    });
    agent.get('https://air-quality-api.open-meteo.com').intercept({ path: (p) => p.startsWith('/v1/air-quality?'), method: 'GET' }).reply(200, fixture('open-meteo-air.json'));
    const days = await new OpenMeteoProvider({ http: http(agent, 'open-meteo') }).weatherHistory(tulsa, span);

    const q = new URL(archivePath, 'https://x').searchParams;
    expect([q.get('latitude'), q.get('longitude'), q.get('start_date'), q.get('end_date'), q.get('timezone'), q.get('wind_speed_unit')]).toEqual(['36.154', '-95.9928', '2025-04-01', '2025-04-02', 'GMT', 'ms']);
    expect(days.map((d) => d.day)).toEqual([span.from, span.to]);
    expect(sanitizeWeather(days[0]!.values)).toEqual({
      tz: '-05:00', timezone: 'America/Chicago',
      temp_min_c: 8.1, temp_max_c: 21.9, temp_day_c: 15.2, feels_like_day_c: 13.9,
      humidity: 61, pressure_hpa: 1016, wind_speed_ms: 6.2, wind_deg: 182, clouds_pct: 13, precip_mm: 0,
      weather_main: 'Clouds', weather_desc: 'few clouds',
      aqi: 2, aqi_pm2_5: 10, aqi_pm10: 15, aqi_o3: 60, aqi_no2: 11, aqi_so2: 1, aqi_co: 210,
    });
    const second = sanitizeWeather(days[1]!.values);
    expect(second).toMatchObject({ weather_main: 'Rain', weather_desc: 'moderate rain', aqi_pm2_5: 30, aqi_o3: 93 });
    expect(second.aqi).toBe(aqiFromConcentrations({ pm2_5: 30, pm10: 42, o3: 93, no2: 21, so2: 2, co: 310 }));
  });

  it('rejects a payload without its time column as a bad payload', async () => {
    const agent = mockAgent();
    agent.get('https://archive-api.open-meteo.com').intercept({ path: (p) => p.startsWith('/v1/archive'), method: 'GET' }).reply(200, { daily: { temperature_2m_min: [1] } });
    agent.get('https://air-quality-api.open-meteo.com').intercept({ path: (p) => p.startsWith('/v1/air-quality'), method: 'GET' }).reply(200, fixture('open-meteo-air.json'));
    const error = await new OpenMeteoProvider({ http: http(agent, 'open-meteo') }).weatherHistory(tulsa, span).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('bad_payload');
  });

  it.each([
    [0, 'Clear'],
    [3, 'Clouds'],
    [45, 'Fog'],
    [55, 'Drizzle'],
    [82, 'Rain'],
    [75, 'Snow'],
    [99, 'Thunderstorm'],
  ])('describes WMO code %i as %s', (code, main) => {
    expect(describeWeatherCode(code)?.[0]).toBe(main);
  });
});

describe('OpenWeatherMap client', () => {
  const KEY = 'owm-secret-77';
  const day = dayNumber('2025-04-01');

  it('maps the day summary and the air pollution history, the key only in appid', async () => {
    const agent = mockAgent();
    const pool = agent.get('https://api.openweathermap.org');
    const paths: string[] = [];
    pool.intercept({ path: (p) => p.startsWith('/data/2.5/air_pollution/history?'), method: 'GET' }).reply((req) => (paths.push(req.path), { statusCode: 200, data: fixture('owm-air-history.json') }));
    pool.intercept({ path: (p) => p.startsWith('/data/3.0/onecall/day_summary?'), method: 'GET' }).reply((req) => (paths.push(req.path), { statusCode: 200, data: fixture('owm-day-summary.json') }));
    const [only] = await new OpenWeatherMapProvider({ apiKey: KEY, http: http(agent, 'openweathermap', [KEY]) }).weatherHistory(tulsa, { from: day, to: day });

    const air = new URL(paths[0]!, 'https://x').searchParams;
    expect([air.get('start'), air.get('end'), air.get('appid')]).toEqual(['1743465600', '1743551999', KEY]);
    expect(new URL(paths[1]!, 'https://x').searchParams.get('date')).toBe('2025-04-01');
    expect(only!.day).toBe(day);
    expect(sanitizeWeather(only!.values)).toEqual({
      tz: '-05:00', timezone: 'America/Chicago',
      temp_min_c: 8.3, temp_max_c: 22.1, temp_day_c: 21.4,
      humidity: 49, pressure_hpa: 1015, wind_speed_ms: 7.3, wind_deg: 190, clouds_pct: 20, precip_mm: 0.4,
      aqi: 3, // the worst hour, as OpenWeatherMap reports it
      aqi_pm2_5: 9, aqi_pm10: 13, aqi_o3: 81, aqi_no2: 11, aqi_so2: 1.3, aqi_co: 206,
    });
  });

  it('never shows the key in an error', async () => {
    const agent = mockAgent();
    agent.get('https://api.openweathermap.org').intercept({ path: (p) => p.startsWith('/data/2.5/air_pollution/history'), method: 'GET' }).reply(401, { cod: 401, message: `Invalid API key ${KEY}` });
    const error = (await new OpenWeatherMapProvider({ apiKey: KEY, http: http(agent, 'openweathermap', [KEY]) }).weatherHistory(tulsa, { from: day, to: day }).catch((e: unknown) => e)) as ProviderError;
    expect(error.failure).toBe('unauthorized');
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('appid');
  });
});
