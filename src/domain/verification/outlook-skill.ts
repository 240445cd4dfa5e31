/**
 * The outlook's skill against climatology (docs/data.md, "The outlook"): the ranked probability
 * score of its probabilities and climatology's on each observed day, and the skill score of their
 * means (RPSS) with its interval over the resampled days; the verdict it gives and why a score is
 * withheld.
 */
import type { LevelProbabilities, OutlookSkill } from '../schemas.js';
import { K, LEVEL_INDEX, RISK_LABELS, type Risk } from '../species/risk.js';
import { percentileInterval, resampledSkill, resamplesOf } from './bootstrap.js';
import type { LevelCounts } from './outlook.js';
import { MIN_PAIRS, tidy } from './scores.js';

/**
 * Ranked probability score of one probabilistic forecast of ordered levels (JWGFVR, "Methods for
 * probabilistic forecasts", https://www.cawcr.gov.au/projects/verification/verif_web_page.html#RPS;
 * as cran/verification R/rps.r computes it):
 *   RPS = 1/(K-1) Σ_{m=1}^{K} [ Σ_{k<=m} p_k - Σ_{k<=m} o_k ]²
 * with p_k the forecast probability of level k and o_k 1 for the observed level, else 0: 0 for
 * all probability on the observed level, 1 for all of it on the far end of the scale.
 */
export function rankedProbabilityScore(p: LevelProbabilities, observed: Risk): number {
  return rps(
    RISK_LABELS.map((level) => p[level]),
    LEVEL_INDEX[observed],
  );
}

/** The same, of probabilities in RISK_LABELS order and the observed level's index. */
function rps(p: readonly number[], o: number): number {
  let forecastCdf = 0;
  let total = 0;
  for (let k = 0; k < K; k++) {
    forecastCdf += p[k]!;
    total += (forecastCdf - (k >= o ? 1 : 0)) ** 2;
  }
  return total / (K - 1);
}

/** The ranked probability score of level counts (their probabilities) against the observed level's index; NaN without members. */
export function rpsOfCounts(c: LevelCounts, observed: number): number {
  if (c.members === 0) return Number.NaN;
  let [cumulative, total] = [0, 0];
  for (let k = 0; k < K; k++) {
    cumulative += c.counts[k]!;
    total += (cumulative / c.members - (k >= observed ? 1 : 0)) ** 2;
  }
  return total / (K - 1);
}

/** Why a day count gives no score. */
export const fewDays = (n: number): string => `${n} paired day${n === 1 ? '' : 's'}, fewer than the ${MIN_PAIRS} a score needs`;

/** Why an outlook's skill has no score or no interval, from what it is (null when it has both). */
export function decisionReason(days: number, rpss: number | null, interval: readonly [number, number] | null): string | null {
  if (days < MIN_PAIRS) return fewDays(days);
  if (rpss === null) return 'climatology was perfect on every day: there is no skill to add to it';
  if (interval === null) return 'climatology was perfect on too many resampled days for an interval';
  return null;
}

/** Why the outlook and climatology have no skill score on these days although there are enough: every observed day None, or the outlook climatology itself. */
function sameAsClimatology(rps: ArrayLike<number>, climatology: ArrayLike<number>, observed: ArrayLike<number> | undefined): string | null {
  if (observed && observed.length > 0 && Array.prototype.every.call(observed, (o: number) => o === 0))
    return 'every observed day was None: the probabilities of quiet days say nothing of the outlook in a season';
  for (let i = 0; i < rps.length; i++) if (rps[i] !== climatology[i]) return null;
  return 'the outlook was the usual for the season on every day (it carried no anomaly to this lead): there is nothing to compare';
}

/** better, worse or no better than climatology, from RPSS's interval (a paired comparison: both scored on each resample's days). */
export const outlookVerdict = (interval: readonly [number, number] | null): OutlookSkill['verdict'] =>
  interval === null ? null : interval[0] > 0 ? 'better' : interval[1] < 0 ? 'worse' : 'no better';

/**
 * Mean ranked probability scores of probabilities and of climatology over the same days (`rps`,
 * `climatology`, in date order), and the skill score RPSS = 1 - RPS / RPS_climatology (JWGFVR, as
 * above) with its 95% interval from a moving-block bootstrap of the days (bootstrap.ts, drawn from
 * `key`'s seed). It beats climatology when the score and the lower end of its interval (as
 * answers give them, to 6 decimals) are above 0. No score from fewer than MIN_PAIRS days, none on
 * days all observed None (`observed`, level indexes, where given) or where the outlook was
 * climatology on every day: the reason instead.
 */
export function outlookSkill(
  rps: ArrayLike<number>,
  climatology: ArrayLike<number>,
  key: string,
  observed?: ArrayLike<number>,
): OutlookSkill {
  const n = rps.length;
  const base = { days: n, rps: null, rps_climatology: null, rpss: null, rpss_interval: null, beats_climatology: null, verdict: null };
  if (n < MIN_PAIRS) return { ...base, reason: decisionReason(n, null, null) };
  let [sum, sumClimatology] = [0, 0];
  for (let i = 0; i < n; i++) {
    sum += rps[i]!;
    sumClimatology += climatology[i]!;
  }
  const [mean, meanClimatology] = [sum / n, sumClimatology / n];
  const same = sameAsClimatology(rps, climatology, observed);
  if (same !== null) return { ...base, rps: tidy(mean), rps_climatology: tidy(meanClimatology), reason: same };
  if (sumClimatology === 0) return { ...base, rps: tidy(mean), rps_climatology: 0, reason: decisionReason(n, null, null) };
  const rpss = tidy(1 - sum / sumClimatology);
  const interval = percentileInterval(resampledSkill(rps, climatology, resamplesOf(n, key)));
  const rpssInterval: [number, number] | null = 'reason' in interval ? null : [tidy(interval.low), tidy(interval.high)];
  return {
    days: n,
    rps: tidy(mean),
    rps_climatology: tidy(meanClimatology),
    rpss,
    rpss_interval: rpssInterval,
    beats_climatology: rpss > 0 && rpssInterval !== null && rpssInterval[0] > 0,
    verdict: outlookVerdict(rpssInterval),
    reason: decisionReason(n, rpss, rpssInterval),
  };
}
