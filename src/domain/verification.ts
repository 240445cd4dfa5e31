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
 * Everything here reads pairs only: a pair is one target day's forecast and what was observed,
 * each a daily mean and its NAB level as the daily rows grade it. How the pieces go together, for
 * one city, cut and category:
 *   observed = seasonSeries(dailyRows, category)            the observed days (seasons.ts)
 *   targets  = forecasts.flatMap((f) => targetDays(f, zone, cut))   (verification-days.ts)
 *   skill(pairsAtLead(targets, category, observed, lead))   the forecast at a lead
 *   skill(persistencePairs(observed, days, lead)), skill(climatologyPairs(observed, days))
 *                                                            the references over the same days
 *   outlook(observed, category, today), outlookSkill(outlookPairs(observed, category, pastDays))
 */
import { LEVEL_INDEX, RISK_LABELS, type Risk } from './risk.js';
import type { SkillTable } from './schemas.js';

export type { SkillTable } from './schemas.js';

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
 * No score from fewer pairs. A score from n pairs is an estimate: the share of days forecast right
 * (and POD, FAR, which are shares too) has a binomial standard error of sqrt(p(1 - p) / n), at
 * most 0.09 at n = 30, so a 95% interval about ±0.18 wide, already the distance between a useless
 * and a good forecast, and wider below (JWGFVR, "Confidence intervals for verification scores",
 * https://www.cawcr.gov.au/projects/verification/BootstrapCIs.html: binomial intervals for scores
 * that are proportions). Consecutive days are not independent, so the real uncertainty is larger;
 * for a rare event a few hundred pairs are needed (Bradley, Schwartz & Hashino 2008, "Sampling
 * uncertainty and confidence intervals for the Brier score and Brier skill score",
 * https://kyushu-u.elsevierpure.com/en/publications/sampling-uncertainty-and-confidence-intervals-for-the-brier-score).
 * Thirty is a floor, not a guarantee: every table says its `pairs`.
 */
export const MIN_PAIRS = 30;

/** The event POD and FAR are about: a day at High or above. */
export const EVENT_LEVEL: Risk = 'High';

const K = RISK_LABELS.length;
const index = (level: Risk): number => LEVEL_INDEX[level];

type Score = { value: number; reason: null } | { value: null; reason: string };
const value = (v: number): Score => ({ value: v, reason: null });
const none = (reason: string): Score => ({ value: null, reason });

/** The K x K contingency table: table[f][o] counts the days forecast at level f and observed at level o. */
export function contingencyTable(pairs: Iterable<Pair>): number[][] {
  const table = RISK_LABELS.map(() => RISK_LABELS.map(() => 0));
  for (const p of pairs) table[index(p.forecast.level)]![index(p.observed.level)]!++;
  return table;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const observedCounts = (table: number[][]): number[] => RISK_LABELS.map((_, o) => sum(table.map((row) => row[o]!)));

/** Why a table whose observations all fall in one level gives no skill score, or null. */
function singleLevel(table: number[][]): string | null {
  const observed = observedCounts(table);
  const levels = observed.filter((n) => n > 0).length;
  if (levels > 1) return null;
  const only = RISK_LABELS[observed.findIndex((n) => n > 0)];
  return `every observed day was ${only}: with one observed level, skill cannot be told from chance`;
}

/**
 * Heidke skill score over the K levels (JWGFVR, "Methods for multi-category forecasts"):
 *   HSS = [ (1/N) Σ_i n(F_i, O_i) - (1/N²) Σ_i N(F_i) N(O_i) ] / [ 1 - (1/N²) Σ_i N(F_i) N(O_i) ]
 * where n(F_i, O_j) counts the days forecast in level i and observed in level j, N(F_i) and N(O_i)
 * are the forecast and observed totals of level i and N all days: the share of days forecast in the
 * right level, beyond the share a forecast independent of the observations would get by chance.
 */
export function heidke(table: number[][]): Score {
  const single = singleLevel(table);
  if (single) return none(single);
  const n = sum(table.map(sum));
  const observed = observedCounts(table);
  const correct = sum(table.map((row, i) => row[i]!)) / n;
  const chance = sum(table.map((row, i) => sum(row) * observed[i]!)) / (n * n);
  return value((correct - chance) / (1 - chance));
}

/**
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
 */
export function gerrity(table: number[][]): Score {
  const single = singleLevel(table);
  if (single) return none(single);
  const observed = observedCounts(table);
  const n = sum(observed);
  const lo = observed.findIndex((c) => c > 0);
  const hi = observed.findLastIndex((c) => c > 0);
  const span = hi - lo + 1;
  // a_r for r = 1 .. K'-1 of the span (index 0 .. span-2).
  const a: number[] = [];
  let cumulative = 0;
  for (let r = lo; r < hi; r++) {
    cumulative += observed[r]! / n;
    a.push((1 - cumulative) / cumulative);
  }
  /** s for two span positions i <= j (0-based). */
  const s = (i: number, j: number): number => {
    let total = i === j ? 0 : -(j - i);
    for (let r = 0; r < i; r++) total += 1 / a[r]!;
    for (let r = j; r < span - 1; r++) total += a[r]!;
    return total / (span - 1);
  };
  let score = 0;
  for (let f = 0; f < K; f++) {
    const inSpan = Math.min(Math.max(f, lo), hi);
    const beyond = Math.abs(f - inSpan) / (span - 1);
    for (let o = lo; o <= hi; o++) {
      const count = table[f]![o]!;
      if (count === 0) continue;
      score += count * (s(Math.min(inSpan, o) - lo, Math.max(inSpan, o) - lo) - beyond);
    }
  }
  return value(score / n);
}

/** Hits, misses and false alarms of the event "High or above". */
export function eventCounts(table: number[][]): SkillTable['high'] {
  const event = index(EVENT_LEVEL);
  const counts = { hits: 0, misses: 0, false_alarms: 0 };
  for (let f = 0; f < K; f++) {
    for (let o = 0; o < K; o++) {
      const count = table[f]![o]!;
      if (f >= event && o >= event) counts.hits += count;
      else if (o >= event) counts.misses += count;
      else if (f >= event) counts.false_alarms += count;
    }
  }
  return counts;
}

/**
 * Probability of detection and false alarm ratio of the event (JWGFVR, "Methods for dichotomous
 * forecasts"; https://www.cawcr.gov.au/bmrc/SatRainVal/catstats/categorical_scores.html):
 *   POD = hits / (hits + misses)          the share of observed events that were forecast
 *   FAR = false alarms / (hits + false alarms)   the share of forecast events that did not happen
 */
export function podFar(high: SkillTable['high']): { pod: Score; far: Score } {
  const { hits, misses, false_alarms } = high;
  return {
    pod: hits + misses === 0 ? none(`no day observed at ${EVENT_LEVEL} or above`) : value(hits / (hits + misses)),
    far: hits + false_alarms === 0 ? none(`no day forecast at ${EVENT_LEVEL} or above`) : value(false_alarms / (hits + false_alarms)),
  };
}

/**
 * Ranks 1..n of finite values, a tie sharing the mean of the ranks it spans (SciPy's rankdata,
 * method 'average'); `sorted` is the values sorted, where the caller has them.
 */
export function midRanks(values: ArrayLike<number>, sorted: Float64Array = new Float64Array(values).sort()): Float64Array {
  // A value's ties span from the first sorted value not below it to the last not above it, found by
  // binary search in the values sorted as numbers: no object per value, no comparator called
  // (2.4 times as fast as sorting [value, index] pairs, on a year of daily means).
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
  // Sorted once, for the ranks and to tell whether all are the same (the first is the last).
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
export function rmseLog(forecast: readonly number[], observed: readonly number[]): Score {
  if (forecast.length === 0) return none('no pairs');
  let squares = 0;
  for (let i = 0; i < forecast.length; i++) squares += (Math.log10(1 + forecast[i]!) - Math.log10(1 + observed[i]!)) ** 2;
  return value(Math.sqrt(squares / forecast.length));
}

/** Every score of a set of pairs, with the table they come from; no score from fewer than MIN_PAIRS. */
export function skill(pairs: readonly Pair[]): SkillTable {
  const table = contingencyTable(pairs);
  const high = eventCounts(table);
  const base = { pairs: pairs.length, table, high };
  if (pairs.length < MIN_PAIRS) {
    const reason = `${pairs.length} paired days, fewer than the ${MIN_PAIRS} a score needs`;
    return { ...base, heidke: null, gerrity: null, pod: null, far: null, spearman: null, rmse_log: null, reason, score_reasons: {} };
  }
  const forecast = pairs.map((p) => p.forecast.value);
  const observed = pairs.map((p) => p.observed.value);
  const scores: Record<'heidke' | 'gerrity' | 'pod' | 'far' | 'spearman' | 'rmse_log', Score> = {
    heidke: heidke(table),
    gerrity: gerrity(table),
    ...podFar(high),
    spearman: spearman(forecast, observed),
    rmse_log: rmseLog(forecast, observed),
  };
  const score_reasons: Record<string, string> = {};
  for (const [name, score] of Object.entries(scores)) if (score.reason !== null) score_reasons[name] = score.reason;
  return {
    ...base,
    heidke: scores.heidke.value,
    gerrity: scores.gerrity.value,
    pod: scores.pod.value,
    far: scores.far.value,
    spearman: scores.spearman.value,
    rmse_log: scores.rmse_log.value,
    reason: null,
    score_reasons,
  };
}
