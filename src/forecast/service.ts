/**
 * The forecast and its freshness (docs/decisions.md, "Forecast"): a cache of up to 6 hours per
 * city and provider; a refresh when none of the chain's is fresh, counted before it is made, from
 * the providers in order of preference (one that fails, or whose budget is spent, hands over to the
 * next; a call ledger that cannot count stops them all, since no call is made uncounted); the stale
 * cache when every refresh fails or is blocked; 503 when there is nothing. Concurrent requests for
 * one city share one refresh. It holds hours as ingest stores them, or a daily provider's dates;
 * the answer's rows are made from them by the handler.
 */
import type { City } from '../domain/cities.js';
import { dayNumber, dayOf, dayString, HOUR_MS, isIsoDate } from '../domain/dates.js';
import { normalizeDayValue, normalizeHour, type PollenHour } from '../domain/hours.js';
import {
  type AnyPollenProvider,
  type DailyPollenBatch,
  type DailyPollenProvider,
  isDaily,
  type PollenBatch,
  type PollenProvider,
  ProviderError,
} from '../providers/provider.js';
import type { CachedDay } from '../store/forecast-cache.js';
import type { CachedForecast, ForecastCache } from './cache.js';
import { forecastIssueDay } from './kept-days.js';

export type { CachedDay } from '../store/forecast-cache.js';

export const CACHE_LIMIT_MS = 6 * HOUR_MS;
export const HORIZON_HOURS = 48;
export const TIMEOUT_MS = 10_000;
/** A forecast answer with fewer usable hours than this is a bad payload: the stale cache keeps serving. */
export const MIN_FORECAST_HOURS = 24;
/** A daily provider's forecast with fewer dates from the place's today than this (today and tomorrow) is a bad payload. */
export const MIN_FORECAST_DAYS = 2;

export interface Forecast {
  city: string;
  /** "cache" when read from the cache, else the provider that just answered. */
  source: string;
  /** The provider whose forecast this is, cached or not. */
  provider: string;
  stale: boolean;
  quotaExhausted?: true;
  fetchedAt: string | null;
  /** The zone the provider gave the city's hours. */
  timezone: string | null;
  /** From the current UTC hour, at most HORIZON_HOURS, ascending; none from a daily provider. */
  hours: PollenHour[];
  /** A daily provider's dates from the place's today (its `dayMeans`) on, ascending, as far as it forecast. */
  days?: CachedDay[];
}

/**
 * The call ledger could not be read or written (Netlify Blobs failing or not answering): the refresh
 * is not made, since a call that cannot be counted could spend the budget unseen.
 */
