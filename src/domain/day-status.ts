/**
 * What ingest knows of one city-day of one kind of data (pollen or weather). The store keeps the
 * outcome of asking a provider (complete, partial, empty); the other statuses describe a run.
 */
import { WEATHER_FIELDS, type WeatherValues } from './weather.js';

export const DAY_STATUSES = ['complete', 'partial', 'empty', 'deferred', 'outside_window', 'failed'] as const;
export type DayStatus = (typeof DAY_STATUSES)[number];

/** Statuses kept in the store, with their stored codes. */
export const STORED_STATUSES = { complete: 1, partial: 2, empty: 3 } as const;
export type StoredStatus = keyof typeof STORED_STATUSES;
const BY_CODE = new Map(Object.entries(STORED_STATUSES).map(([k, v]) => [v as number, k as StoredStatus]));

/** The status of a stored code. */
export function statusOfCode(code: number): StoredStatus {
  const status = BY_CODE.get(code);
  if (!status) throw new RangeError(`unknown status code ${code}`);
  return status;
}

export type DataKind = 'pollen' | 'weather';

/** A UTC day has 24 hours; fewer is partial, none is empty. */
export function pollenStatus(hours: number): StoredStatus {
  return hours >= 24 ? 'complete' : hours > 0 ? 'partial' : 'empty';
}

/** A weather row is complete when it has any measured value (its zone fields do not count). */
export function weatherStatus(values: WeatherValues): StoredStatus {
  return WEATHER_FIELDS.some((f) => f !== 'tz' && f !== 'timezone' && values[f] !== undefined) ? 'complete' : 'empty';
}
