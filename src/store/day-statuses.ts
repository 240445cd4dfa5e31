/** The status ingest gave each of a city's days, as the pollen and the weather days store it. */
import type Database from 'better-sqlite3';
import { type StoredStatus, statusOfCode } from '../domain/status.js';
import type { Row } from './database.js';
import type { Names } from './names.js';

/**
 * The stored status of each of a city's days in [from, to] (days never asked are absent), from a
 * statement taking (city id, from, to) and giving `day, status`: the pollen and the weather days' alike.
 */
export function storedStatuses(
  names: Names,
  statement: Database.Statement,
  city: string,
  from: number,
  to: number,
): Map<number, StoredStatus> {
  const id = names.id('city', city);
  if (id === undefined) return new Map();
  return new Map((statement.all(id, from, to) as Row[]).map((r) => [r.day as number, statusOfCode(r.status as number)]));
}
