/**
 * What answering a request may read of the store: handlers and MCP tools see this, never the
 * writes, the call ledger, the forecast cache or the store's maintenance (VACUUM and the rest).
 * Two stores implement it: the SQLite store (store.ts) and the shard store the functions read
 * (shards/shard-reader.ts); test/store/reader-conformance.test.ts holds both to it.
 *
 * Cities are slugs; days are days since 1970-01-01 (UTC days, or with a `DayCut` of local, the
 * city's local days), hours are hours since 1970-01-01T00:00Z.
 */
import type { DayCut } from '../domain/day-cuts.js';
import type { DayValues } from '../domain/day-values.js';
import type { StoredHour } from '../domain/hours.js';
import type { Shape } from '../domain/species/payload.js';
import type { ForecastSkill } from '../domain/verification/skill-schemas.js';
import type { StoredWeather } from '../domain/weather.js';
import type { IngestRun } from './ingest-runs.js';

/** A city's window of hours [from, to), and optionally how its hours group into days. */
export interface CountWindow {
  city: string;
  from: number;
  to: number;
  dayOf?: (hour: number) => number;
}

export interface PollenReader {
  /** A city's hourly rows with hours in [fromHour, toHour), ascending. */
  hours(city: string, fromHour: number, toHour: number): StoredHour[];
  /** The same rows as `hours`, a day at a time, so that a large range is never held whole. */
  iterateHours(city: string, fromHour: number, toHour: number): Iterable<StoredHour>;
  /** How many rows each city's window holds up to `limit` (hours, or with `dayOf` the days it groups them in), and whether there are more. */
  countUpTo(windows: readonly CountWindow[], limit: number): { count: number; more: boolean };
  /** Every UTC day with a pollen observation, newest first. */
  daysWithData(): number[];
  /** The newest UTC day with a pollen observation; null for an empty store. */
  latestDay(): number | null;
  /** The newest stored hour (a daily value's day: its last hour); null for an empty store. */
  latestHour(): number | null;
  /** The provider of the newest pollen day. */
  latestSource(): string | null;
  /** The providers of a city's hours in [from, to): each once, the earliest day's first. */
  sourcesIn(city: string, from: number, to: number): string[];
  /** A city's newest days with observations, newest first, at most `limit`. */
  cityDaysWithData(city: string, limit: number): number[];
  /** The served cities with a pollen observation on a UTC day. */
  citiesWithDataOn(day: number): string[];
}

export interface WeatherReader {
  /** One city-day of weather, or undefined. */
  cityDay(city: string, day: number): StoredWeather | undefined;
  /** A city's most recent weather rows, newest first, at most `limit`. */
  forCity(city: string, limit: number): StoredWeather[];
  /** Every city's weather on one day, in no particular order. */
  forDay(day: number): StoredWeather[];
  /** Every day with a weather row, newest first. */
  days(): number[];
  /** The newest day with a weather row, or null. */
  latestDay(): number | null;
  /** The provider of the newest weather day. */
  latestSource(): string | null;
  /** The cities with a weather row on a day. */
  citiesOn(day: number): string[];
}

export interface DayValuesReader {
  /** The values of a city-day of a cut, if it has data. */
  on(city: string, cut: DayCut, day: number): DayValues | undefined;
  /** Whether a city has any day with data in a cut. */
  has(city: string, cut: DayCut): boolean;
  /** A city's newest days with data of a cut, newest first, at most `limit`. */
  newest(city: string, cut: DayCut, limit: number): DayValues[];
  /** A city's days with data of a cut in [from, to], by day. */
  span(city: string, cut: DayCut, from: number, to: number): Map<number, DayValues>;
  /** Every city's days with data of a cut in [from, to]: by slug, then by day. */
  across(cut: DayCut, from: number, to: number): Map<string, Map<number, DayValues>>;
}

export interface StoreReader {
  readonly pollen: PollenReader;
  readonly weather: WeatherReader;
  readonly values: DayValuesReader;
  readonly runs: { /** The most recent ingest run, if any. */ last(): IngestRun | undefined };
  readonly shapes: { /** Every shape a species object of any hour can take. */ all(): Shape[] };
  /** Each city's forecast skill, as a render computed it. */
  readonly skills: {
    /** A city's skill; undefined when no render computed it. */
    get(city: string): ForecastSkill | undefined;
    /** Whether a render wrote a city's skill (nothing decoded). */
    has(city: string): boolean;
    /** Whether a render wrote any city's skill. */
    written(): boolean;
  };
  /** Bytes of the longest stored label, as UTF-8 (a bound on a row's size). */
  longestLabelBytes(): number;
}
