/**
 * Atmospore's pollen API (pollenapi.com): a model's daily values per species, from a start date
 * for 1 to 14 days, by longitude and latitude, authenticated with the `x-api-key` header.
 *
 * Built from its own sources:
 * - `GET /v1/pollen?lon&lat&dt&forecast_days[&species]`: `dt` a `YYYY-MM-DD` start date,
 *   `forecast_days` 1-14, `species` optional (all by default); the answer
 *   `{meta: {location, units: "grains/m³", generated_at}, data: [{date, overall_risk, species:
 *   {<slug>: {value, risk_level, display_name, category}}}]}`, risk levels `low`, `moderate`,
 *   `high`, `very high`, categories `tree`, `grass`, `weed`; errors `{"error": "..."}` with
 *   400 invalid parameters, 401 missing key, 403 invalid key, 429 "Daily quota exceeded": its
 *   OpenAPI document (pollenapi.com/v1/openapi, copied in api-evangelist/atmospore-pollen-forecasts
 *   `openapi/_original/atmospore-pollen-forecasts-openapi-original.json`, 79c39ad) and
 *   atmospore.com/api-docs;
 * - the 25 species slugs and their categories: `/v1/species`, recorded in the same repository,
 *   `examples/atmospore-pollen-forecasts-species-200.json` (6716297); the bodies of 401
 *   (`Missing API key. Include x-api-key header.`) and 403 (`Invalid API key`), and no
 *   Retry-After or rate-limit header: its `errors/` and `rate-limits/` files there;
 * - 429 is the daily quota (free key 100 calls a day), its body `{error, limit, used, resets_at}`:
 *   the first-party client atmospore/atmospore-python `atmospore/exceptions.py` (`RateLimitError`,
 *   "Daily quota exceeded"), `tests/test_client.py`, README; global coverage on a ~28 km grid:
 *   atmospore/atmospore-mcp README.
 *
 * Not documented, so decided here: what a `date` means (taken as the place's local day, the day a
 * model's daily value stands for); whether `dt` may lie in the past (no source says so: only the
 * place's today is declared, see `dayCoverage`); what a point without data answers (an empty
 * `data` list, or a 404, is read as not covered).
 */
import type { City } from '../domain/cities.js';
import { dayNumber, dayOf, dayString, HOUR_MS, isIsoDate } from '../domain/dates.js';
import { dayOfHour } from '../domain/day-cuts.js';
import type { SpeciesGroup } from '../domain/species/payload.js';
import { plantName, speciesPayload } from '../domain/species/plant-names.js';
import { type Category, SPECIES_KEY } from '../domain/species/risk.js';
import { ATMOSPORE_BASE_URL } from '../settings.js';
import { commonVerdict, type HttpClient, type Verdict } from './http-client.js';
import {
  type DailyPollenBatch,
  type DailyPollenProvider,
  type DayCoverage,
  type DaySpan,
  ProviderError,
  type RawPollenDay,
} from './provider.js';

export const ATMOSPORE_ID = 'atmospore';
/** The families among its taxa, as stored: their members are its taxa too. */
const FAMILIES: ReadonlySet<string> = new Set(['Birch family', 'Pine family']);
/** `forecast_days` ranges over 1-14: one call covers at most 14 days from `dt`. */
const DAYS_PER_REQUEST = 14;

export interface AtmosporeOptions {
  apiKey: string;
  http: HttpClient;
  baseUrl?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Atmospore's statuses: 429 is its daily quota, not a per-minute limit (its plans are calls a
 * month held to a daily cap, its own client reads 429 as "Daily quota exceeded" with the time it
 * resets, and no Retry-After is sent), so it stops the run's calls; 401 and 403 are the key; 400
 * a parameter it refused; 404 no data for the point.
 */
export function atmosporeVerdict(status: number, _body: string): Verdict {
  if (status === 429) return { ok: false, failure: 'quota' };
  return commonVerdict(status);
}

export class AtmosporeProvider implements DailyPollenProvider {
  readonly id = ATMOSPORE_ID;
  readonly resolution = 'daily';
  readonly dayMeans = 'local';
  readonly maxDaysPerCall = DAYS_PER_REQUEST;
  readonly forecastDays = DAYS_PER_REQUEST;
  private readonly baseUrl: string;

  constructor(private readonly options: AtmosporeOptions) {
    this.baseUrl = options.baseUrl ?? ATMOSPORE_BASE_URL;
  }

  /**
   * No source says `dt` may be a past date, so no history is declared: only the place's today,
   * which is the UTC day of `now` or, west of UTC in the evening, the day before it.
   */
  dayCoverage(now: number): DayCoverage {
    const today = dayOf(now);
    return { oldestDay: today - 1, newestDay: today };
  }

  async pollenDays(city: City, span: DaySpan, signal?: AbortSignal): Promise<DailyPollenBatch> {
    const days = span.to - span.from + 1;
    if (days < 1 || days > DAYS_PER_REQUEST) throw new RangeError(`Atmospore serves 1 to ${DAYS_PER_REQUEST} days a request, not ${days}`);
    return this.parse(await this.get(city, span.from, days, signal), span);
  }

