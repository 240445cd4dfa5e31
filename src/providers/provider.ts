/** What every data provider offers, and the one error type its failures take. */
import type { City } from '../domain/cities.js';
import type { WeatherField } from '../domain/weather.js';

/** One hour as a provider reports it; numbers are checked at ingest, not trusted. */
export interface RawPollenHour {
  /** Start of the hour, ms since epoch (UTC). */
  time: number;
  tree: unknown;
  grass: unknown;
  weed: unknown;
  /** The provider's total when it sends one; otherwise the sum of the categories. */
  total?: unknown;
  /** The species payload exactly as sent. */
  species: unknown;
}

export interface PollenBatch {
  /** IANA zone the provider reports for the location, if any. */
  timezone: string | null;
  hours: RawPollenHour[];
}

/** One city-day of weather and air quality as a provider reports it. */
export interface RawWeatherDay {
  /** UTC day number. */
  day: number;
  values: Partial<Record<WeatherField, unknown>>;
}

/** An inclusive span of UTC day numbers. */
export interface DaySpan {
  from: number;
  to: number;
}

export interface PollenProvider {
  readonly id: string;
  /** Most days one history call may cover. */
  readonly maxDaysPerCall: number;
  pollenHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<PollenBatch>;
  /** Hourly forecast from the current hour, 48 hours. */
  pollenForecast(city: City, now: number, signal?: AbortSignal): Promise<PollenBatch>;
}

export interface WeatherProvider {
  readonly id: string;
  readonly maxDaysPerCall: number;
  weatherHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<RawWeatherDay[]>;
}

/**
 * How a provider call failed, which decides what the caller does: `unavailable` is retried,
 * `quota` ends calls to that provider for the day, the rest are reported and skipped.
 */
export type ProviderFailure = 'quota' | 'unauthorized' | 'not_covered' | 'unavailable' | 'bad_payload';

/** A failed provider call. Messages never contain credentials. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(`${provider}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  readonly retryAfterSeconds: number | undefined;

  /** Only an unavailable provider is worth asking again. */
  get retryable(): boolean {
    return this.failure === 'unavailable';
  }
}
