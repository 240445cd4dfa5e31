/**
 * What handlers compute of one city-day of a cut, kept per immutable store (a served copy, which
 * nothing writes while it is open): a render asks for each map day three times (a date's map and
 * the two after it show it in their series), in UTC and local days alike. Any other store is never
 * memoized, since another process may write it.
 */
import type { DayCut } from '../domain/days.js';
import type { Store } from '../store/store.js';

/** Values kept per store: about eight days of 200 cities in both cuts. */
const KEPT = 4096;
const memos = new WeakMap<Store, Map<string, unknown>>();

/** `compute()` for this city-day of the cut, once per immutable store while it is kept. */
export function memoCityDay<T>(store: Store, kind: string, city: string, cut: DayCut, day: number, compute: () => T): T {
  if (!store.immutable) return compute();
  let memo = memos.get(store);
  if (!memo) memos.set(store, (memo = new Map()));
  const key = `${kind}|${cut}|${city}|${day}`;
  if (memo.has(key)) return memo.get(key) as T;
  const value = compute();
  memo.set(key, value);
  // Oldest first: a render moves through the days, so what it asks for again is recent.
  if (memo.size > KEPT) memo.delete(memo.keys().next().value!);
  return value;
}