export class CallUncounted extends Error {
  constructor(cause: unknown) {
    super(`the call ledger failed, so no upstream call is made: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** When to ask again after a refresh that failed without a delay of the provider's: the ledger's failure, or the provider's. */
const RETRY_AFTER_SECONDS = 300;

/** No forecast can be given: nothing cached and the refresh failed, or could not be counted. */
export class ForecastUnavailable extends Error {
  constructor(
    readonly failure: ProviderError | CallUncounted,
    readonly retryAfterSeconds: number,
  ) {
    super(`no cached forecast and the refresh failed: ${failure.message}`, { cause: failure });
  }
}

/**
 * No forecast may be asked for here, for the reason the message gives the deployer (never a
 * value): the store's provider lacks its key, `POLLEN_PROVIDER` names another provider, or no
 * provider has filled the store yet.
 */
export class ForecastMisconfigured extends Error {}

/** The first cached forecast, in order of preference, younger than the cache's limit; -1 when none is. */
const freshIndex = (cached: ReadonlyArray<CachedForecast | undefined>, now: number): number =>
  cached.findIndex((c) => c !== undefined && now - c.fetchedAt < CACHE_LIMIT_MS);

/**
 * The forecast cache, which also holds the call ledger, cannot be opened here (no Blobs context,
 * and a read-only or missing folder for the local file): no refresh may run uncounted.
 */
export class ForecastCacheUnavailable extends Error {
  constructor(
    readonly location: string,
    cause: unknown,
  ) {
    super(`the forecast cache at ${location} cannot be opened: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export interface ForecastOptions {
  /** The pollen providers asked, in order of preference (at least one). */
  providers: readonly AnyPollenProvider[];
  cache: ForecastCache;
  /** Upstream calls allowed per UTC day to each provider, each counted apart (one number for all, or by id); null for no limit. */
  dailyBudget: number | null | ((provider: string) => number | null);
  now?: () => number;
  timeoutMs?: number;
  /** Where cache failures are reported (a failed read counts as no cache; a failed count blocks the refresh). */
  log?: (message: string, error: unknown) => void;
}

export class ForecastService {
  private readonly inFlight = new Map<string, Promise<Forecast>>();
  private readonly now: () => number;

  constructor(private readonly options: ForecastOptions) {
    if (options.providers.length === 0) throw new Error('a forecast service needs at least one provider');
    this.now = options.now ?? Date.now;
  }

  /** The providers this service asks, in order of preference, whose forecasts its cache holds. */
  get providerIds(): string[] {
    return this.options.providers.map((p) => p.id);
  }

  /** The forecast of a supported city. Rejects with ForecastUnavailable or an unexpected error. */
  get(place: City): Promise<Forecast> {
    let pending = this.inFlight.get(place.slug);
    if (!pending) {
      pending = this.resolve(place).finally(() => this.inFlight.delete(place.slug));
      this.inFlight.set(place.slug, pending);
    }
    return pending;
  }

  /**
   * The forecast `get` would serve from the cache, without asking any provider: the first fresh one
   * in order of preference, else the first cached (stale); undefined when none is cached. What a
   * view of every city reads (/api/forecast-map), so that it spends no provider's budget.
   */
  async cached(place: City): Promise<Forecast | undefined> {
    const now = this.now();
    const cached = await this.read(place.slug);
    const fresh = freshIndex(cached, now);
    const served = fresh >= 0 ? fresh : cached.findIndex((c) => c !== undefined);
    if (served < 0) return undefined;
    return answer(place, this.options.providers[served]!, cached[served]!, now, { source: 'cache', stale: fresh < 0 });
  }

  /** Each provider's cached forecast of the city, in order of preference. */
  private read(city: string): Promise<Array<CachedForecast | undefined>> {
    // The cache helps but must never stop a forecast: if it fails, carry on as if it were empty.
    // An entry another provider wrote is no forecast of this deployment's: a site's Blobs outlive its
    // deploys (docs/deploying.md), so a sample build's entries are still there when Ambee's goes live.
    // The cache answers by provider; the source is checked again so that no cache can get this wrong.
    return Promise.all(
      this.options.providers.map(async (p) => {
        const read = await this.options.cache.read(p.id, city).catch((error: unknown) => this.warn('forecast cache read failed', error));
        return read?.source === p.id ? read : undefined;
      }),
    );
  }

  private async resolve(place: City): Promise<Forecast> {
    const city = place.slug;
    const { cache, providers } = this.options;
    const now = this.now();
    const cached = await this.read(city);
    // A fresh forecast of any provider of the chain is served, the first in order of preference:
    // one that answered when the preferred one failed holds until it is 6 hours old, as any cache.
    const fresh = freshIndex(cached, now);
    if (fresh >= 0) return answer(place, providers[fresh]!, cached[fresh]!, now, { source: 'cache', stale: false });

    const failures = new Map<string, ProviderError>();
    let uncounted: CallUncounted | undefined;
    const day = dayString(dayOf(now));
    for (const provider of providers) {
      const counted = await this.count(provider.id, day);
      // A ledger that cannot count one call cannot count the next provider's either: none is made.
      if (counted instanceof CallUncounted) {
        uncounted = counted;
        break;
      }
      if (counted !== 'counted') {
        failures.set(provider.id, counted);
        continue;
      }
      try {
        const fetched = await this.fetch(provider, place, now);
        await cache.write(city, fetched).catch((error: unknown) => this.warn('forecast cache write failed', error));
        // Every forecast obtained is kept as issued, for the next build to score (docs/data.md, "Forecast skill").
        await cache.keep(place, fetched).catch((error: unknown) => this.warn('forecast keep failed', error));
        return answer(place, provider, fetched, now, { source: provider.id, stale: false });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        failures.set(provider.id, error);
      }
    }
    const stale = cached.findIndex((c) => c !== undefined);
    if (stale >= 0) {
      const provider = providers[stale]!;
      const failure = failures.get(provider.id);
      const quota = failure !== undefined && (failure.failure === 'quota' || failure.failure === 'throttled');
      return answer(place, provider, cached[stale]!, now, { source: 'cache', stale: true, ...(quota ? { quotaExhausted: true } : {}) });
    }
    const refused = [...failures.values()];
    throw new ForecastUnavailable(
      uncounted ?? refused.at(-1)!,
      uncounted ? RETRY_AFTER_SECONDS : Math.min(...refused.map((f) => f.retryAfterSeconds ?? RETRY_AFTER_SECONDS)),
    );
  }

  /**
   * Counts the call a refresh is about to make, within the daily budget: 'counted', else why no call
   * may be made (the budget spent, answered like a quota refusal; or a ledger that failed, whose
   * call would go uncounted: the budget holds whatever fails).
   */
  private async count(provider: string, day: string): Promise<'counted' | ProviderError | CallUncounted> {
    const { cache, dailyBudget } = this.options;
    const budget = typeof dailyBudget === 'function' ? dailyBudget(provider) : dailyBudget;
    try {
      if (budget !== null && (await cache.callsOn(provider, day)) >= budget)
        return new ProviderError(provider, 'quota', `daily budget of ${budget} calls reached`);
      await cache.countCall(provider, day);
      return 'counted';
    } catch (error) {
      this.warn('forecast call count failed', error);
      return new CallUncounted(error);
    }
  }

  private warn(message: string, error: unknown): undefined {
    (this.options.log ?? console.error)(message, error);
    return undefined;
  }

  private fetch(provider: AnyPollenProvider, city: City, now: number): Promise<CachedForecast> {
    return isDaily(provider) ? this.fetchDays(provider, city, now) : this.fetchHours(provider, city, now);
  }

  private async fetchHours(provider: PollenProvider, city: City, now: number): Promise<CachedForecast> {
    const batch = await this.timed(provider.id, (signal) => provider.pollenForecast(city, now, signal));
    if (!batch || !Array.isArray(batch.hours)) throw new ProviderError(provider.id, 'bad_payload', 'forecast has no hours');
    const hours = batch.hours
      .filter((h) => typeof h.time === 'number' && Number.isFinite(h.time))
      .map(normalizeHour)
      .sort((a, b) => a.hour - b.hour);
    const usable = trim(hours, now).length;
    if (usable < MIN_FORECAST_HOURS)
      throw new ProviderError(provider.id, 'bad_payload', `forecast has ${usable} hours from now, fewer than ${MIN_FORECAST_HOURS}`);
    return { source: provider.id, fetchedAt: now, timezone: batch.timezone, hours };
  }

  /** A daily provider's forecast to its horizon: its dates checked as ingest checks them, each once, ascending. */
  private async fetchDays(provider: DailyPollenProvider, city: City, now: number): Promise<CachedForecast> {
    const batch = await this.timed(provider.id, (signal) => provider.pollenForecastDays(city, now, provider.forecastDays, signal));
    if (!batch || !Array.isArray(batch.days)) throw new ProviderError(provider.id, 'bad_payload', 'forecast has no days');
    const byDate = new Map<string, CachedDay>();
    for (const d of batch.days) {
      if (typeof d.date !== 'string' || !isIsoDate(d.date)) continue;
      if (!byDate.has(d.date)) byDate.set(d.date, { date: d.date, ...normalizeDayValue(d), levels: d.providerLevels ?? null });
    }
    const days = [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
    const daily = { dayMeans: provider.dayMeans, zone: city.timezone, days };
    const usable = trimDays(daily, now).length;
    if (usable < MIN_FORECAST_DAYS)
      throw new ProviderError(provider.id, 'bad_payload', `forecast has ${usable} days from today, fewer than ${MIN_FORECAST_DAYS}`);
    return { source: provider.id, fetchedAt: now, timezone: batch.timezone, hours: [], daily };
  }

  /** A provider's answer within the timeout, a timeout said as the provider being unavailable. */
  private async timed<T extends PollenBatch | DailyPollenBatch>(provider: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS);
    try {
      return await Promise.race([
        call(signal),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new ProviderError(provider, 'unavailable', 'forecast request timed out'))),
        ),
      ]);
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ProviderError(provider, 'unavailable', 'forecast request timed out', { cause: error });
      }
      throw error;
    }
  }
}

/** The answer of a provider's forecast at `now`: its hours not yet past, or its dates from today. */
function answer(
  place: City,
  provider: AnyPollenProvider,
  f: CachedForecast,
  now: number,
  freshness: Pick<Forecast, 'source' | 'stale' | 'quotaExhausted'>,
): Forecast {
  return {
    city: place.slug,
    ...freshness,
    provider: provider.id,
    fetchedAt: new Date(f.fetchedAt).toISOString(),
    timezone: f.timezone,
    hours: trim(f.hours, now),
    ...(f.daily ? { days: trimDays(f.daily, now) } : {}),
  };
}

/** Hours from the current UTC hour on, at most HORIZON_HOURS. */
function trim(hours: readonly PollenHour[], now: number): PollenHour[] {
  const from = Math.floor(now / HOUR_MS);
  return hours.filter((h) => h.hour >= from).slice(0, HORIZON_HOURS);
}

/** A daily forecast's dates from the place's today on (the UTC day's for a provider whose dates are UTC's). */
function trimDays(daily: NonNullable<CachedForecast['daily']>, now: number): CachedDay[] {
  const today = forecastIssueDay(daily, { timezone: daily.zone }, now);
  return daily.days.filter((d) => dayNumber(d.date) >= today);
}
