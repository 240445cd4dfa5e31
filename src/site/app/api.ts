/** The public API, as the page reads it: same-origin JSON, nothing else. Its types are the API's own schemas'. */
import type { ForecastResponse } from '../../api/endpoints/forecast.js';
import type { SeasonResponse } from '../../api/endpoints/season.js';
import type { ForecastPollen, HourlyPollen } from '../../domain/schemas.js';

export type {
  CategorySeason,
  DailyPollen as DayRow,
  ForecastDay,
  MapFeature,
  PollenRisk as Risk,
  WeatherRow,
} from '../../domain/schemas.js';

export type { ForecastSkill } from '../../domain/verification/skill-schemas.js';

/** `/api/season`. */
export type SeasonAnswer = SeasonResponse;

/** An hour as the charts read it: observed or forecast. */
export type HourRow = Pick<HourlyPollen, 'ts' | 'tree' | 'grass' | 'weed' | 'risk_tree' | 'risk_grass' | 'risk_weed'>;

/** `/api/forecast` in hourly rows. */
export type Forecast = Omit<ForecastResponse, 'rows'> & { rows: ForecastPollen[] };

/** GETs a JSON document, throwing with the API's own error message. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}
