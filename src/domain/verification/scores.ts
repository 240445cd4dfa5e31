/**
 * Forecast verification: how forecast daily levels and means compare with the observed ones
 * (docs/data.md, "Forecast skill"). The methods and their names are those of the WWRP/WGNE Joint
 * Working Group on Forecast Verification Research (JWGFVR), https://www.cawcr.gov.au/projects/verification/
 * ("Methods for multi-category forecasts", "Methods for dichotomous forecasts"), as the AusPollen
 * partnership scored its grass pollen forecasts by lead day against persistence and climatology
 * (Emmerson et al. 2022, "Evaluation of the performance of short-term curated daily airborne grass
 * pollen forecasts ... AusPollen Partnership project 2016-2020", Atmospheric Environment: X,
 * https://www.sciencedirect.com/science/article/pii/S2590162122000375: Gerrity scores, false alarm
 * ratios and probability of detection).
 *
 * A sample is one period's days on which a forecast and its references are all paired with what
 * was observed (forecast-skill.ts chooses them): every table of a sample is scored on the same
 * days, and their intervals on the same resampled days (bootstrap.ts). Values are unrounded daily
 * means (grains/m³); levels are indexes into RISK_LABELS.
 */

import type { SkillTable } from '../schemas.js';
import { K, LEVEL_INDEX, RISK_LABELS, type Risk } from '../species/risk.js';

export type { SkillTable } from '../schemas.js';

/** A day of one category: its daily mean (grains/m³) and the NAB level it is graded with. */
export interface DayLevel {
  value: number;
  level: Risk;
}

/** One target day: what was forecast for it and what was observed. */
export interface Pair {
  day: number;
  forecast: DayLevel;
  observed: DayLevel;
  /** When the forecast was issued (ms since epoch), for a forecast as issued; absent for a reference. */
  issuedAt?: number;
}

/**
 * No score from fewer days. A score from n days is an estimate: the share of days forecast right
 * has a binomial standard error of up to sqrt(0.25 / n), 0.09 at n = 30, so a 95% interval about
 * ±0.18 wide, already the distance between a useless and a good forecast (JWGFVR, "Confidence
 * intervals for verification scores", https://www.cawcr.gov.au/projects/verification/BootstrapCIs.html);
 * consecutive days are not independent, so the real uncertainty is larger, which the bootstrap
 * intervals show. Thirty is a floor, not a guarantee.
 */
export const MIN_PAIRS = 30;
/** The event POD and FAR are about: a day at High or above. */
export const EVENT_LEVEL: Risk = 'High';
/**
 * Observed events POD and FAR need: POD from one High day is 0 or 1, a coin's verdict; with 5 a
 * share can be told from the extremes (its binomial error sqrt(p(1 - p) / 5) is at most 0.22).
 */
export const MIN_EVENTS = 5;
/**
 * Observed levels and days above None Heidke's and Gerrity's scores of levels need. With two
 * observed levels a table is a yes/no forecast, where Gerrity's equitable score is the Peirce
 * skill score (Gerrity 1992: the score condenses the K-level problem into K - 1 two-level ones;
 * xarray-contrib/xskillscore's tests give both 1/6 on one 2 x 2 table), and a season's quiet days
 * (None) alone make a forecast of "none" look skilled.
 */
export const MIN_LEVELS = 3;
export const MIN_ABOVE_NONE = 10;
/**
 * Days each observed level needs for Heidke's and Gerrity's scores. Gerrity's weights grow as a
 * level's days get fewer (a_r = (1 - D_r) / D_r): one High day forecast right can outweigh a
 * month of Low days, so a score resting on a level seen once or twice is that day's luck
 * (Portland weed at lead 2: Heidke puts the forecast ahead of persistence, Gerrity behind, because
 * persistence caught the one High day). Five is the figure POD and FAR already keep to
 * (MIN_EVENTS), and the expected count Cochran's rule asks of each cell of a contingency table
 * before a chi-squared test is trusted (Cochran 1954, "Some methods for strengthening the common
 * χ² tests", Biometrics 10(4):417-451; docs/decisions.md).
 */
export const MIN_LEVEL_DAYS = 5;

export const EVENT = LEVEL_INDEX[EVENT_LEVEL];

/** Scores in answers: six decimals, no signed zero (float noise such as -5.9e-17 is 0). */
export const tidy = (v: number): number => Math.round(v * 1e6) / 1e6 + 0;

/** A category's days as columns: unrounded daily means, and level indexes. */
export interface Levels {
  values: Float64Array;
  levels: Uint8Array;
}

/** The contingency table's 25 counts of forecast levels against observed ones (forecast f, observed o at 5f + o). */
export function countsOf(forecast: Uint8Array, observed: Uint8Array): Int32Array {
  const counts = new Int32Array(K * K);
  for (let i = 0; i < observed.length; i++) counts[K * forecast[i]! + observed[i]!]!++;
  return counts;
}

