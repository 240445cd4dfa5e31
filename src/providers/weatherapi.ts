/**
 * WeatherAPI.com's pollen: hourly grains/m³ of seven plants, asked with `pollen=yes` on the
 * forecast (and, on the Enterprise plan, history) of a latitude and longitude. The key travels as
 * the `key` query parameter, the only way the API takes it, and is never in a message.
 *
 * From WeatherAPI.com's own documents:
 * - base `https://api.weatherapi.com/v1`, `key` and `q` (`lat,lon` in decimal degrees) on every
 *   call; `forecast.json` takes `days` (1 to 14, by plan), `history.json` takes `dt` and `end_dt`
 *   (`yyyy-MM-dd`, dates from 2010-01-01, a range at most 30 days): its OpenAPI document
 *   (www.weatherapi.com/openapi.json, as archived in api-evangelist/weatherapi
 *   `openapi/_original/weatherapi-openapi-original.yml`, commit 114e32f);
 * - pollen is returned only with `pollen=yes`, by plan ("Available on Pro+ and above"), in the
 *   Realtime, Forecast and Future APIs; history of pollen from 2010-01-01 only on Enterprise;
 *   Hazel, Alder, Birch, Oak, Grass, Mugwort and Ragweed, floats in grains per cubic meter, for
 *   cities and towns of the United States, Canada, the UK and Europe: www.weatherapi.com/docs/pollen/
 *   and the same OpenAPI document;
 * - where it sits: `current.pollen` and `forecast.forecastday[].hour[].pollen` (the schemas
 *   CurrentWeather and HourForecast carry a Pollen; ForecastDay, the day's summary, does not), so
 *   WeatherAPI.com gives hours, and this client is an hourly provider.
 *   An hour is `time_epoch` (seconds, the start of the place's local hour) and `time` (local);
 *   a forecast day is the place's local date (`location.tz_id`), from its 00:00 to 23:00, as in a
 *   recorded answer (mmontesanonyc/Weather-App `apitest.js`, commit 41a7987);
 * - errors are `{"error": {"code", "message"}}` with the statuses of www.weatherapi.com/docs/error-codes/:
 *   401 1002 no key, 401 2006 invalid key, 403 2007 monthly quota exceeded, 403 2008 key
 *   disabled, 403 2009 the plan lacks the resource, 400 1003/1005/1006 (no place matches `q`),
 *   400 9000 (bulk requests, never sent here).
 *
 * History: without Enterprise, history.json has no pollen; the only past hours served are those
 * of the place's local today, in the forecast's first day (the model's values, not observations).
 * So the window is the last 24 hours, and of those only the hours since the place's local midnight
 * are in an answer: a UTC day's hours before it are answered only by a run made before that
 * midnight (a run after it that asks them again gets them no more).
 */
import type { City } from '../domain/cities.js';
import { dayNumber, dayOf, dayString, HOUR_MS, utcOffset } from '../domain/dates.js';
import type { Species } from '../domain/species/payload.js';
import { speciesPayload } from '../domain/species/plant-names.js';
import { SPECIES_KEY } from '../domain/species/risk.js';
import { WEATHERAPI_BASE_URL } from '../settings.js';
import { commonVerdict, type HttpClient, type Verdict } from './http-client.js';
import {
  type Coverage,
  type HourSpan,
  openCoverage,
  type PollenBatch,
  type PollenProvider,
  ProviderError,
  type RawPollenHour,
} from './provider.js';

export const WEATHERAPI_ID = 'weatherapi';
/** The first day of history.json; from the next UTC day every zone's local dates are inside. */
export const HISTORY_START_DAY = dayNumber('2010-01-01') + 1;
/** Forecast days asked: the local today and two more hold the 48 hours from now in every zone. */
const FORECAST_DAYS = 3;
const FORECAST_HOURS = 48;
/** history.json serves at most 30 dates a call; a span of UTC days covers one more local date, and we keep a margin. */
const HISTORY_DAYS_PER_CALL = 28;

