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
import { observedLevel } from './verification-days.js';
import type { DayLevel, Pair } from './verification.js';

/** Persistence's pairs at `lead`: each target day with an observed value, forecast by the day before its issue day. */
export function persistencePairs(observed: SeasonSeries, days: Iterable<number>, lead: number): Pair[] {
  const pairs: Pair[] = [];
  for (const day of days) {
    const forecast = observedLevel(observed, day - lead - 1);
    const seen = observedLevel(observed, day);
    if (forecast && seen) pairs.push({ day, forecast, observed: seen });
  }
  return pairs;
}

/** Where medianDay puts a sample's members in order. */
let order = new Int32Array(64);

/** The median day of a climatological sample (the lower middle one of an even sample); undefined for an empty one. */
export function medianDay(sample: Sample): DayLevel | undefined {
  const n = sample.length;
  if (n === 0) return undefined;
  // Members in order of daily mean, then day (no two members share a day), by insertion: a sample
  // is some thirty members, and every observed day of every category asks for its median.
  if (order.length < n) order = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [value, day] = [sample.value(i), sample.day(i)];
    let j = i;
    for (; j > 0; j--) {
      const before = order[j - 1]!;
      const v = sample.value(before);
      if (v < value || (v === value && sample.day(before) < day)) break;
      order[j] = before;
    }
    order[j] = i;
  }
  const median = order[(n - 1) >> 1]!;
  return { value: sample.value(median), level: RISK_LABELS[sample.level(median)]! };
}

/** Climatology's pairs: each target day with an observed value, forecast by its earlier years' median day. */
export function climatologyPairs(observed: SeasonSeries, days: Iterable<number>, options: ClimatologyOptions = {}): Pair[] {
  const climatology = Climatology.of(observed, options);
  const pairs: Pair[] = [];
  for (const day of days) {
    const seen = observedLevel(observed, day);
    const forecast = seen && medianDay(climatology.sample(day));
    if (forecast && seen) pairs.push({ day, forecast, observed: seen });
  }
  return pairs;
}
