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

import type { SkillTable, Verdict } from '../schemas.js';
import { LEVEL_INDEX, RISK_LABELS, type Risk } from '../species/risk.js';
import { type Interval, percentileInterval, resampledTables, resamplesOf } from './bootstrap.js';

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

const K = RISK_LABELS.length;
const EVENT = LEVEL_INDEX[EVENT_LEVEL];

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
const EVERY_CELL = Uint8Array.from({ length: K * K }, (_, i) => i);
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

type Score = { value: number; reason: null } | { value: null; reason: string };
const value = (v: number): Score => ({ value: v, reason: null });
const none = (reason: string): Score => ({ value: null, reason });

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

/**
 * Ranks 1..n of finite values, a tie sharing the mean of the ranks it spans (SciPy's rankdata,
 * method 'average'); `sorted` is the values sorted, where the caller has them.
 */
export function midRanks(values: ArrayLike<number>, sorted: Float64Array = new Float64Array(values).sort()): Float64Array {
  // A value's ties span from the first sorted value not below it to the last not above it, found by
  // binary search in the values sorted as numbers: no object per value, no comparator called.
  const n = values.length;
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let [lo, hi] = [0, n];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! >= v) hi = mid;
      else lo = mid + 1;
    }
    const first = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! > v) hi = mid;
      else lo = mid + 1;
    }
    ranks[i] = (first + lo - 1) / 2 + 1;
  }
  return ranks;
}

/**
 * Spearman rank correlation: the Pearson correlation of the mid-ranks of the forecast and of the
 * observed daily means (scipy.stats.spearmanr, https://docs.scipy.org/doc/scipy/reference/generated/scipy.stats.spearmanr.html).
 */
export function spearman(forecast: ArrayLike<number>, observed: ArrayLike<number>): Score {
  const [byForecast, byObserved] = [new Float64Array(forecast).sort(), new Float64Array(observed).sort()];
  const same = (sorted: Float64Array) => sorted.length < 2 || sorted[0] === sorted[sorted.length - 1];
  if (same(byForecast)) return none('every forecast daily mean was the same: no ranks to correlate');
  if (same(byObserved)) return none('every observed daily mean was the same: no ranks to correlate');
  const x = midRanks(forecast, byForecast);
  const y = midRanks(observed, byObserved);
  // Mid-ranks of n values always sum to n(n + 1) / 2.
  const mean = (x.length + 1) / 2;
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mean) * (y[i]! - mean);
    sxx += (x[i]! - mean) ** 2;
    syy += (y[i]! - mean) ** 2;
  }
  return value(sxy / Math.sqrt(sxx * syy));
}

/**
 * Root mean square error of log10(1 + daily mean): errors as ratios, so that a forecast of 200 for
 * an observed 100 costs as much in a heavy season as 2 for 1 in a light one (the "factor of 2" of
 * pollen model evaluations: Ritenberga et al. 2017, Sci. Total Environ. 615,
 * doi:10.1016/j.scitotenv.2017.09.061, scores the fraction of predictions within a factor of 2);
 * the 1 keeps days without pollen.
 */
export function rmseLog(forecast: ArrayLike<number>, observed: ArrayLike<number>): Score {
  if (forecast.length === 0) return none('no pairs');
  let squares = 0;
  for (let i = 0; i < forecast.length; i++) squares += (Math.log10(1 + forecast[i]!) - Math.log10(1 + observed[i]!)) ** 2;
  return value(Math.sqrt(squares / forecast.length));
}

/** The observed levels of a sample, counted: why its tables cannot score levels (too few levels, or days above None), or null. */
export function levelsReason(observed: Uint8Array): string | null {
  const byLevel = new Array<number>(K).fill(0);
  for (const o of observed) byLevel[o]!++;
  const seen = byLevel.flatMap((n, i) => (n > 0 ? [`${RISK_LABELS[i]} ${n}`] : []));
  if (seen.length === 1)
    return `every observed day was ${RISK_LABELS[byLevel.findIndex((n) => n > 0)]}: with one observed level, skill cannot be told from chance`;
  if (seen.length < MIN_LEVELS)
    return `only ${seen.length} observed levels (${seen.join(', ')} days): a yes/no forecast, on which Gerrity's score is the Peirce skill score, not a score of ${MIN_LEVELS} or more levels`;
  const aboveNone = observed.length - byLevel[0]!;
  if (aboveNone < MIN_ABOVE_NONE)
    return `only ${aboveNone} observed day${aboveNone === 1 ? '' : 's'} above None, fewer than the ${MIN_ABOVE_NONE} a score of levels needs`;
  const rare = byLevel.flatMap((n, i) => (n > 0 && n < MIN_LEVEL_DAYS ? [`${RISK_LABELS[i]} on ${n} day${n === 1 ? '' : 's'}`] : []));
  if (rare.length > 0)
    return `observed ${rare.join(' and ')} (${seen.join(', ')} days): each observed level needs ${MIN_LEVEL_DAYS} days, or a score of levels rests on those few`;
  return null;
}

