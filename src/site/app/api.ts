/** The public API, as the page reads it: same-origin JSON, nothing else. */

export type Risk = 'None' | 'Low' | 'Moderate' | 'High' | 'Very High' | null;

export interface MapFeature {
  geometry: { coordinates: [number, number] };
  properties: {
    city: string;
    tree: number | null;
    grass: number | null;
    weed: number | null;
    ragweed: number | null;
    risk_tree: Risk;
    risk_grass: Risk;
    risk_weed: Risk;
    risk_ragweed: Risk;
    sev_total: number;
    timezone: string | null;
  };
}

export interface HourRow {
  ts: string;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  risk_tree: Risk;
  risk_grass: Risk;
  risk_weed: Risk;
}

export interface DayRow {
  date: string;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  species: Record<string, number | null | Record<string, number | null>> | null;
  peak_risk_tree: Risk;
  peak_risk_grass: Risk;
  peak_risk_weed: Risk;
  /** Local days only: the hours the day holds. */
  hours?: number;
}

/** A forecast day (aggregate=day): the worst hour's risks and how many forecast hours it holds. */
export interface ForecastDay {
  date: string;
  hours: number;
  peak_risk_tree: Risk;
  peak_risk_grass: Risk;
  peak_risk_weed: Risk;
}

export interface WeatherRow {
  temp_min_c?: number;
  temp_max_c?: number;
  temp_day_c?: number;
  humidity?: number;
  wind_speed_ms?: number;
  precip_mm?: number;
  weather_desc?: string;
  aqi?: number;
}

export interface Forecast {
  source: string;
  stale: boolean;
  quotaExhausted?: boolean;
  fetchedAt: string | null;
  rows: HourRow[];
}

/** GETs a JSON document, throwing with the API's own error message. */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}
