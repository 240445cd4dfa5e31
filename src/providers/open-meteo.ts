/**
 * Open-Meteo's historical weather and air-quality APIs: no key. Daily weather comes as UTC days;
 * air quality comes hourly and is averaged per UTC day, its index computed from the
 * concentrations with OpenWeatherMap's breakpoints (docs/decisions.md, "Weather").
 *
 * What the server does, from its source (open-meteo/open-meteo):
 * - a call weighs `max(1, variables / 10 x max(1, days / 14))` against the free 10,000 a day
 *   (`ForecastApiResult.swift`, `calculateQueryWeight`; `RateLimiter.swift`);
 * - 429 `{"error": true, "reason": ...}` says which limit: the daily and hourly ones are a quota,
 *   "Minutely API request limit exceeded" and "Too many concurrent requests" pass within a
 *   minute (`RateLimiter.swift`, `RateLimitError.reason`); a date outside the archive is
 *   400 "Parameter 'start_date' is out of allowed range ..." (`ForecastapiQuery.swift`);
 * - the archive serves 1940-01-01 to today; its newest days can still be null while the
 *   reanalysis catches up ("Daily with 5 days delay", historical-weather-api docs; issue #2122);
 * - US air quality comes from CAMS global, "August 2022 onwards" (air-quality-api docs).
 */
import { aqiFromConcentrations } from '../domain/aqi.js';
import type { City } from '../domain/cities.js';
import { DAY_MS, dayNumber, dayString, utcOffset } from '../domain/dates.js';
import type { WeatherField } from '../domain/weather.js';
import { OPEN_METEO_AIR_URL, OPEN_METEO_ARCHIVE_URL } from '../settings.js';
import { dailyMeans } from './daily-means.js';
import { commonVerdict, type HttpClient, type Verdict } from './http-client.js';
import { type Coverage, type DaySpan, ProviderError, type RawWeatherDay, type WeatherProvider } from './provider.js';

export const OPEN_METEO_ID = 'open-meteo';
/** The archive's first day. */
export const ARCHIVE_START = dayNumber('1940-01-01');
/** The first day of air quality for US locations (CAMS global). */
export const US_AIR_QUALITY_START = dayNumber('2022-08-01');
/** Days the archive may take to fill a day (ERA5's delay): a day still null is asked again until then. */
export const ARCHIVE_LAG_DAYS = 5;

/** What a call weighs against the daily limit, as the server counts it. */
export function callWeight(variables: number, days: number): number {
  return Math.max(1, (variables / 10) * Math.max(1, days / 14));
}

/** Open-Meteo's statuses: its 429 reason says which limit was hit; a 400 out of range is its window. */
export function openMeteoVerdict(status: number, body: string): Verdict {
  if (status === 429)
    return /minutely|concurrent/i.test(body) ? { ok: false, failure: 'throttled', retryAfterSeconds: 60 } : { ok: false, failure: 'quota' };
  if (status === 400 && /out of allowed range/i.test(body)) return { ok: false, failure: 'outside_window' };
  return commonVerdict(status);
}

const DAILY = [
  'temperature_2m_min',
  'temperature_2m_max',
  'temperature_2m_mean',
  'apparent_temperature_mean',
  'relative_humidity_2m_mean',
  'pressure_msl_mean',
  'wind_speed_10m_max',
  'wind_direction_10m_dominant',
  'cloud_cover_mean',
  'precipitation_sum',
  'weather_code',
] as const;
const HOURLY_AIR = ['pm2_5', 'pm10', 'ozone', 'nitrogen_dioxide', 'sulphur_dioxide', 'carbon_monoxide'] as const;

/** A day's stored fields from Open-Meteo's daily archive values and the day's means of its hourly air quality. */
function weatherValues(
  city: City,
  day: number,
  d: Partial<Record<(typeof DAILY)[number], unknown>>,
  a: Partial<Record<(typeof HOURLY_AIR)[number], number>>,
): Partial<Record<WeatherField, unknown>> {
  const described = typeof d.weather_code === 'number' ? describeWeatherCode(d.weather_code) : undefined;
  const round = (v: unknown) => (typeof v === 'number' ? Math.round(v) : undefined);
  const values: Partial<Record<WeatherField, unknown>> = {
    tz: utcOffset(city.timezone, day * DAY_MS + DAY_MS / 2),
    timezone: city.timezone,
    temp_min_c: d.temperature_2m_min,
    temp_max_c: d.temperature_2m_max,
    temp_day_c: d.temperature_2m_mean,
    feels_like_day_c: d.apparent_temperature_mean,
    humidity: round(d.relative_humidity_2m_mean),
    pressure_hpa: round(d.pressure_msl_mean),
    wind_speed_ms: d.wind_speed_10m_max,
    wind_deg: round(d.wind_direction_10m_dominant),
    clouds_pct: round(d.cloud_cover_mean),
    precip_mm: d.precipitation_sum,
    weather_main: described?.[0],
    weather_desc: described?.[1],
    aqi: aqiFromConcentrations({
      pm2_5: a.pm2_5,
      pm10: a.pm10,
      o3: a.ozone,
      no2: a.nitrogen_dioxide,
      so2: a.sulphur_dioxide,
      co: a.carbon_monoxide,
    }),
    aqi_pm2_5: a.pm2_5,
    aqi_pm10: a.pm10,
    aqi_o3: a.ozone,
    aqi_no2: a.nitrogen_dioxide,
    aqi_so2: a.sulphur_dioxide,
    aqi_co: a.carbon_monoxide,
  };
  return values;
}

