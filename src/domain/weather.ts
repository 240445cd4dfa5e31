/** Daily weather and air-quality observations (docs/decisions.md, "Weather"). */

/** Measured fields of a weather row, in the order responses list them; all optional. */
export const WEATHER_FIELDS = [
  'tz',
  'timezone',
  'temp_min_c',
  'temp_max_c',
  'temp_day_c',
  'feels_like_day_c',
  'humidity',
  'pressure_hpa',
  'wind_speed_ms',
  'wind_deg',
  'clouds_pct',
  'precip_mm',
  'uvi',
  'weather_main',
  'weather_desc',
  'aqi',
  'aqi_pm2_5',
  'aqi_pm10',
  'aqi_o3',
  'aqi_no2',
  'aqi_so2',
  'aqi_co',
] as const;

export type WeatherField = (typeof WEATHER_FIELDS)[number];
export const TEXT_FIELDS: ReadonlySet<WeatherField> = new Set<WeatherField>(['tz', 'timezone', 'weather_main', 'weather_desc']);
export const INTEGER_FIELDS: ReadonlySet<WeatherField> = new Set<WeatherField>([
  'humidity',
  'pressure_hpa',
  'wind_deg',
  'clouds_pct',
  'aqi',
]);

/** What a provider reports for one city-day: any subset of the measured fields. */
export type WeatherValues = { [K in WeatherField]?: K extends 'tz' | 'timezone' | 'weather_main' | 'weather_desc' ? string : number };

/** A stored weather row: one city's UTC day. */
export interface StoredWeather {
  city: string;
  day: number;
  source: string;
  fetchedAt: number;
  values: WeatherValues;
}

/** The measured fields a provider sent, with every invalid value dropped (omitted, never null). */
export function sanitizeWeather(raw: Partial<Record<WeatherField, unknown>>): WeatherValues {
  const out: Record<string, string | number> = {};
  for (const field of WEATHER_FIELDS) {
    const v = raw[field];
    if (TEXT_FIELDS.has(field)) {
      if (typeof v === 'string' && v.length > 0) out[field] = v;
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      if (INTEGER_FIELDS.has(field) && !Number.isInteger(v)) continue;
      if (field === 'aqi' && (v < 1 || v > 5)) continue;
      if (field !== 'temp_min_c' && field !== 'temp_max_c' && field !== 'temp_day_c' && field !== 'feels_like_day_c' && v < 0) continue;
      out[field] = v;
    }
  }
  return out as WeatherValues;
}