/** Why no Spearman or RMSE: every observed day None (a table of quiet days says nothing of a forecast's error in a season), or null. */
export function valuesReason(observed: Uint8Array): string | null {
  for (const o of observed) if (o !== 0) return null;
  return observed.length === 0
    ? null
    : 'every observed day was None: errors on days without pollen to speak of say nothing of the forecast';
}

/** An interval as answers give it, [low, high] tidied; or null with why. */
function intervalOf(values: Float64Array | undefined, reason: string | null): { interval: [number, number] | null; reason?: string } {
  if (reason !== null || values === undefined) return { interval: null, ...(reason === null ? {} : { reason }) };
  const i: Interval = percentileInterval(values);
  return 'reason' in i ? { interval: null, reason: i.reason } : { interval: [tidy(i.low), tidy(i.high)] };
}

/** How a sample's tables are scored: from how many days, and whether its observed levels allow scores of levels. */
interface TableContext {
  /** Why no score at all (too few days), or null. */
  few: string | null;
  /** Why no score of levels (levelsReason), or null. */
  levels: string | null;
  /** Why no Spearman or RMSE (valuesReason), or null. */
  values: string | null;
  /** Observed days below the event level: POD and FAR need MIN_EVENTS of them too. */
  nonEvents: number;
}

/** A table's point scores of levels, unrounded (NaN where withheld), for its verdicts. */
interface Unrounded {
  heidke: number;
  gerrity: number;
}

/** One forecast's table and scores over a sample, with the intervals of its scores of levels (resampled, or none). */
function scoreTable(
  forecast: Levels,
  observed: Levels,
  c: TableContext,
  resampled?: Float64Array[],
): { table: SkillTable; point: Unrounded } {
  const counts = countsOf(forecast.levels, observed.levels);
  const table = RISK_LABELS.map((_, f) => RISK_LABELS.map((_, o) => counts[K * f + o]!));
  const high = eventCounts(counts);
  const base = { table, high };
  const withheld = { heidke: Number.NaN, gerrity: Number.NaN };
  if (c.few !== null)
    return {
      table: {
        ...base,
        heidke: null,
        heidke_interval: null,
        gerrity: null,
        gerrity_interval: null,
        pod: null,
        far: null,
        spearman: null,
        rmse_log: null,
        score_reasons: {},
      },
      point: withheld,
    };
  const ofLevels = (score: number): Score => (c.levels === null ? value(score) : none(c.levels));
  const ofValues = (score: () => Score): Score => (c.values === null ? score() : none(c.values));
  const point = new Float64Array(2);
  levelScores(counts, 0, EVERY_CELL, point);
  const scores: Record<'heidke' | 'gerrity' | 'pod' | 'far' | 'spearman' | 'rmse_log', Score> = {
    heidke: ofLevels(point[0]!),
    gerrity: ofLevels(point[1]!),
    ...podFar(high, c.nonEvents),
    spearman: ofValues(() => spearman(forecast.values, observed.values)),
    rmse_log: ofValues(() => rmseLog(forecast.values, observed.values)),
  };
  const score_reasons: Record<string, string> = {};
  for (const [name, score] of Object.entries(scores)) if (score.reason !== null) score_reasons[name] = score.reason;
  const heidkeInterval = intervalOf(resampled?.[0], c.levels);
  const gerrityInterval = intervalOf(resampled?.[1], c.levels);
  if (c.levels === null) {
    if (heidkeInterval.reason) score_reasons.heidke_interval = heidkeInterval.reason;
    if (gerrityInterval.reason) score_reasons.gerrity_interval = gerrityInterval.reason;
  }
  const at = (s: Score) => (s.value === null ? null : tidy(s.value));
  return {
    table: {
      ...base,
      heidke: at(scores.heidke),
      heidke_interval: heidkeInterval.interval,
      gerrity: at(scores.gerrity),
      gerrity_interval: gerrityInterval.interval,
      pod: at(scores.pod),
      far: at(scores.far),
      spearman: at(scores.spearman),
      rmse_log: at(scores.rmse_log),
      score_reasons,
    },
    point: c.levels === null ? { heidke: point[0]!, gerrity: point[1]! } : withheld,
  };
}

