/** A city's daily rows, read from its stored day values: what its seasons are measured on. */

import type { DayCut } from '../domain/day-cuts.js';
import { dailyRowOf } from '../domain/day-values.js';
import type { DatedRow } from '../domain/seasons/year.js';
import type { StoreReader } from './reader.js';

/** Every daily row of a city, oldest first: what its seasons are measured on (the bulk seasons file's too). */
export function allDailyRows(store: Pick<StoreReader, 'values'>, city: string, cut: DayCut): Array<DatedRow & { sources: string[] }> {
  return [...store.values.span(city, cut, 0, Number.MAX_SAFE_INTEGER).values()].map((v) => ({
    day: v.day,
    row: dailyRowOf(v),
    sources: v.sources,
  }));
}
