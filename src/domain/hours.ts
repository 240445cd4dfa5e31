/** Hours of pollen: as a provider reports them, as the store keeps them, and the step between. */
import { HOUR_MS } from './dates.js';
import { measurement } from './species/measurement.js';
import { type Species, sanitizeSpecies } from './species/payload.js';

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

/** One hour of pollen as stored: checked values, hours since 1970-01-01T00:00Z. */
export interface PollenHour {
  hour: number;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  total: number;
  species: Species | null;
}

/** A stored hour with what its city-day says about it. */
export interface StoredHour extends PollenHour {
  timezone: string | null;
  source: string;
}

/** One provider hour as stored; the total is the provider's when valid, else the sum of the categories. */
export function normalizeHour(raw: RawPollenHour): PollenHour {
  const tree = measurement(raw.tree);
  const grass = measurement(raw.grass);
  const weed = measurement(raw.weed);
  return {
    hour: Math.floor(raw.time / HOUR_MS),
    tree,
    grass,
    weed,
    total: measurement(raw.total) ?? (tree ?? 0) + (grass ?? 0) + (weed ?? 0),
    species: sanitizeSpecies(raw.species),
  };
}

/**
 * A city-day's one value from a provider that gives days, not hours: what it said of the day, with
 * the day's zone and provider, and its own levels in its own words (never NAB's). No hour is made from it.
 */
export interface PollenDayValue {
  /** The day number of the provider's date. */
  day: number;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  total: number;
  species: Species | null;
  timezone: string | null;
  source: string;
  levels: Readonly<Record<string, string>> | null;
}

/** A day's checked values, from numbers as a provider sends them; the total is the provider's when valid, else the sum of the categories. */
export function normalizeDayValue(raw: Pick<RawPollenHour, 'tree' | 'grass' | 'weed' | 'total' | 'species'>): Omit<PollenHour, 'hour'> {
  const { hour: _hour, ...values } = normalizeHour({ ...raw, time: 0 });
  return values;
}