/** The references a sample holds: each one's index among its tables. */
export interface SampleReferences {
  persistence?: number;
  climatology?: number;
}

/** The references as people say them. */
export const REFERENCE_WORDS = { persistence: "yesterday's level", climatology: 'the usual for the season' } as const;

/** What a verdict says, in words. */
export const verdictWords = (verdict: Verdict['verdict'], reference: Verdict['reference']): string =>
  verdict === null ? `not compared with ${REFERENCE_WORDS[reference]}` : `${verdict} than ${REFERENCE_WORDS[reference]}`;

/** Why Heidke's and Gerrity's differences disagree on the sign: what each counts. */
function disagreement(heidke: number, gerrity: number, reference: Verdict['reference']): string | null {
  if (!(heidke * gerrity < 0) || tidy(heidke) === 0 || tidy(gerrity) === 0) return null;
  const [ahead, behind] = heidke > 0 ? ["Heidke's", "Gerrity's"] : ["Gerrity's", "Heidke's"];
  return `${ahead} score puts the forecast ahead of ${REFERENCE_WORDS[reference]} and ${behind} behind: Heidke's counts every day forecast in the right level alike, Gerrity's rewards a rarer level forecast right more and costs a miss by how many levels it was off, so they part where the forecast and the reference differ on the rarer levels or the size of their misses. The verdict is Gerrity's.`;
}

/**
 * A forecast's verdict against a reference on the same days: the difference of their Gerrity
 * scores, and its interval from the differences over the same resampled days (a paired bootstrap:
 * the days a resample draws are the same for both, so what they share cancels).
 */
function verdictOf(
  reference: Verdict['reference'],
  forecast: { point: Unrounded; resampled: Float64Array[] | undefined },
  against: { point: Unrounded; resampled: Float64Array[] | undefined },
  why: string | null,
): Verdict {
  const gerrity = forecast.point.gerrity - against.point.gerrity;
  const heidke = forecast.point.heidke - against.point.heidke;
  const base = { reference, difference: null, difference_interval: null, heidke_difference: null, note: null };
  if (Number.isNaN(gerrity) || !forecast.resampled || !against.resampled)
    return { ...base, verdict: null, words: verdictWords(null, reference), reason: why ?? 'no Gerrity score to compare' };
  const [f, r] = [forecast.resampled[1]!, against.resampled[1]!];
  const differences = new Float64Array(f.length);
  for (let i = 0; i < f.length; i++) differences[i] = f[i]! - r[i]!;
  const interval = percentileInterval(differences);
  const scored = { ...base, difference: tidy(gerrity), heidke_difference: tidy(heidke), note: disagreement(heidke, gerrity, reference) };
  if ('reason' in interval) return { ...scored, verdict: null, words: verdictWords(null, reference), reason: interval.reason };
  const [low, high] = [tidy(interval.low), tidy(interval.high)];
  const verdict = low > 0 ? 'better' : high < 0 ? 'worse' : 'no better';
  return { ...scored, difference_interval: [low, high], verdict, words: verdictWords(verdict, reference), reason: null };
}

/**
 * The tables of forecasts scored on the same days (a homogeneous sample: a forecast and its
 * references), each with Heidke's and Gerrity's scores and their intervals from one moving-block
 * bootstrap of the days (the same resampled days for every table, drawn from `key`'s seed); no
 * score from fewer than MIN_PAIRS days, none of levels from too few observed levels (levelsReason).
 * Each table that is not one of `references` gets a verdict against each of them.
 */