/** The K x K contingency table of pairs: table[f][o] counts the days forecast at level f and observed at level o. */
export function contingencyTable(pairs: Iterable<Pair>): number[][] {
  const table = RISK_LABELS.map(() => RISK_LABELS.map(() => 0));
  for (const p of pairs) table[LEVEL_INDEX[p.forecast.level]]![LEVEL_INDEX[p.observed.level]]!++;
  return table;
}

/**
 * Heidke's and Gerrity's skill scores of a contingency table, into out[0] and out[1]: NaN when
 * every observed day is in one level. `support` lists the table's cells (forecast f, observed o as
 * 5f + o) in ascending order and `counts[at + k]` is the count of its k-th: with every cell listed,
 * the 25 counts at `at`; a resample's table, only the cells its sample uses.
 *
 * Heidke skill score over the K levels (JWGFVR, "Methods for multi-category forecasts"):
 *   HSS = [ (1/N) Σ_i n(F_i, O_i) - (1/N²) Σ_i N(F_i) N(O_i) ] / [ 1 - (1/N²) Σ_i N(F_i) N(O_i) ]
 * where n(F_i, O_j) counts the days forecast in level i and observed in level j, N(F_i) and N(O_i)
 * are the forecast and observed totals of level i and N all days: the share of days forecast in the
 * right level, beyond the share a forecast independent of the observations would get by chance.
 *
 * Gerrity skill score (Gerrity 1992, "A note on Gandin and Murphy's equitable skill score", Mon.
 * Wea. Rev. 120(11):2709-2712; the notation of Jolliffe & Stephenson 2003, "Forecast
 * Verification", ch. 4, as R's verification package implements it, cran/verification
 * R/multi.cont.R; computed with the sample's observed frequencies, as the WMO's long-range
 * verification standard does, http://www.bom.gov.au/wmo/lrfvs/gerrity.shtml):
 *   GS = (1/N) Σ_i Σ_j n(F_i, O_j) s_ij
 *   D_r = Σ_{k<=r} p_k, the share of days observed at or below level r, and a_r = (1 - D_r) / D_r
 *   s_ii = 1/(K-1) [ Σ_{r=1}^{i-1} 1/a_r + Σ_{r=i}^{K-1} a_r ]
 *   s_ij = 1/(K-1) [ Σ_{r=1}^{i-1} 1/a_r - (j - i) + Σ_{r=j}^{K-1} a_r ]  for i < j, and s_ji = s_ij.
 * Equitable: a constant or random forecast scores 0, a perfect one 1; a miss by more levels costs
 * more, and a rare level forecast right earns more.
 *
 * The formula needs every level observed (a_r is infinite or 0 otherwise). Levels never observed
 * at the ends of the scale (no None day in spring, no Very High grass day) are left out: the score
 * is Gerrity's over the K' levels from the lowest to the highest observed, so that a perfect
 * forecast still scores 1; a forecast of a level beyond that span is scored as the span's end
 * level less 1/(K'-1) for each level further. This is the limit of the K-level score as those
 * levels' frequencies go to 0, rescaled by (K-1)/(K'-1). A level never observed inside the span
 * needs nothing: D_r is then the same as for the level below.
 *
 * Summed by r rather than by cell: 1/a_r counts for every day whose forecast and observed span
 * positions are both above r (U_r), a_r for every day whose both are at or below r (L_r), and each
 * day costs its distance in levels |f - o| (beyond the span included), so
 *   GS = [ Σ_r (U_r / a_r + a_r L_r) - Σ n(F_i, O_j) |i - j| ] / (N (K' - 1)).
 */
