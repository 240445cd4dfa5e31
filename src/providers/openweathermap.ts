/**
 * OpenWeatherMap: One Call 3.0 daily summaries (one request per day) and the Air Pollution
 * history (one request per window, hourly, AQI 1 to 5 as it reports; a day's index is its worst
 * hour, concentrations are daily means). The key travels as `appid` and is never logged.
 *
 * From OpenWeather's documentation (openweathermap.org/api/one-call-3#history_daily_aggregation,
 * /api/air-pollution): a day summary gives temperatures at 00:00, 06:00, 12:00 and 18:00 in the
 * `tz` asked for, plus min, max, precipitation total, wind maximum, and humidity, pressure and
 * cloud cover at 12:00 ("afternoon"); we ask with `tz=+00:00`, so the day is the UTC day and
 * `temp_day_c` is the mean of the four readings. Summaries go back to 1979-01-02, air pollution
 * history to 2020-11-27. Errors are `{"cod": N, "message": ...}`: 401 without a One Call
 * subscription, 404 no data, 429 over the account's calls.
 */
import type { City } from '../domain/cities.js';
import { DAY_MS, dayNumber, dayString, utcOffset } from '../domain/dates.js';
import type { WeatherField } from '../domain/weather.js';
import { OPENWEATHERMAP_URL } from '../settings.js';
import { dailyMeans } from './daily-means.js';
import type { HttpClient } from './http-client.js';
import { type Coverage, type DaySpan, openCoverage, ProviderError, type RawWeatherDay, type WeatherProvider } from './provider.js';

export const OPENWEATHERMAP_ID = 'openweathermap';
/** The first day of One Call day summaries, and of air pollution history. */
export const DAY_SUMMARY_START = dayNumber('1979-01-02');
export const AIR_HISTORY_START = dayNumber('2020-11-27');
const READINGS = ['night', 'morning', 'afternoon', 'evening'] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);
const COMPONENTS = ['pm2_5', 'pm10', 'o3', 'no2', 'so2', 'co'] as const;

export interface OpenWeatherMapOptions {
  apiKey: string;
  http: HttpClient;
  baseUrl?: string;
}

export class OpenWeatherMapProvider implements WeatherProvider {
  readonly id = OPENWEATHERMAP_ID;
  readonly maxDaysPerCall = 31;
  private readonly baseUrl: string;

  constructor(private readonly options: OpenWeatherMapOptions) {
    this.baseUrl = options.baseUrl ?? OPENWEATHERMAP_URL;
  }

  private url(path: string, city: City, params: Record<string, string>): URL {
    const url = new URL(path, this.baseUrl);
    url.searchParams.set('lat', String(city.lat));
    url.searchParams.set('lon', String(city.lon));
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set('appid', this.options.apiKey);
    return url;
  }

  /** Day summaries up to yesterday (today's UTC day is not over). */
  coverage(now: number): Coverage {
    return openCoverage(Math.floor(now / DAY_MS) * 24, DAY_SUMMARY_START * 24);
  }

  async weatherHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<RawWeatherDay[]> {
    const airFrom = Math.max(span.from, AIR_HISTORY_START);
    const air =
      airFrom > span.to
        ? { list: [] }
        : await this.options.http.getJson(
            this.url('/data/2.5/air_pollution/history', city, {
              start: String((airFrom * DAY_MS) / 1000),
              end: String(((span.to + 1) * DAY_MS) / 1000 - 1),
            }),
            { signal },
          );
    const list = at(air, 'list');
    if (!Array.isArray(list)) throw new ProviderError(this.id, 'bad_payload', 'air pollution history has no list');
    const hours = list.filter(isObject).map((h) => ({
      time: Number(h.dt) * 1000,
      aqi: at(h, 'main', 'aqi'),
      values: (isObject(h.components) ? h.components : {}) as Partial<Record<(typeof COMPONENTS)[number], unknown>>,
    }));
    const means = dailyMeans(
      hours.filter((h) => Number.isFinite(h.time)),
      COMPONENTS,
    );
    const worst = new Map<number, number>();
    for (const h of hours) {
      const day = Math.floor(h.time / DAY_MS);
      if (typeof h.aqi === 'number' && Number.isInteger(h.aqi)) worst.set(day, Math.max(worst.get(day) ?? 0, h.aqi));
    }

    const days: RawWeatherDay[] = [];
    for (let day = span.from; day <= span.to; day++) {
      const s = await this.options.http
        .getJson(this.url('/data/3.0/onecall/day_summary', city, { date: dayString(day), units: 'metric', tz: '+00:00' }), { signal })
        // 404 is OpenWeather's "no data for this date": the day is left out (empty), not failed.
        .catch((error: unknown) => (error instanceof ProviderError && error.failure === 'not_covered' ? undefined : Promise.reject(error)));
      if (s === undefined) continue;
      if (!isObject(s)) throw new ProviderError(this.id, 'bad_payload', 'day summary is not an object');
      const a = means.get(day) ?? {};
      const round = (v: unknown) => (typeof v === 'number' ? Math.round(v) : undefined);
      const values: Partial<Record<WeatherField, unknown>> = {
        tz: utcOffset(city.timezone, day * DAY_MS + DAY_MS / 2),
        timezone: city.timezone,
        temp_min_c: at(s, 'temperature', 'min'),
        temp_max_c: at(s, 'temperature', 'max'),
        temp_day_c: meanOf(READINGS.map((r) => at(s, 'temperature', r))),
        humidity: round(at(s, 'humidity', 'afternoon')),
        pressure_hpa: round(at(s, 'pressure', 'afternoon')),
        wind_speed_ms: at(s, 'wind', 'max', 'speed'),
        wind_deg: round(at(s, 'wind', 'max', 'direction')),
        clouds_pct: round(at(s, 'cloud_cover', 'afternoon')),
        precip_mm: at(s, 'precipitation', 'total'),
        aqi: worst.get(day),
        aqi_pm2_5: a.pm2_5,
        aqi_pm10: a.pm10,
        aqi_o3: a.o3,
        aqi_no2: a.no2,
        aqi_so2: a.so2,
        aqi_co: a.co,
      };
      days.push({ day, values });
    }
    return days;
  }
}

/** The mean of the numbers present, rounded to 0.01; undefined when none is. */
function meanOf(values: unknown[]): number | undefined {
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return numbers.length === 0 ? undefined : Math.round((numbers.reduce((a, b) => a + b, 0) / numbers.length) * 100) / 100;
}