/** WMO weather codes as OpenWeatherMap-style main and description. */
export function describeWeatherCode(code: number): [string, string] | undefined {
  if (code === 0) return ['Clear', 'clear sky'];
  if (code <= 2) return ['Clouds', 'few clouds'];
  if (code === 3) return ['Clouds', 'overcast clouds'];
  if (code === 45 || code === 48) return ['Fog', 'fog'];
  if (code >= 51 && code <= 57) return ['Drizzle', 'drizzle'];
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82))
    return ['Rain', code === 61 || code === 80 ? 'light rain' : code === 65 || code === 82 ? 'heavy rain' : 'moderate rain'];
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return ['Snow', 'snow'];
  if (code >= 95) return ['Thunderstorm', 'thunderstorm'];
  return undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface OpenMeteoOptions {
  http: HttpClient;
  archiveUrl?: string;
  airQualityUrl?: string;
}

export class OpenMeteoProvider implements WeatherProvider {
  readonly id = OPEN_METEO_ID;
  readonly maxDaysPerCall = 31;

  constructor(private readonly options: OpenMeteoOptions) {}

  /** The archive up to yesterday; a day it has not filled yet is asked again for `ARCHIVE_LAG_DAYS`. */
  coverage(now: number): Coverage {
    const today = Math.floor(now / DAY_MS);
    return { oldestHour: ARCHIVE_START * 24, newestHour: today * 24, retryFromHour: (today - ARCHIVE_LAG_DAYS) * 24 };
  }

  async weatherHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<RawWeatherDay[]> {
    const common = (base: string, path: string) => {
      const url = new URL(path, base);
      url.searchParams.set('latitude', String(city.lat));
      url.searchParams.set('longitude', String(city.lon));
      url.searchParams.set('start_date', dayString(span.from));
      url.searchParams.set('end_date', dayString(span.to));
      url.searchParams.set('timezone', 'GMT');
      return url;
    };
    const weatherUrl = common(this.options.archiveUrl ?? OPEN_METEO_ARCHIVE_URL, '/v1/archive');
    weatherUrl.searchParams.set('daily', DAILY.join(','));
    weatherUrl.searchParams.set('wind_speed_unit', 'ms');
    const airUrl = common(this.options.airQualityUrl ?? OPEN_METEO_AIR_URL, '/v1/air-quality');
    airUrl.searchParams.set('hourly', HOURLY_AIR.join(','));

    // US air quality starts in August 2022: earlier days are not asked for it.
    const airFrom = Math.max(span.from, US_AIR_QUALITY_START);
    if (airFrom > span.from) airUrl.searchParams.set('start_date', dayString(airFrom));
    const days = span.to - span.from + 1;
    const get = (url: URL, variables: number, n: number) =>
      this.options.http.getJson(url, { signal, weight: callWeight(variables, n), classify: openMeteoVerdict });
    const [weather, air] = await Promise.all([
      get(weatherUrl, DAILY.length, days),
      airFrom <= span.to ? get(airUrl, HOURLY_AIR.length, span.to - airFrom + 1) : { hourly: { time: [] } },
    ]);
    const daily = this.series(weather, 'daily', DAILY);
    const hourly = this.series(air, 'hourly', HOURLY_AIR);
    const airByDay = dailyMeans(
      hourly.map(({ time, values }) => ({ time: Date.parse(`${time}Z`), values })),
      HOURLY_AIR,
    );

    return daily.flatMap(({ time, values: d }): RawWeatherDay[] => {
      const day = dayNumber(time.slice(0, 10));
      if (day < span.from || day > span.to) return [];
      // A day the archive has not filled yet comes back as nulls: it is left out, to be asked again.
      if (DAILY.every((k) => d[k] === null || d[k] === undefined)) return [];
      const values = weatherValues(city, day, d, airByDay.get(day) ?? {});
      return [{ day, values }];
    });
  }

  /** Open-Meteo's column-wise `{time: [...], name: [...]}` as one record per time. */
  private series<K extends string>(
    payload: unknown,
    block: 'daily' | 'hourly',
    keys: readonly K[],
  ): Array<{ time: string; values: Partial<Record<K, unknown>> }> {
    if (!isObject(payload) || !isObject(payload[block]) || !Array.isArray((payload[block] as Json).time)) {
      throw new ProviderError(this.id, 'bad_payload', `the response has no ${block}.time list`);
    }
    const columns = payload[block] as Json;
    const times = columns.time as unknown[];
    return times.map((time, i) => {
      if (typeof time !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(time))
        throw new ProviderError(this.id, 'bad_payload', `${block}.time[${i}] is not a date`);
      return {
        time,
        values: Object.fromEntries(keys.map((k) => [k, Array.isArray(columns[k]) ? (columns[k] as unknown[])[i] : undefined])) as Partial<
          Record<K, unknown>
        >,
      };
    });
  }
}