export function levelScores(counts: ArrayLike<number>, at: number, support: ArrayLike<number>, out: Float64Array): void {
  // Plain loops on scratch arrays: the bootstrap scores three tables a resample, a thousand resamples a period.
  for (let i = 0; i < K; i++) {
    ROW[i] = 0;
    COLUMN[i] = 0;
    MIN_AT[i] = 0;
    MAX_AT[i] = 0;
  }
  let n = 0;
  let diagonal = 0;
  let distance = 0;
  for (let k = 0; k < support.length; k++) {
    const c = counts[at + k]!;
    if (c === 0) continue;
    const cell = support[k]!;
    const f = F_OF[cell]!;
    const o = O_OF[cell]!;
    ROW[f]! += c;
    COLUMN[o]! += c;
    n += c;
    if (f === o) diagonal += c;
    else distance += c * Math.abs(f - o);
  }
  let lo = -1;
  let hi = -1;
  let chance = 0;
  for (let i = 0; i < K; i++) {
    chance += ROW[i]! * COLUMN[i]!;
    if (COLUMN[i]! > 0) {
      if (lo < 0) lo = i;
      hi = i;
    }
  }
  if (lo === hi) {
    out[0] = Number.NaN;
    out[1] = Number.NaN;
    return;
  }
  chance /= n * n;
  out[0] = (diagonal / n - chance) / (1 - chance);
  const span = hi - lo + 1;
  for (let k = 0; k < support.length; k++) {
    const c = counts[at + k]!;
    if (c === 0) continue;
    const cell = support[k]!;
    const fs = Math.min(Math.max(F_OF[cell]!, lo), hi) - lo;
    const os = O_OF[cell]! - lo;
    MIN_AT[Math.min(fs, os)]! += c;
    MAX_AT[Math.max(fs, os)]! += c;
  }
  let total = 0;
  let cumulative = 0;
  let below = 0;
  let above = n - MIN_AT[0]!;
  for (let r = 0; r < span - 1; r++) {
    cumulative += COLUMN[lo + r]!;
    const a = (n - cumulative) / cumulative;
    below += MAX_AT[r]!;
    total += above / a + a * below;
    above -= MIN_AT[r + 1]!;
  }
  out[1] = (total - distance) / (n * (span - 1));
}

/** Each cell's forecast and observed level. */
const F_OF = Uint8Array.from({ length: K * K }, (_, cell) => Math.floor(cell / K));
const O_OF = Uint8Array.from({ length: K * K }, (_, cell) => cell % K);
const ROW = new Float64Array(K);
const COLUMN = new Float64Array(K);
const MIN_AT = new Float64Array(K);
const MAX_AT = new Float64Array(K);
export const EVERY_CELL = Uint8Array.from({ length: K * K }, (_, i) => i);
const SCORED = new Float64Array(2);

/** Heidke's skill score of the 25 counts at `at` (levelScores); NaN when every observed day is in one level. */
export function heidkeOf(counts: ArrayLike<number>, at = 0): number {
  levelScores(counts, at, EVERY_CELL, SCORED);
  return SCORED[0]!;
}

/** Gerrity's skill score of the 25 counts at `at` (levelScores); NaN when every observed day is in one level. */
export function gerrityOf(counts: ArrayLike<number>, at = 0): number {
  levelScores(counts, at, EVERY_CELL, SCORED);
  return SCORED[1]!;
}

/** Hits, misses and false alarms of the event "High or above". */
export function eventCounts(counts: ArrayLike<number>): SkillTable['high'] {
  const high = { hits: 0, misses: 0, false_alarms: 0 };
  for (let f = 0; f < K; f++) {
    for (let o = 0; o < K; o++) {
      const c = counts[K * f + o]!;
      if (f >= EVENT && o >= EVENT) high.hits += c;
      else if (o >= EVENT) high.misses += c;
      else if (f >= EVENT) high.false_alarms += c;
    }
  }
  return high;
}

export type Score = { value: number; reason: null } | { value: null; reason: string };
export const value = (v: number): Score => ({ value: v, reason: null });
export const none = (reason: string): Score => ({ value: null, reason });

/**
 * Probability of detection and false alarm ratio of the event (JWGFVR, "Methods for dichotomous
 * forecasts"; https://www.cawcr.gov.au/bmrc/SatRainVal/catstats/categorical_scores.html), from at
 * least MIN_EVENTS observed events and as many observed days without one (`nonEvents`, where given):
 *   POD = hits / (hits + misses)          the share of observed events that were forecast
 *   FAR = false alarms / (hits + false alarms)   the share of forecast events that did not happen
 */
export function podFar(high: SkillTable['high'], nonEvents?: number): { pod: Score; far: Score } {
  const { hits, misses, false_alarms } = high;
  const observed = hits + misses;
  if (observed < MIN_EVENTS) {
    const reason = `${observed === 0 ? 'no' : `only ${observed}`} observed day${observed === 1 ? '' : 's'} at ${EVENT_LEVEL} or above, fewer than the ${MIN_EVENTS} POD and FAR need`;
    return { pod: none(reason), far: none(reason) };
  }
  if (nonEvents !== undefined && nonEvents < MIN_EVENTS) {
    const reason = `only ${nonEvents} observed day${nonEvents === 1 ? '' : 's'} below ${EVENT_LEVEL}, fewer than the ${MIN_EVENTS} POD and FAR need: a forecast of ${EVENT_LEVEL} every day would detect every event`;
    return { pod: none(reason), far: none(reason) };
  }
  return {
    pod: value(hits / observed),
    far: hits + false_alarms === 0 ? none(`no day forecast at ${EVENT_LEVEL} or above`) : value(false_alarms / (hits + false_alarms)),
  };
}
