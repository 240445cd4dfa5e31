/**
 * The reference forecasts every forecast is scored beside (docs/data.md, "Forecast skill"): what
 * anyone could say without a forecast. Skill scores measure a forecast against such naive methods,
 * with climatology or persistence the usual standards of reference (Murphy 1992, "Climatology,
 * persistence, and their linear combination as standards of reference in skill scores",
 * https://www.scilit.net/publications/0d0cf65c99535cd0b4e68133db69d6b1);
 * the AusPollen evaluation compared its forecasts with the same two (Emmerson et al. 2022, see
 * verification.ts). Both are made once, on the issue day, from what the store held then, and kept
 * (kept-outlooks.ts): a reference scored later is the one that could have been issued.
 *
 * - Persistence: the target day will be as the last complete day observed before the issue day
 *   (the issue day's own hours are too few for a daily mean until late in it: verification-days.ts),
 *   at most PERSISTENCE_DAYS back; normally the day before the issue day.
 * - Climatology: the target day will be as the earlier years were around the same date
 *   (climatology.ts): the sample's median day, the lower of the two middle days of an even sample
 *   by daily mean, whose mean and level are those of a day that happened.
 */

import type { SeasonSeries } from '../seasons/year.js';
import { RISK_LABELS } from '../species/risk.js';
import type { Sample } from './climatology.js';
import type { DayLevel } from './scores.js';

/** How far back persistence looks for the last observed day before the issue day. */
export const PERSISTENCE_DAYS = 3;

/** Persistence on `issueDay`: the last day of the series before it, at most PERSISTENCE_DAYS back; null when none. */
export function persistenceOn(series: SeasonSeries, issueDay: number): (DayLevel & { day: number }) | null {
  for (let day = issueDay - 1; day >= issueDay - PERSISTENCE_DAYS; day--) {
    const d = series.get(day);
    if (d && d.risk !== null) return { day, value: d.value, level: d.risk };
  }
  return null;
}

/** Where medianDay puts a sample's members in order. */
let order = new Int32Array(64);

/** The median day of a climatological sample (the lower middle one of an even sample); undefined for an empty one. */
export function medianDay(sample: Sample): DayLevel | undefined {
  const n = sample.length;
  if (n === 0) return undefined;
  // Members in order of daily mean, then day (no two members share a day), by insertion: a sample
  // is some thirty members, and every target day of every category asks for its median.
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
