/** `ingest` arguments checked before anything is opened, so a bad call writes nothing. */

import type { City } from '../domain/cities.js';
import { CityFileError, readCityFile } from '../domain/city-file.js';
import { dayNumber, isIsoDate } from '../domain/dates.js';
import type { DaySpan } from '../providers/provider.js';
import { ConfigError, checkProviders } from '../providers/registry.js';
import { settingsOf } from '../settings.js';

export interface RawIngestArgs {
  provider?: string;
  weather?: string;
  from?: string;
  to?: string;
  days?: string;
  cities?: string;
  citiesFile?: string;
  db?: string;
  refresh?: boolean;
  replaceProviderDays?: boolean;
}

export interface IngestArgs {
  /** The pollen provider asked for; none: the store's own (the provider of its newest day), else the sample. */
  provider?: string;
  weather?: string;
  span: DaySpan;
  /** The city set a cities file chooses (checked whole), if one was given. */
  citySet?: City[];
  /** `--cities`: the slugs to ingest, within the set. */
  only?: string[];
  db: string;
  refresh: boolean;
  /** Let a provider other than the store's write this run's days, replacing what another provider stored there. */
  replaceProviderDays: boolean;
}

export class UsageError extends Error {}

/** Most days one run may cover. */
export const MAX_DAYS = 3660;
export const DEFAULT_DAYS = 365;
/**
 * Days `npm start` fills an empty store with: two years, so that on any day every season
 * category (tree's year starts on 1 October) has one complete earlier year to compare with.
 */
export const START_DAYS = 730;

/**
 * Validated arguments. Without dates: the `DEFAULT_DAYS` UTC days ending yesterday (today is
 * still being observed). `--to` is inclusive and must be a past day.
 */
export function parseIngestArgs(raw: RawIngestArgs, today: number, defaultDb: string, env: NodeJS.ProcessEnv = process.env): IngestArgs {
  const provider = raw.provider;
  try {
    // Without --provider, POLLEN_PROVIDERS or else the store says which (run.ts checks it again then).
    checkProviders(provider ?? settingsOf(env).POLLEN_PROVIDERS ?? 'sample', raw.weather, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }

  const date = (flag: string, value: string) => {
    if (!isIsoDate(value)) throw new UsageError(`${flag} must be a date in YYYY-MM-DD format (got ${JSON.stringify(value)})`);
    return dayNumber(value);
  };
  let span: DaySpan;
  if (raw.days !== undefined) {
    if (raw.from !== undefined || raw.to !== undefined) throw new UsageError('--days cannot be combined with --from or --to');
    if (!/^\d+$/.test(raw.days) || Number(raw.days) < 1 || Number(raw.days) > MAX_DAYS) {
      throw new UsageError(`--days must be a whole number from 1 to ${MAX_DAYS} (got ${JSON.stringify(raw.days)})`);
    }
    span = { from: today - Number(raw.days), to: today - 1 };
  } else if (raw.from !== undefined || raw.to !== undefined) {
    if (raw.from === undefined || raw.to === undefined) throw new UsageError('--from and --to go together');
    span = { from: date('--from', raw.from), to: date('--to', raw.to) };
    if (span.from > span.to) throw new UsageError('--from must not be later than --to');
    if (span.to >= today) throw new UsageError('--to must be a past day (today is still being observed)');
    if (span.to - span.from + 1 > MAX_DAYS) throw new UsageError(`the window must be at most ${MAX_DAYS} days`);
  } else {
    span = { from: today - DEFAULT_DAYS, to: today - 1 };
  }

  const only = raw.cities === undefined ? undefined : [...new Set(raw.cities.split(',').map((s) => s.trim()))];
  if (only?.some((s) => s === '')) throw new UsageError('--cities must be comma-separated city slugs');

  // `--cities-file`, else $CITIES_FILE: every bad entry named, before anything is opened.
  const file = raw.citiesFile ?? settingsOf(env).CITIES_FILE;
  let citySet: City[] | undefined;
  if (file !== undefined) {
    try {
      citySet = readCityFile(file);
    } catch (error) {
      if (error instanceof CityFileError) throw new UsageError(`--cities-file ${error.message}`);
      throw error;
    }
  }

  const db = raw.db ?? defaultDb;
  if (db.trim() === '') throw new UsageError('--db must be a file path');
  return {
    provider,
    weather: raw.weather,
    span,
    citySet,
    only,
    db,
    refresh: raw.refresh ?? false,
    replaceProviderDays: raw.replaceProviderDays ?? false,
  };
}
