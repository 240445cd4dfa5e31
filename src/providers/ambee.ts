/**
 * Ambee's pollen API, v3: hourly history and the 48-hour forecast by latitude and longitude,
 * authenticated with the `x-api-key` header.
 *
 * Built from public clients that run against it (no v3 payload recording is public):
 * - paths, `from`/`to` as `YYYY-MM-DD hh:mm:ss` UTC, and `speciesRisk=true` with history:
 *   ufs-community/CECE `tools/prepare_global_pollen_rf.py`; corsairdev/corsair
 *   `packages/ambee/endpoints/pollen.ts` (which also says Species comes only with speciesRisk);
 * - the hour of an item: `timestamp` (ISO), else `unixTs` (s), else `createdAt` (v2 history),
 *   else `time` (s, v2): launcelotgobbo/pollenmonitor `lib/ingest/ambee.ts` (`mapPollenItem`);
 *   `timezone` at the top level or per item (the same client; v2 forecast items in
 *   andrewliu6868/PollenTracker `frontend/data/forecastData.js`);
 * - history covers the past 48 hours on the free plan, up to 48 hours a request, and an older
 *   `from` answers `400 "Only past 2 days data available!"`: pollenmonitor, corsair, CECE `docs/pollen.md`;
 * - statuses as Ambee documents them (docs.ambeedata.com/apis/overview#error-codes, relayed by
 *   its MCP server's README): 206 partial data because the quota ran out mid-answer, 401/403,
 *   404 no data for the location, 422 quota exceeded, 429 rate limited.
 */
import type { City } from '../domain/cities.js';
import { HOUR_MS } from '../domain/dates.js';
import { AMBEE_BASE_URL, DEFAULT_HISTORY_HOURS } from '../settings.js';
import { commonVerdict, type HttpClient, type Verdict } from './http-client.js';
import { type Coverage, type HourSpan, type PollenBatch, type PollenProvider, ProviderError, type RawPollenHour } from './provider.js';

export const AMBEE_ID = 'ambee';
/** Most hours one history request may cover. */
const HOURS_PER_REQUEST = 48;
/** Kept clear of the window's edge, so that a clock a little ahead of Ambee's never asks outside it. */
const EDGE_MARGIN_MS = 10 * 60_000;

export interface AmbeeOptions {
  apiKey: string;
  http: HttpClient;
  baseUrl?: string;
  historyHours?: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `2025-04-01 00:00:00`, the form Ambee's history endpoint takes (UTC). */
export const ambeeTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** Ambee's statuses: 206 and 422 are its quota; the 400 for history older than the plan serves is its window. */
export function ambeeVerdict(status: number, body: string): Verdict {
  if (status === 206 || status === 422) return { ok: false, failure: 'quota' };
  if (status === 429) return { ok: false, failure: 'throttled' };
  if (status === 400 && /only past .*data (is )?available/i.test(body)) return { ok: false, failure: 'outside_window' };
  return commonVerdict(status);
}

/** The hour an item stands for, from whichever time field it carries; NaN when none is usable. */
export function itemTime(item: Json): number {
  const seconds = (v: unknown) =>
    typeof v === 'number' ? v * 1000 : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) * 1000 : Number.NaN;
  const iso = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);
  for (const t of [
    iso(item.timestamp),
    seconds(item.unixTs),
    iso(item.createdAt),
    typeof item.time === 'string' && !/^\d+$/.test(item.time) ? iso(item.time) : seconds(item.time),
  ]) {
    if (Number.isFinite(t)) return t;
  }
  return Number.NaN;
}

export class AmbeeProvider implements PollenProvider {
  readonly id = AMBEE_ID;
  readonly resolution = 'hourly';
  readonly maxDaysPerCall = HOURS_PER_REQUEST / 24;
  readonly historyHours: number;
  private readonly baseUrl: string;

  constructor(private readonly options: AmbeeOptions) {
    this.baseUrl = options.baseUrl ?? AMBEE_BASE_URL;
    this.historyHours = options.historyHours ?? DEFAULT_HISTORY_HOURS;
  }

  /** The past `historyHours` up to the last whole hour; a partial day may fill in while it is inside. */
  coverage(now: number): Coverage {
    const oldestHour = Math.ceil((now - this.historyHours * HOUR_MS + EDGE_MARGIN_MS) / HOUR_MS);
    return { oldestHour, newestHour: Math.floor(now / HOUR_MS), retryFromHour: oldestHour };
  }

  async pollenHistory(city: City, hours: HourSpan, signal?: AbortSignal): Promise<PollenBatch> {
    if (hours.to - hours.from > HOURS_PER_REQUEST) throw new RangeError(`Ambee serves at most ${HOURS_PER_REQUEST} hours a request`);
    const url = this.url('/v3/pollen/history', city);
    url.searchParams.set('from', ambeeTime(hours.from * HOUR_MS));
    url.searchParams.set('to', ambeeTime(hours.to * HOUR_MS - 1000));
    return this.parse(await this.get(url, signal), hours);
  }

  async pollenForecast(city: City, _now: number, signal?: AbortSignal): Promise<PollenBatch> {
    return this.parse(await this.get(this.url('/v3/pollen/forecast/48hrs', city), signal));
  }

  private get(url: URL, signal?: AbortSignal): Promise<unknown> {
    return this.options.http.getJson(url, {
      headers: { 'x-api-key': this.options.apiKey, 'Content-Type': 'application/json' },
      signal,
      classify: ambeeVerdict,
    });
  }

  private url(path: string, city: City): URL {
    const url = new URL(path, this.baseUrl);
    url.searchParams.set('lat', String(city.lat));
    url.searchParams.set('lng', String(city.lon));
    url.searchParams.set('speciesRisk', 'true');
    return url;
  }

  /**
   * Hours of an Ambee payload. No `data` list, or an item without a usable time, is a bad
   * payload; with `asked`, hours outside it are left out (Ambee may round the window).
   */
  parse(payload: unknown, asked?: HourSpan): PollenBatch {
    const bad = (why: string) => new ProviderError(this.id, 'bad_payload', why);
    if (!isObject(payload)) throw bad('the response is not a JSON object');
    if (!Array.isArray(payload.data)) throw bad('the response has no data list');
    let timezone: string | null = typeof payload.timezone === 'string' ? payload.timezone : null;
    const hours: RawPollenHour[] = [];
    const fields = new Set<string>();
    payload.data.forEach((item, i) => {
      if (!isObject(item)) throw bad(`data[${i}] is not an object`);
      for (const k of Object.keys(item)) fields.add(k);
      const time = itemTime(item);
      if (!Number.isFinite(time)) throw bad(`data[${i}] has no valid time (timestamp, unixTs, createdAt or time)`);
      if (typeof item.timezone === 'string') timezone ??= item.timezone;
      const hour = Math.floor(time / HOUR_MS);
      if (asked && (hour < asked.from || hour >= asked.to)) return;
      const count = isObject(item.Count) ? item.Count : {};
      hours.push({
        time,
        tree: count.tree_pollen ?? null,
        grass: count.grass_pollen ?? null,
        weed: count.weed_pollen ?? null,
        species: item.Species ?? null,
      });
    });
    return { timezone, hours, itemFields: [...fields].sort() };
  }
}