  async pollenForecastDays(city: City, now: number, days: number, signal?: AbortSignal): Promise<DailyPollenBatch> {
    if (!Number.isInteger(days) || days < 1 || days > this.forecastDays) {
      throw new RangeError(`Atmospore forecasts 1 to ${this.forecastDays} days, not ${days}`);
    }
    const today = dayOfHour('local', city.timezone, Math.floor(now / HOUR_MS));
    return this.parse(await this.get(city, today, days, signal), { from: today, to: today + days - 1 });
  }

  private async get(city: City, from: number, days: number, signal?: AbortSignal): Promise<unknown> {
    const url = new URL('/v1/pollen', this.baseUrl);
    url.searchParams.set('lon', String(city.lon));
    url.searchParams.set('lat', String(city.lat));
    url.searchParams.set('dt', dayString(from));
    url.searchParams.set('forecast_days', String(days));
    try {
      return await this.options.http.getJson(url, { headers: { 'x-api-key': this.options.apiKey }, signal, classify: atmosporeVerdict });
    } catch (error) {
      if (error instanceof ProviderError && error.failure === 'unauthorized') {
        const detail = error.message.slice(`${this.id}: `.length);
        const what = detail.startsWith('HTTP 401')
          ? 'no API key reached it (set ATMOSPORE_API_KEY)'
          : 'it refused the API key (check ATMOSPORE_API_KEY)';
        throw new ProviderError(this.id, 'unauthorized', `${what}: ${detail}`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * Days of an Atmospore answer inside `asked`. No `data` list, an item without a real date, a
   * date twice or a value that is not a number is a bad payload; an empty list is a point the
   * model does not cover.
   */
  parse(payload: unknown, asked: DaySpan): DailyPollenBatch {
    const bad = (why: string) => new ProviderError(this.id, 'bad_payload', why);
    if (!isObject(payload)) throw bad('the response is not a JSON object');
    if (!Array.isArray(payload.data)) throw bad('the response has no data list');
    if (payload.data.length === 0) throw new ProviderError(this.id, 'not_covered', 'no days for this point');
    const meta = isObject(payload.meta) ? payload.meta : {};
    const generatedAt = typeof meta.generated_at === 'string' ? Date.parse(meta.generated_at) : Number.NaN;
    const fields = new Set<string>();
    const seen = new Set<string>();
    const days: RawPollenDay[] = [];
    payload.data.forEach((item, i) => {
      if (!isObject(item)) throw bad(`data[${i}] is not an object`);
      for (const k of Object.keys(item)) fields.add(k);
      const { date } = item;
      if (typeof date !== 'string' || !isIsoDate(date)) throw bad(`data[${i}] has no valid date`);
      if (seen.has(date)) throw bad(`data[${i}] repeats the date ${date}`);
      seen.add(date);
      const day = dayNumber(date);
      if (day < asked.from || day > asked.to) return;
      days.push(this.day(date, item, (why) => bad(`data[${i}] ${why}`)));
    });
    days.sort((a, b) => (a.date < b.date ? -1 : 1));
    return {
      timezone: null,
      days,
      ...(Number.isFinite(generatedAt) ? { generatedAt } : {}),
      itemFields: [...fields].sort(),
    };
  }

  private day(date: string, item: Json, bad: (why: string) => ProviderError): RawPollenDay {
    const plants: Array<{ name: string; category?: string; displayName?: string; value: number | null }> = [];
    const levels: Record<string, string> = {};
    if (typeof item.overall_risk === 'string') levels.overall = item.overall_risk;
    const best = new Map<string, number>();
    const raw = item.species ?? {};
    if (!isObject(raw)) throw bad('has a species field that is not an object');
    for (const [slug, entry] of Object.entries(raw)) {
      if (!isObject(entry)) throw bad(`has species ${slug} that is not an object`);
      const value = entry.value ?? null;
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value)))
        throw bad(`has a value of ${slug} that is not a number`);
      const category = typeof entry.category === 'string' ? entry.category : undefined;
      const displayName = typeof entry.display_name === 'string' ? entry.display_name : undefined;
      plants.push({ name: slug, category, displayName, value });
      // Two slugs of one stored plant keep the level of the higher value, as the payload keeps its value.
      const { name } = plantName(slug, category, displayName);
      if (typeof entry.risk_level === 'string' && (!best.has(name) || (value ?? -1) > best.get(name)!)) {
        best.set(name, value ?? -1);
        levels[name] = entry.risk_level;
      }
    }
    const species = speciesPayload(plants);
    // Grains/m³ of a category are the sum of its taxa: this endpoint sends no category total. A
    // family it also names members of (Birch family beside birch, alder and hazel) is left out of
    // the sum, which would otherwise count its members' grains twice; it stays among the species.
    const total = (category: Category): number | null => {
      const group: SpeciesGroup | undefined = species[SPECIES_KEY[category]];
      if (!isObject(group)) return null;
      let sum: number | null = null;
      for (const [name, v] of Object.entries(group)) if (typeof v === 'number' && !FAMILIES.has(name)) sum = (sum ?? 0) + v;
      // Rounded past the decimals Atmospore sends, so that 0.1 + 0.2 is stored as 0.3.
      return sum === null ? null : Math.round(sum * 1e6) / 1e6;
    };
    return { date, tree: total('tree'), grass: total('grass'), weed: total('weed'), species, providerLevels: levels };
  }
}