export function scoreSample(
  observed: Levels,
  forecasts: readonly Levels[],
  key: string,
  references: SampleReferences = {},
): { days: number; reason: string | null; tables: SkillTable[] } {
  const n = observed.levels.length;
  const few = n < MIN_PAIRS ? `${n} paired day${n === 1 ? '' : 's'}, fewer than the ${MIN_PAIRS} a score needs` : null;
  let nonEvents = 0;
  for (const o of observed.levels) if (o < EVENT) nonEvents++;
  const c: TableContext = {
    few,
    levels: few === null ? levelsReason(observed.levels) : null,
    values: valuesReason(observed.levels),
    nonEvents,
  };
  let resampled: Array<Float64Array[] | undefined> | undefined;
  if (c.few === null && c.levels === null) {
    const cells = forecasts.map((f) => {
      const table = new Uint8Array(n);
      for (let i = 0; i < n; i++) table[i] = K * f.levels[i]! + observed.levels[i]!;
      return table;
    });
    resampled = cells.map((table) => RESAMPLED.find(key, table));
    const left = cells.flatMap((_, t) => (resampled![t] === undefined ? [t] : []));
    if (left.length > 0) {
      // A resample's table holds days only in the cells its sample's does: each table counts those
      // cells alone (its support, in cell order), day i in its cell's place there.
      const supports: Uint8Array[] = [];
      const slots = left.map((t) => {
        const support = Uint8Array.from(new Set(cells[t]!)).sort();
        const slotOf = new Uint8Array(K * K);
        for (let k = 0; k < support.length; k++) slotOf[support[k]!] = k;
        supports.push(support);
        return cells[t]!.map((cell) => slotOf[cell]!);
      });
      const made = resampledTables(
        slots,
        supports.map((support) => support.length),
        resamplesOf(n, key),
        2,
        (counts, at, t, out) => levelScores(counts, at, supports[t]!, out),
      );
      for (const [i, t] of left.entries()) {
        resampled[t] = made[i]!;
        RESAMPLED.keep(key, cells[t]!, made[i]!);
      }
    }
  }
  const scored = forecasts.map((f, t) => scoreTable(f, observed, c, resampled?.[t]));
  const refs = (['persistence', 'climatology'] as const).flatMap((name) => {
    const t = references[name];
    return t === undefined ? [] : [{ name, t }];
  });
  const isReference = new Set(refs.map((r) => r.t));
  const why = c.few ?? c.levels;
  const tables = scored.map((s, t) =>
    isReference.has(t) || refs.length === 0
      ? s.table
      : {
          ...s.table,
          verdicts: refs.map((r) =>
            verdictOf(
              r.name,
              { point: s.point, resampled: resampled?.[t] },
              { point: scored[r.t]!.point, resampled: resampled?.[r.t] },
              why,
            ),
          ),
        },
  );
  return { days: n, reason: few, tables };
}

/**
 * A table's resampled scores lately made, by the period's key and the table's cells: a reference
 * scored at the next lead on the same days (climatology, which does not change with the lead) has
 * the same cells and the same resamples, so the same scores.
 */
class RecentTables {
  private readonly kept: Array<{ key: string; cells: Uint8Array; scores: Float64Array[] }> = [];

  constructor(private readonly size: number) {}

  find(key: string, cells: Uint8Array): Float64Array[] | undefined {
    for (const k of this.kept) if (k.key === key && sameBytes(k.cells, cells)) return k.scores;
    return undefined;
  }

  keep(key: string, cells: Uint8Array, scores: Float64Array[]): void {
    if (this.kept.length === this.size) this.kept.shift();
    this.kept.push({ key, cells, scores });
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Three tables a lead, and leads 0 to 2. */
const RESAMPLED = new RecentTables(9);

/** One forecast's scores over pairs (a sample of one table, unresampled): its table and scores, for one-off scoring and tests. */
export function skill(pairs: readonly Pair[], key = ''): SkillTable & { days: number; reason: string | null } {
  const columns = (side: 'forecast' | 'observed'): Levels => ({
    values: Float64Array.from(pairs, (p) => p[side].value),
    levels: Uint8Array.from(pairs, (p) => LEVEL_INDEX[p[side].level]),
  });
  const { days, reason, tables } = scoreSample(columns('observed'), [columns('forecast')], key);
  return { days, reason, ...tables[0]! };
}
