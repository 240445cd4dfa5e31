/**
 * Ambee's pollen API, v3: hourly history and the 48-hour forecast by latitude and longitude,
 * authenticated with the `x-api-key` header. Items carry `Count` (per category), `Risk`, `Species`
 * (with `Others` as a plain number) and the location's time zone.
 */
import type { City } from '../domain/cities.js';
import { DAY_MS } from '../domain/dates.js';
import type { HttpClient } from './http.js';
import { ProviderError, type DaySpan, type PollenBatch, type PollenProvider, type RawPollenHour } from './provider.js';

export const AMBEE_ID = 'ambee';
export const AMBEE_BASE_URL = 'https://api.ambeedata.com';

export interface AmbeeOptions {
  apiKey: string;
  http: HttpClient;
  baseUrl?: string;
  /** Days one history request covers. */
  daysPerCall?: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `2025-04-01 00:00:00`, the form Ambee's history endpoint takes (UTC). */
const ambeeTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export class AmbeeProvider implements PollenProvider {
  readonly id = AMBEE_ID;
  readonly maxDaysPerCall: number;
  private readonly baseUrl: string;

  constructor(private readonly options: AmbeeOptions) {
    this.baseUrl = options.baseUrl ?? AMBEE_BASE_URL;
    this.maxDaysPerCall = options.daysPerCall ?? 7;
  }

  async pollenHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<PollenBatch> {
    const url = this.url('/v3/pollen/history', city);
    url.searchParams.set('from', ambeeTime(span.from * DAY_MS));
    url.searchParams.set('to', ambeeTime((span.to + 1) * DAY_MS - 1000));
    return this.parse(await this.options.http.getJson(url, { 'x-api-key': this.options.apiKey }, signal));
  }

  async pollenForecast(city: City, _now: number, signal?: AbortSignal): Promise<PollenBatch> {
    return this.parse(await this.options.http.getJson(this.url('/v3/pollen/forecast/48hrs', city), { 'x-api-key': this.options.apiKey }, signal));
  }

  private url(path: string, city: City): URL {
    const url = new URL(path, this.baseUrl);
    url.searchParams.set('lat', String(city.lat));
    url.searchParams.set('lng', String(city.lon));
    return url;
  }

  /** Hours of an Ambee payload; a payload without a `data` list, or an item without a time, is a bad payload. */
  parse(payload: unknown): PollenBatch {
    const bad = (why: string) => new ProviderError(this.id, 'bad_payload', why);
    if (!isObject(payload)) throw bad('the response is not a JSON object');
    if (typeof payload.message === 'string' && /quota|limit exceeded/i.test(payload.message) && !Array.isArray(payload.data)) {
      throw new ProviderError(this.id, 'quota', payload.message);
    }
    if (!Array.isArray(payload.data)) throw bad('the response has no data list');
    let timezone: string | null = typeof payload.timezone === 'string' ? payload.timezone : null;
    const hours: RawPollenHour[] = payload.data.map((item, i) => {
      if (!isObject(item)) throw bad(`data[${i}] is not an object`);
      const time = typeof item.time === 'number' ? item.time * 1000 : typeof item.time === 'string' ? Date.parse(item.time) : Number.NaN;
      if (!Number.isFinite(time)) throw bad(`data[${i}] has no valid time`);
      if (typeof item.timezone === 'string') timezone ??= item.timezone;
      const count = isObject(item.Count) ? item.Count : {};
      return {
        time,
        tree: count.tree_pollen ?? null,
        grass: count.grass_pollen ?? null,
        weed: count.weed_pollen ?? null,
        species: item.Species ?? null,
      };
    });
    return { timezone, hours };
  }
}
