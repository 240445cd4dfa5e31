/** What every data provider offers, and the one error type its failures take. */
import type { City } from '../domain/cities.js';
import type { DayValues } from '../domain/day-values.js';
import type { RawPollenHour } from '../domain/hours.js';
import type { KeptDay } from '../domain/verification/target-days.js';
import type { WeatherField } from '../domain/weather.js';

export type { RawPollenHour };

export interface PollenBatch {
  /** IANA zone the provider reports for the location, if any. */
  timezone: string | null;
  hours: RawPollenHour[];
  /** The field names the provider's items carried, for `doctor`. */
  itemFields?: string[];
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

/** A half-open span of hour numbers (hours since 1970-01-01T00:00Z): `from` included, `to` not. */
export interface HourSpan {
  from: number;
  to: number;
}

/**
 * The hours a provider serves at a moment, as it declares them: requests never reach outside.
 * A partial or empty day is asked again while it ends after `retryFromHour`; after that it is final.
 */
export interface Coverage {
  /** The first hour served; null when history reaches back further than anyone asks. */
  oldestHour: number | null;
  /** The hour after the newest one served. */
  newestHour: number;
  /** The provider's history window when it has one (a 48-hour plan), else 3 days before `newestHour`. */
  retryFromHour: number;
}

/** Days a partial or empty day is asked again for, before the newest day served, when a provider has no history window. */
export const RETRY_DAYS = 3;

/** Coverage of a provider without a history window: everything up to `newestHour`. */
export function openCoverage(newestHour: number, oldestHour: number | null = null): Coverage {
  return { oldestHour, newestHour, retryFromHour: newestHour - RETRY_DAYS * 24 };
}

export interface PollenProvider {
  readonly id: string;
  /** Hours: every hourly answer is made from them, and the daily ones from their means. */
  readonly resolution: 'hourly';
  /** Most days one history request may cover. */
  readonly maxDaysPerCall: number;
  /** What history the provider serves at `now` (ms since epoch). */
  coverage(now: number): Coverage;
  /** The hours of a span; the planner only asks for hours inside `coverage`. */
  pollenHistory(city: City, hours: HourSpan, signal?: AbortSignal): Promise<PollenBatch>;
  /** Hourly forecast from the current hour, 48 hours. */
  pollenForecast(city: City, now: number, signal?: AbortSignal): Promise<PollenBatch>;
}

/**
 * One day of pollen as a provider that gives days reports it (numbers are checked at ingest).
 * The day's values are the provider's own: no hour is ever made from them.
 */
export interface RawPollenDay {
  /** The calendar day the values stand for, `YYYY-MM-DD`, in the sense of the provider's `dayMeans`. */
  date: string;
  tree: unknown;
  grass: unknown;
  weed: unknown;
  /** The provider's total when it sends one; otherwise the sum of the categories. */
  total?: unknown;
  /** Species in the stored payload's shape (`{Tree: {Oak: 12}, Weed: {Ragweed: 3}}`), named by domain/species/plant-names.ts. */
  species: unknown;
  /** The provider's own levels in its own words (`{overall: 'high', Oak: 'moderate'}`): kept apart, never read as NAB's. */
  providerLevels?: Record<string, string>;
}

export interface DailyPollenBatch {
  /** IANA zone the provider reports for the location, if any. */
  timezone: string | null;
  /** Ascending by date, each date once. */
  days: RawPollenDay[];
  /** When the provider says it made these values (its `generated_at`), ms since epoch; a forecast's issue instant. */
  generatedAt?: number;
  /** The field names the provider's items carried, for `doctor`. */
  itemFields?: string[];
}

/** The days a daily provider serves at a moment (day numbers of its dates). */
export interface DayCoverage {
  /** The first day served; null when history reaches back further than anyone asks. */
  oldestDay: number | null;
  /** The newest day it serves as the day's value (today, for a provider whose day is a model's). */
  newestDay: number;
}

/** A pollen provider that gives days, not hours (Atmospore). */
export interface DailyPollenProvider {
  readonly id: string;
  readonly resolution: 'daily';
  /** What a date of its answers means: the place's local calendar day, or the UTC day. */
  readonly dayMeans: 'local' | 'utc';
  /** Most days one history request may cover. */
  readonly maxDaysPerCall: number;
  /** Most days its forecast reaches, the issue day included. */
  readonly forecastDays: number;
  dayCoverage(now: number): DayCoverage;
  /** The days of an inclusive span of day numbers; the planner only asks for days inside `dayCoverage`. */
  pollenDays(city: City, span: DaySpan, signal?: AbortSignal): Promise<DailyPollenBatch>;
  /** The forecast from the day of `now` for `days` days (at most `forecastDays`). */
  pollenForecastDays(city: City, now: number, days: number, signal?: AbortSignal): Promise<DailyPollenBatch>;
}

/** Any pollen provider, by the resolution of what it gives. */
export type AnyPollenProvider = PollenProvider | DailyPollenProvider;

/** Whether a pollen provider gives days rather than hours. */
export const isDaily = (provider: AnyPollenProvider): provider is DailyPollenProvider => provider.resolution === 'daily';

/** What a past forecast said of the UTC days it covered enough. */
export interface PastForecaster {
  /** The days of the forecast issued at `issuedAt` (ms since epoch) for `hours` hours, each with its lead and levels. */
  issuedDays(issuedAt: number, hours: number): KeptDay[];
}

/**
 * A provider that can issue again the forecasts it issued in the past (the sample, being
 * deterministic), so that a new deployment has forecasts to score at once.
 */
export interface PastForecasts {
  /** The past forecasts of `city`, made from its history's daily rows (`daily`, by UTC day). */
  pastForecaster(city: City, daily: (day: number) => DayValues | undefined): PastForecaster;
  /** A past forecast hour by hour, as it was issued at `issuedAt` for `hours` hours. */
  pastForecastHours(city: City, issuedAt: number, hours: number): PollenBatch;
}

/** Whether a provider can issue its past forecasts again. */
export const hasPastForecasts = (provider: object): provider is PastForecasts =>
  typeof (provider as Partial<PastForecasts>).pastForecaster === 'function';

export interface WeatherProvider {
  readonly id: string;
  readonly maxDaysPerCall: number;
  /** What history the provider serves at `now`; a weather day is asked only when all its hours are inside. */
  coverage(now: number): Coverage;
  weatherHistory(city: City, span: DaySpan, signal?: AbortSignal): Promise<RawWeatherDay[]>;
}

/**
 * How a provider call failed, which decides what happens next:
 * - `unavailable` (timeout, reset, 5xx) is retried with backoff; `throttled` (a per-minute or
 *   concurrency limit) is retried after the wait the provider asks for, however long;
 * - `quota` (the provider's daily quota, or our budget for it) stops calls to it for the run:
 *   what is left is deferred to the next run;
 * - `not_covered` (no data for the location) and `outside_window` (history the plan does not
 *   serve) are answers, not failures: the day is empty, or outside the window;
 * - `unauthorized`, `rejected` (another 4xx) and `bad_payload` fail the city-day.
 */
export type ProviderFailure =
  | 'quota'
  | 'throttled'
  | 'unauthorized'
  | 'not_covered'
  | 'outside_window'
  | 'unavailable'
  | 'rejected'
  | 'bad_payload';

/** A failed provider call. Messages never contain credentials. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly provider: string,
    readonly failure: ProviderFailure,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(`${provider}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  /** Worth asking again in this run: an unavailable or throttled provider. */
  get retryable(): boolean {
    return this.failure === 'unavailable' || this.failure === 'throttled';
  }
}
