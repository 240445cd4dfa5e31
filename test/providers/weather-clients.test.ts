import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aqiFromConcentrations } from '../../src/domain/aqi.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import { sanitizeWeather } from '../../src/domain/weather.js';
import { StoreLedger } from '../../src/providers/call-budget.js';
import { HttpClient } from '../../src/providers/http-client.js';
import { callWeight, describeWeatherCode, OpenMeteoProvider } from '../../src/providers/open-meteo.js';
import { OpenWeatherMapProvider } from '../../src/providers/openweathermap.js';
import { ProviderError } from '../../src/providers/provider.js';
import { openStore } from '../../src/store/store.js';
import { fixture } from '../helpers/fixtures.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const tulsa = DEFAULT_CITIES.get('tulsa')!;
let server: ScriptedServer;
beforeEach(async () => (server = await scriptedServer()));
afterEach(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

const http = (provider: string, options: { secrets?: string[]; ledger?: StoreLedger; retries?: number; sleeps?: number[] } = {}) =>
  new HttpClient({
    provider,
    policy: { retries: options.retries ?? 1 },
    secrets: options.secrets ?? [],
    ledger: options.ledger,
    sleep: async (ms) => void options.sleeps?.push(ms),
  });
const archive = (u: URL) => u.pathname === '/v1/archive';
const air = (u: URL) => u.pathname === '/v1/air-quality';
const openMeteo = (h = http('open-meteo')) => new OpenMeteoProvider({ http: h, archiveUrl: server.url, airQualityUrl: server.url });

describe('Open-Meteo client', () => {
  const span = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-02') };

  it('maps daily weather and computes the AQI from daily mean concentrations', async () => {
    server.on(archive, { status: 200, body: fixture('open-meteo-archive.json') });
    server.on(air, { status: 200, body: fixture('open-meteo-air.json') });
    const days = await openMeteo().weatherHistory(tulsa, span);

    const q = server.seen.find((r) => archive(r.url))!.url.searchParams;
    expect([
      q.get('latitude'),
      q.get('longitude'),
      q.get('start_date'),
      q.get('end_date'),
      q.get('timezone'),
      q.get('wind_speed_unit'),
    ]).toEqual(['36.154', '-95.9928', '2025-04-01', '2025-04-02', 'GMT', 'ms']);
    expect(days.map((d) => d.day)).toEqual([span.from, span.to]);
    expect(sanitizeWeather(days[0]!.values)).toEqual({
      tz: '-05:00',
      timezone: 'America/Chicago',
      temp_min_c: 8.1,
      temp_max_c: 21.9,
      temp_day_c: 15.2,
      feels_like_day_c: 13.9,
      humidity: 61,
      pressure_hpa: 1016,
      wind_speed_ms: 6.2,
      wind_deg: 182,
      clouds_pct: 13,
      precip_mm: 0,
      weather_main: 'Clouds',
      weather_desc: 'few clouds',
      aqi: 2,
      aqi_pm2_5: 10,
      aqi_pm10: 15,
      aqi_o3: 60,
      aqi_no2: 11,
      aqi_so2: 1,
      aqi_co: 210,
    });
    const second = sanitizeWeather(days[1]!.values);
    expect(second).toMatchObject({ weather_main: 'Rain', weather_desc: 'moderate rain', aqi_pm2_5: 30, aqi_o3: 93 });
    expect(second.aqi).toBe(aqiFromConcentrations({ pm2_5: 30, pm10: 42, o3: 93, no2: 21, so2: 2, co: 310 }));
  });

  it('leaves out a day the archive has not filled yet (all nulls), so that it is asked again', async () => {
    server.on(archive, { status: 200, body: fixture('open-meteo-archive-lagging.json') });
    server.on(air, { status: 200, body: fixture('open-meteo-air.json') });
    expect((await openMeteo().weatherHistory(tulsa, span)).map((d) => d.day)).toEqual([span.from]);
  });

  it('does not ask for air quality before August 2022 (CAMS global), and asks only from then on', async () => {
    server.on(archive, { status: 200, body: { daily: { time: ['2022-07-30', '2022-07-31'], temperature_2m_mean: [30, 31] } } });
    const early = await openMeteo().weatherHistory(tulsa, { from: dayNumber('2022-07-30'), to: dayNumber('2022-07-31') });
    expect(early.map((d) => sanitizeWeather(d.values).temp_day_c)).toEqual([30, 31]);
    expect(server.seen.filter((r) => air(r.url))).toHaveLength(0);

    server.on(archive, { status: 200, body: { daily: { time: ['2022-07-31', '2022-08-01'], temperature_2m_mean: [30, 31] } } });
    server.on(air, { status: 200, body: { hourly: { time: ['2022-08-01T00:00'], pm2_5: [12] } } });
    await openMeteo().weatherHistory(tulsa, { from: dayNumber('2022-07-31'), to: dayNumber('2022-08-01') });
    expect(server.seen.find((r) => air(r.url))!.url.searchParams.get('start_date')).toBe('2022-08-01');
  });

  it('weighs each call as the server does, and the ledger counts it rounded up', async () => {
    expect(callWeight(11, 1)).toBe(1.1);
    expect(callWeight(6, 1)).toBe(1);
    expect(callWeight(11, 31)).toBeCloseTo(2.4357, 3);
    expect(callWeight(15, 7)).toBe(1.5); // the server's own test: 7 days x 15 variables
    const store = openStore(join(tempDir(), 'weights.db'));
    const now = () => Date.parse('2025-05-01T12:00:00Z');
    const ledger = new StoreLedger(store, 'open-meteo', { daily: 10_000, forecastReserve: 0 }, 'ingest', now);
    const month = Array.from({ length: 31 }, (_, i) => new Date((dayNumber('2025-03-01') + i) * DAY_MS).toISOString().slice(0, 10));
    server.on(archive, { status: 200, body: { daily: { time: month, temperature_2m_mean: month.map(() => 10) } } });
    server.on(air, { status: 200, body: { hourly: { time: [], pm2_5: [] } } });
    await openMeteo(http('open-meteo', { ledger })).weatherHistory(tulsa, { from: dayNumber('2025-03-01'), to: dayNumber('2025-03-31') });
    // 11 daily variables over 31 days weigh 2.44 (3 calls); 6 hourly ones 1.33 (2 calls).
    expect(store.ledger.callsOn('open-meteo', '2025-05-01')).toEqual({ ingest: 5, forecast: 0 });
    store.close();
  });

  it.each([
    ['Minutely API request limit exceeded. Please try again in one minute.', 'waits a minute and asks again'],
    ['Too many concurrent requests', 'waits a minute and asks again'],
  ])('reads 429 "%s" as a passing limit: %s', async (reason) => {
    const sleeps: number[] = [];
    server.on(archive, { status: 429, body: { error: true, reason } });
    server.on(archive, { status: 200, body: fixture('open-meteo-archive.json') });
    server.on(air, { status: 200, body: fixture('open-meteo-air.json') });
    expect(await openMeteo(http('open-meteo', { sleeps })).weatherHistory(tulsa, span)).toHaveLength(2);
    expect(sleeps).toEqual([60_000]);
  });

  it.each([
    [429, 'Daily API request limit exceeded. Please try again tomorrow.', 'quota'],
    [429, 'Hourly API request limit exceeded. Please try again in the next hour.', 'quota'],
    [400, "Parameter 'end_date' is out of allowed range from 1940-01-01 to 2025-04-01", 'outside_window'],
    [400, 'End-date must be larger or equals than start-date', 'rejected'],
  ])('maps %i "%s" to %s, without retrying', async (status, reason, kind) => {
    const h = http('open-meteo', { retries: 3 });
    server.on(archive, { status, body: { error: true, reason } });
    server.on(air, { status: 200, body: fixture('open-meteo-air.json') });
    const error = (await openMeteo(h)
      .weatherHistory(tulsa, span)
      .catch((e: unknown) => e)) as ProviderError;
    expect(error.failure).toBe(kind);
    expect(server.seen.filter((r) => archive(r.url))).toHaveLength(1);
  });

  it('declares the archive up to yesterday, and asks again for days it may still fill (5 days, ERA5)', () => {
    const now = Date.parse('2025-04-10T06:30:00Z');
    const today = dayNumber('2025-04-10');
    expect(openMeteo().coverage(now)).toEqual({
      oldestHour: dayNumber('1940-01-01') * 24,
      newestHour: today * 24,
      retryFromHour: (today - 5) * 24,
    });
  });

  it('rejects a payload without its time column as a bad payload', async () => {
    server.on(archive, { status: 200, body: { daily: { temperature_2m_min: [1] } } });
    server.on(air, { status: 200, body: fixture('open-meteo-air.json') });
    const error = await openMeteo()
      .weatherHistory(tulsa, span)
      .catch((e: unknown) => e);
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
  const owm = () => new OpenWeatherMapProvider({ apiKey: KEY, http: http('openweathermap', { secrets: [KEY] }), baseUrl: server.url });
  const summary = (u: URL) => u.pathname === '/data/3.0/onecall/day_summary';
  const airHistory = (u: URL) => u.pathname === '/data/2.5/air_pollution/history';

  it('maps the day summary of the UTC day and the air pollution history, the key only in appid', async () => {
    server.on(airHistory, { status: 200, body: fixture('owm-air-history.json') });
    server.on(summary, { status: 200, body: fixture('owm-day-summary.json') });
    const [only] = await owm().weatherHistory(tulsa, { from: day, to: day });

    const a = server.seen[0]!.url.searchParams;
    expect([a.get('start'), a.get('end'), a.get('appid')]).toEqual(['1743465600', '1743551999', KEY]);
    const s = server.seen[1]!.url.searchParams;
    expect([s.get('date'), s.get('tz'), s.get('units')]).toEqual(['2025-04-01', '+00:00', 'metric']);
    expect(only!.day).toBe(day);
    expect(sanitizeWeather(only!.values)).toEqual({
      tz: '-05:00',
      timezone: 'America/Chicago',
      // the mean of the 00:00, 06:00, 12:00 and 18:00 UTC readings, not the 12:00 UTC one alone (a US dawn)
      temp_min_c: 8.12,
      temp_max_c: 22.75,
      temp_day_c: 15.03,
      // one reading of the day: 12:00 UTC
      humidity: 42,
      pressure_hpa: 1014,
      clouds_pct: 13,
      wind_speed_ms: 7.81,
      wind_deg: 311,
      precip_mm: 0.07,
      aqi: 3, // the worst hour, as OpenWeatherMap reports it
      aqi_pm2_5: 9,
      aqi_pm10: 13,
      aqi_o3: 81,
      aqi_no2: 11,
      aqi_so2: 1.3,
      aqi_co: 206,
    });
  });

  it('leaves out a day it has no summary for (404), rather than failing the window', async () => {
    server.on(airHistory, { status: 200, body: fixture('owm-air-history.json') });
    server.on(summary, { status: 404, body: { cod: '404', message: 'No data for this date' } });
    server.on(summary, { status: 200, body: fixture('owm-day-summary.json') });
    const days = await owm().weatherHistory(tulsa, { from: day, to: day + 1 });
    expect(days.map((d) => d.day)).toEqual([day + 1]);
  });

  it('does not ask for air pollution before 2020-11-27, when its history starts', async () => {
    server.on(summary, { status: 200, body: fixture('owm-day-summary.json') });
    await owm().weatherHistory(tulsa, { from: dayNumber('2020-11-01'), to: dayNumber('2020-11-01') });
    expect(server.seen.map((r) => r.url.pathname)).toEqual(['/data/3.0/onecall/day_summary']);
  });

  it('never shows the key in an error', async () => {
    server.on(airHistory, {
      status: 401,
      body: { cod: 401, message: `Please note that using One Call 3.0 requires a separate subscription. Invalid API key ${KEY}` },
    });
    const error = (await owm()
      .weatherHistory(tulsa, { from: day, to: day })
      .catch((e: unknown) => e)) as ProviderError;
    expect(error.failure).toBe('unauthorized');
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('appid');
  });
});
