/**
 * The forecast and its freshness (docs/decisions.md, "Forecast"): a cache of up to 6 hours per
 * city; a refresh when it is older, counted before it is made; the stale cache when a refresh
 * fails or is blocked (the budget spent, or a call ledger that cannot count it); 503 when there
 * is nothing. Concurrent requests for one city share one refresh. It holds hours as ingest
 * stores them; the answer's rows are made from them by the handler.
 */
import type { City } from '../domain/cities.js';
import { dayOf, dayString, HOUR_MS } from '../domain/dates.js';
import { normalizeHour, type PollenHour } from '../domain/hours.js';
import { type PollenBatch, type PollenProvider, ProviderError } from '../providers/provider.js';
import type { CachedForecast, ForecastCache } from './cache.js';

export const CACHE_LIMIT_MS = 6 * HOUR_MS;
export const HORIZON_HOURS = 48;
export const TIMEOUT_MS = 10_000;
/** A forecast answer with fewer usable hours than this is a bad payload: the stale cache keeps serving. */
export const MIN_FORECAST_HOURS = 24;

export interface Forecast {
  city: string;
  source: string;
  stale: boolean;
  quotaExhausted?: true;
  fetchedAt: string | null;
  /** The zone the provider gave the city's hours. */
  timezone: string | null;
  /** From the current UTC hour, at most HORIZON_HOURS, ascending. */
  hours: PollenHour[];
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
  provider: PollenProvider;
  cache: ForecastCache;
  /** Upstream calls allowed per provider and UTC day; null for no limit. */
  dailyBudget: number | null;
  now?: () => number;
  timeoutMs?: number;
  /** Where cache failures are reported (a failed read counts as no cache; a failed count blocks the refresh). */
  log?: (message: string, error: unknown) => void;
}

export class ForecastService {
  private readonly inFlight = new Map<string, Promise<Forecast>>();
  private readonly now: () => number;

  constructor(private readonly options: ForecastOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The provider this service asks, whose forecasts its cache holds (a fresh cache answers `source: "cache"`). */
  get providerId(): string {
    return this.options.provider.id;
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

  private async resolve(place: City): Promise<Forecast> {
    const city = place.slug;
    const { cache, provider } = this.options;
    const now = this.now();
    // The cache helps but must never stop a forecast: if it fails, carry on as if it were empty.
    // An entry another provider wrote is no forecast of this deployment's: a site's Blobs outlive its
    // deploys (docs/deploying.md), so a sample build's entries are still there when Ambee's goes live.
    // The cache answers by provider; the source is checked again so that no cache can get this wrong.
    const read = await cache.read(provider.id, city).catch((error: unknown) => this.warn('forecast cache read failed', error));
    const cached = read?.source === provider.id ? read : undefined;
    const fromCache = (stale: boolean, quotaExhausted: boolean): Forecast => ({
      city,
      source: 'cache',
      stale,
      ...(quotaExhausted ? { quotaExhausted: true as const } : {}),
      fetchedAt: new Date(cached!.fetchedAt).toISOString(),
      timezone: cached!.timezone,
      hours: trim(cached!.hours, now),
    });
    if (cached && now - cached.fetchedAt < CACHE_LIMIT_MS) return fromCache(false, false);

    let failure: ProviderError | CallUncounted;
    const counted = await this.count(dayString(dayOf(now)));
    if (counted !== 'counted') {
      failure = counted;
    } else {
      try {
        const fetched = await this.fetch(place, now);
        await cache.write(city, fetched).catch((error: unknown) => this.warn('forecast cache write failed', error));
        // Every forecast obtained is kept as issued, for the next build to score (docs/data.md, "Forecast skill").
        await cache.keep(place, fetched).catch((error: unknown) => this.warn('forecast keep failed', error));
        const { timezone, hours } = fetched;
        return { city, source: provider.id, stale: false, fetchedAt: new Date(now).toISOString(), timezone, hours: trim(hours, now) };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        failure = error;
      }
    }
    const quota = failure instanceof ProviderError && (failure.failure === 'quota' || failure.failure === 'throttled');
    if (cached) return fromCache(true, quota);
    throw new ForecastUnavailable(
      failure,
      failure instanceof ProviderError ? (failure.retryAfterSeconds ?? RETRY_AFTER_SECONDS) : RETRY_AFTER_SECONDS,
    );
  }

  /**
   * Counts the call a refresh is about to make, within the daily budget: 'counted', else why no call
   * may be made (the budget spent, answered like a quota refusal; or a ledger that failed, whose
   * call would go uncounted: the budget holds whatever fails).
   */
  private async count(day: string): Promise<'counted' | ProviderError | CallUncounted> {
    const { cache, provider, dailyBudget: budget } = this.options;
    try {
      if (budget !== null && (await cache.callsOn(provider.id, day)) >= budget)
        return new ProviderError(provider.id, 'quota', `daily budget of ${budget} calls reached`);
      await cache.countCall(provider.id, day);
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

  private async fetch(city: City, now: number): Promise<CachedForecast> {
    const { provider } = this.options;
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS);
    let batch: PollenBatch;
    try {
      batch = await Promise.race([
        provider.pollenForecast(city, now, signal),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new ProviderError(provider.id, 'unavailable', 'forecast request timed out'))),
        ),
      ]);
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ProviderError(provider.id, 'unavailable', 'forecast request timed out', { cause: error });
      }
      throw error;
    }
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
}

/** Hours from the current UTC hour on, at most HORIZON_HOURS. */
function trim(hours: readonly PollenHour[], now: number): PollenHour[] {
  const from = Math.floor(now / HOUR_MS);
  return hours.filter((h) => h.hour >= from).slice(0, HORIZON_HOURS);
}