export interface WeatherApiOptions {
  apiKey: string;
  http: HttpClient;
  baseUrl?: string;
  /** The key is on the Enterprise plan, whose history.json carries pollen from 2010-01-01. */
  enterprise?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** What each documented error code means here; the status alone decides for the rest. */
const BY_CODE = new Map<number, Verdict>([
  [1002, { ok: false, failure: 'unauthorized', note: 'no API key was sent (WEATHERAPI_API_KEY)' }],
  [2006, { ok: false, failure: 'unauthorized', note: 'the API key is not valid' }],
  [2007, { ok: false, failure: 'quota', note: "the key's calls for this month are spent" }],
  [2008, { ok: false, failure: 'unauthorized', note: 'the API key has been disabled' }],
  [
    2009,
    {
      ok: false,
      failure: 'unauthorized',
      note: "the key's plan does not include this (pollen needs Pro+ or above, pollen history Enterprise)",
    },
  ],
  [1006, { ok: false, failure: 'not_covered', note: 'no place matches these coordinates' }],
]);

/** The `error.code` of a WeatherAPI.com error body, if it is one. */
function errorCode(body: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const code = isObject(parsed) && isObject(parsed.error) ? parsed.error.code : undefined;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * WeatherAPI.com's statuses by their error codes: a spent monthly quota (2007) is `quota`; a
 * missing, invalid or disabled key, or a plan without pollen, is `unauthorized` in plain words;
 * no place for the coordinates (1006) is `not_covered`; the rest as the status says.
 */
export function weatherapiVerdict(status: number, body: string): Verdict {
  if (status === 200) return { ok: true };
  const code = errorCode(body);
  const known = code === undefined ? undefined : BY_CODE.get(code);
  return known ?? commonVerdict(status);
}

/** The place's local date of an instant, `YYYY-MM-DD`. */
function localDate(timeZone: string, ms: number): string {
  const [sign, hh, mm] = /^([+-])(\d{2}):(\d{2})$/.exec(utcOffset(timeZone, ms))?.slice(1) ?? ['+', '00', '00'];
  const offset = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm)) * 60_000;
  return dayString(dayOf(ms + offset));
}

/** The sum of a group's values, null when none is a number. */
function groupSum(species: Species, group: string): number | null {
  const values = species[group];
  if (!isObject(values)) return null;
  let sum: number | null = null;
  for (const v of Object.values(values)) if (typeof v === 'number') sum = (sum ?? 0) + v;
  return sum;
}

export class WeatherApiProvider implements PollenProvider {
  readonly id = WEATHERAPI_ID;
  readonly resolution = 'hourly';
  readonly maxDaysPerCall: number;
  private readonly baseUrl: string;
  private readonly enterprise: boolean;

  constructor(private readonly options: WeatherApiOptions) {
    this.baseUrl = options.baseUrl ?? WEATHERAPI_BASE_URL;
    this.enterprise = options.enterprise ?? false;
    // Without Enterprise the window is at most 24 hours, so two UTC days, answered by one forecast.
    this.maxDaysPerCall = this.enterprise ? HISTORY_DAYS_PER_CALL : 2;
  }

  /**
   * Enterprise: every hour from 2010 to the last whole hour. Otherwise the hours the local today
   * can hold, the last 24 at most: the forecast's first day is the only past it gives.
   */
  coverage(now: number): Coverage {
    const newestHour = Math.floor(now / HOUR_MS);
    if (this.enterprise) return openCoverage(newestHour, HISTORY_START_DAY * 24);
    const oldestHour = newestHour - 23;
    return { oldestHour, newestHour, retryFromHour: oldestHour };
  }

  async pollenHistory(city: City, hours: HourSpan, signal?: AbortSignal): Promise<PollenBatch> {
    const keep = (hour: number) => hour >= hours.from && hour < hours.to;
    if (!this.enterprise) {
      return this.parse(await this.get(this.url('/v1/forecast.json', city, { days: '1' }), signal), keep);
    }
    const from = localDate(city.timezone, hours.from * HOUR_MS);
    const to = localDate(city.timezone, hours.to * HOUR_MS - 1);
    if (dayNumber(to) - dayNumber(from) + 1 > HISTORY_DAYS_PER_CALL + 1) {
      throw new RangeError(`WeatherAPI.com history serves at most ${HISTORY_DAYS_PER_CALL} days a request`);
    }
    return this.parse(await this.get(this.url('/v1/history.json', city, { dt: from, end_dt: to }), signal), keep);
  }

