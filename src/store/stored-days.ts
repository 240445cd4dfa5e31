/** The status ingest gave each of a city's days, as the pollen and the weather days store it. */
import type Database from 'better-sqlite3';
import { type StoredStatus, statusOfCode } from '../domain/day-status.js';
import type { Row } from './database.js';
import type { Names } from './names.js';

/** A stored day's status and the provider that wrote it. */
export interface StoredDay {
  status: StoredStatus;
  source: string;
}

/**
 * The stored status and provider of each of a city's days in [from, to] (days never asked are
 * absent), from a statement taking (city id, from, to) and giving `day, status, source_id`: the
 * pollen and the weather days' alike.
 */
export function storedDays(names: Names, statement: Database.Statement, city: string, from: number, to: number): Map<number, StoredDay> {
  const id = names.id('city', city);
  if (id === undefined) return new Map();
  return new Map(
    (statement.all(id, from, to) as Row[]).map((r) => [
      r.day as number,
      { status: statusOfCode(r.status as number), source: names.source(r.source_id as number) },
    ]),
  );
}
