/**
 * The reference forecasts every forecast is scored beside (docs/data.md, "Forecast skill"): what
 * anyone could say without a forecast. Skill scores measure a forecast against such naive methods,
 * with climatology or persistence the usual standards of reference (Murphy 1992, "Climatology,
 * persistence, and their linear combination as standards of reference in skill scores",
 * https://www.scilit.net/publications/0d0cf65c99535cd0b4e68133db69d6b1);
 * the AusPollen evaluation compared its forecasts with the same two (Emmerson et al. 2022, see
 * verification.ts).
 *
 * - Persistence: the target day will be as the last day observed before the forecast was issued,
 *   the day before the issue day. At lead L the target day T is forecast by the observed day
 *   T - L - 1; without that day there is no persistence pair.
 * - Climatology: the target day will be as the earlier years were around the same date
 *   (climatology.ts): the sample's median day, the lower of the two middle days of an even sample
 *   by daily mean, whose mean and level are those of a day that happened, graded as its row was.
 */
import { Climatology, type ClimatologyOptions, type Sample } from './climatology.js';
import { RISK_LABELS } from './risk.js';
import type { SeasonSeries } from './seasons.js';
import { dayLevel } from './verification-days.js';
import type { DayLevel, Pair } from './verification.js';

/** Persistence's pairs at `lead`: each target day with an observed value, forecast by the day before its issue day. */
export function persistencePairs(observed: SeasonSeries, days: Iterable<number>, lead: number): Pair[] {
  const pairs: Pair[] = [];
  for (const day of days) {
    const forecast = dayLevel(observed.get(day - lead - 1));
    const seen = dayLevel(observed.get(day));
    if (forecast && seen) pairs.push({ day, forecast, observed: seen });
  }
  return pairs;
}

/** The median day of a climatological sample (the lower middle one of an even sample); undefined for an empty one. */
export function medianDay(sample: Sample): DayLevel | undefined {
  if (sample.length === 0) return undefined;
  const order = Array.from({ length: sample.length }, (_, i) => i);
  order.sort((a, b) => sample.value(a) - sample.value(b) || sample.day(a) - sample.day(b));
  const median = order[(sample.length - 1) >> 1]!;
  return { value: sample.value(median), level: RISK_LABELS[sample.level(median)]! };
}

/** Climatology's pairs: each target day with an observed value, forecast by its earlier years' median day. */
export function climatologyPairs(observed: SeasonSeries, days: Iterable<number>, options: ClimatologyOptions = {}): Pair[] {
  const climatology = new Climatology(observed, options);
  const pairs: Pair[] = [];
  for (const day of days) {
    const seen = dayLevel(observed.get(day));
    const forecast = seen && medianDay(climatology.sample(day));
    if (forecast && seen) pairs.push({ day, forecast, observed: seen });
  }
  return pairs;
}
