/**
 * The clocks tests take "now" from: never the machine's, so that a test reads the same at any
 * date and hour it runs. A served site's clock is `POLLEN_NOW` (src/settings.ts), the browser's is
 * set to the same instant, and a store is filled to the day before.
 */
import { DAY_MS, HOUR_MS } from '../../src/domain/dates.js';

/** 15:00 UTC on the day after `lastDay`: the same calendar day in every US zone (Honolulu's 05:00, Eastern 11:00). */
export const dayAfter = (lastDay: number): number => (lastDay + 1) * DAY_MS + 15 * HOUR_MS;

/** An instant written as the setting takes it. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Sets `POLLEN_NOW` for what runs in this process, and returns a function that puts the variable back. */
export function setClock(now: number): () => void {
  const before = process.env.POLLEN_NOW;
  process.env.POLLEN_NOW = iso(now);
  return () => {
    if (before === undefined) delete process.env.POLLEN_NOW;
    else process.env.POLLEN_NOW = before;
  };
}