  /** The 48 hours from the current one, out of the forecast's first three local days. */
  async pollenForecast(city: City, now: number, signal?: AbortSignal): Promise<PollenBatch> {
    const first = Math.floor(now / HOUR_MS);
    const payload = await this.get(this.url('/v1/forecast.json', city, { days: String(FORECAST_DAYS) }), signal);
    return this.parse(payload, (hour) => hour >= first && hour < first + FORECAST_HOURS);
  }

  private get(url: URL, signal?: AbortSignal): Promise<unknown> {
    return this.options.http.getJson(url, { signal, classify: weatherapiVerdict });
  }

  private url(path: string, city: City, params: Record<string, string>): URL {
    const url = new URL(path, this.baseUrl);
    url.searchParams.set('key', this.options.apiKey);
    url.searchParams.set('q', `${city.lat},${city.lon}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set('pollen', 'yes');
    // Not asked: they would only make the answer longer.
    url.searchParams.set('aqi', 'no');
    url.searchParams.set('alerts', 'no');
    return url;
  }

  /**
   * Hours of a WeatherAPI.com answer, those `keep` takes. No forecastday list, or an hour without
   * a usable `time_epoch`, is a bad payload; an answer none of whose hours carries pollen is a
   * place outside its pollen coverage (or a plan without pollen, which answers the same).
   */
  parse(payload: unknown, keep: (hour: number) => boolean = () => true): PollenBatch {
    const bad = (why: string) => new ProviderError(this.id, 'bad_payload', why);
    if (!isObject(payload)) throw bad('the response is not a JSON object');
    const days = isObject(payload.forecast) ? payload.forecast.forecastday : undefined;
    if (!Array.isArray(days)) throw bad('the response has no forecast.forecastday list');
    const timezone = isObject(payload.location) && typeof payload.location.tz_id === 'string' ? payload.location.tz_id : null;
    const hours: RawPollenHour[] = [];
    const fields = new Set<string>();
    let withPollen = 0;
    days.forEach((day, d) => {
      const list = isObject(day) ? day.hour : undefined;
      if (!Array.isArray(list)) throw bad(`forecastday[${d}] has no hour list`);
      list.forEach((item, h) => {
        if (!isObject(item)) throw bad(`forecastday[${d}].hour[${h}] is not an object`);
        const seconds = finite(item.time_epoch);
        if (seconds === null) throw bad(`forecastday[${d}].hour[${h}] has no valid time_epoch`);
        for (const k of Object.keys(item)) fields.add(k);
        if (!isObject(item.pollen)) return;
        withPollen++;
        const time = seconds * 1000;
        if (!keep(Math.floor(time / HOUR_MS))) return;
        for (const k of Object.keys(item.pollen)) fields.add(`pollen.${k}`);
        const species = speciesPayload(Object.entries(item.pollen).map(([name, value]) => ({ name, value: finite(value) })));
        // WeatherAPI.com sends no category totals: a category's grains/m³ are its plants' together.
        hours.push({
          time,
          tree: groupSum(species, SPECIES_KEY.tree),
          grass: groupSum(species, SPECIES_KEY.grass),
          weed: groupSum(species, SPECIES_KEY.weed),
          species,
        });
      });
    });
    if (withPollen === 0 && fields.size > 0) {
      throw new ProviderError(
        this.id,
        'not_covered',
        'no pollen in the answer: WeatherAPI.com gives pollen for the US, Canada, the UK and Europe, and only on plans that include it',
      );
    }
    hours.sort((a, b) => a.time - b.time);
    return { timezone, hours, itemFields: [...fields].sort() };
  }
}
