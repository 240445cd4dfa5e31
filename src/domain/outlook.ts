/**
 * The outlook: for one category and each day from the issue day to 7 days ahead, the probability
 * of each NAB level, from what the store holds (docs/data.md, "The outlook").
 *
 * Its members are the earlier years' days around the same date (climatology.ts), each year's
 * window moved by this year's season timing against it (the seasons' start difference: a season
 * 5 days later than that year's reads that year 5 days earlier). Their daily means are then scaled
 * by the current anomaly, damped with the lead: climatology and persistence combined, the pair of
 * naive forecasts whose optimal linear combination beats either alone (Murphy 1992, "Climatology,
 * persistence, and their linear combination as standards of reference in skill scores",
 * https://www.scilit.net/publications/0d0cf65c99535cd0b4e68133db69d6b1). In log10(1 + value):
 *   z(d)  = log10(1 + v_d) - m(d), m(d) the mean of log10(1 + v) over d's climatological sample
 *   A(s)  = mean of z over the ANOMALY_DAYS days before s (at least MIN_ANOMALY_DAYS of them)
 *   w_L   = Σ A(s) z(s + L) / Σ A(s)², the least-squares weight of the anomaly at lead L, fitted on
 *           this year's last WEIGHT_DAYS issue days whose target was already observed, kept in [0, 1],
 *           0 from fewer than MIN_PAIRS of them
 *   member: 1 + v  ->  (1 + v) · 10^(w_L · A(issue day))
 * A member's level moves by as many NAB levels as its scaled daily mean crosses; a day without
 * pollen stays without: an anomaly scales a season, it does not start one (the shift moves it).
 * Why an anomaly persists: daily pollen counts are autocorrelated for weeks, half or more of their
 * variation coming from long-lasting factors, 30-40% from the air mass, which changes with each
 * front (Nowosad et al. 2015, "Temporal and spatiotemporal autocorrelation of daily concentrations
 * of Alnus, Betula, and Corylus pollen in Poland", doi:10.1007/s10453-014-9354-2).
 *
 * Its own skill is the ranked probability score against climatology's (outlookSkill): where it
 * does not beat climatology, climatology (the same members, unmoved and unscaled) is what to serve.
 */
import { type ClimateDay, Climatology, type ClimatologyOptions } from './climatology.js';
import { dayString } from './dates.js';
import { grade, type Graded, RISK_LABELS, type Risk } from './risk.js';
import type { LevelProbabilities, Outlook, OutlookDay, OutlookSkill } from './schemas.js';
import type { SeasonSeries } from './seasons.js';
import { MIN_PAIRS } from './verification.js';

export type { Outlook, OutlookSkill } from './schemas.js';

/** Lead days of an outlook: the issue day and the 7 after it. */
export const OUTLOOK_LEADS = 8;
/** Recent days the current anomaly is the mean of, and how many of them it needs. */
export const ANOMALY_DAYS = 7;
export const MIN_ANOMALY_DAYS = 4;
/** Past issue days the anomaly's weight is fitted on. */
export const WEIGHT_DAYS = 60;

export interface OutlookOptions extends ClimatologyOptions {
  /** Scale the members by the current anomaly (default true); false gives climatology, shifted or not. */
  anomaly?: boolean;
}

const K = RISK_LABELS.length;
const log1p10 = (v: number): number => Math.log10(1 + v);

/** The members' levels, moved by the anomaly `a` (log10), counted as probabilities: one per level, in RISK_LABELS order. */
function probabilities(category: Graded, members: ReadonlyArray<{ value: number; risk: Risk | null }>, a: number): number[] {
  const counts = RISK_LABELS.map(() => 0);
  let n = 0;
  for (const m of members) {
    if (m.risk === null) continue;
    let level = RISK_LABELS.indexOf(m.risk);
    if (a !== 0 && m.value > 0) {
      const scaled = Math.max(0, (1 + m.value) * 10 ** a - 1);
      const moved = RISK_LABELS.indexOf(grade(category, scaled)!) - RISK_LABELS.indexOf(grade(category, m.value)!);
      level = Math.min(K - 1, Math.max(0, level + moved));
    }
    counts[level]!++;
    n++;
  }
  return counts.map((c) => c / n);
}

/** Probabilities by level name (written out: outlookPairs makes two for each of thousands of pairs). */
const byLevel = (p: readonly number[]): LevelProbabilities => ({
  None: p[0]!,
  Low: p[1]!,
  Moderate: p[2]!,
  High: p[3]!,
  'Very High': p[4]!,
});

/** The outlook of one category issued on `issueDay`, reading only the series' days before it. */
export function outlook(series: SeasonSeries, category: Graded, issueDay: number, options: OutlookOptions = {}): Outlook {
  return issue(series, category, issueDay, new Climatology(series, options), options.anomaly !== false);
}

/** z(d) of the days from `from` to the day before `issueDay`, by offset from `from` (undefined without a value or a climatology). */
function anomalies(series: SeasonSeries, climatology: Climatology, from: number, issueDay: number): Array<number | undefined> {
  return Array.from({ length: issueDay - from }, (_, i) => {
    const v = series.get(from + i);
    const m = v && climatology.logMean(from + i);
    return v && m !== undefined ? log1p10(v.value) - m : undefined;
  });
}

/** A(s): the mean of the z of the ANOMALY_DAYS days before s, if MIN_ANOMALY_DAYS of them have one. */
function anomalyBefore(z: ReadonlyArray<number | undefined>, s: number): number | undefined {
  let [sum, n] = [0, 0];
  for (let i = Math.max(0, s - ANOMALY_DAYS); i < s; i++) {
    const x = z[i];
    if (x === undefined) continue;
    sum += x;
    n++;
  }
  return n < MIN_ANOMALY_DAYS ? undefined : sum / n;
}

/** w_L for each lead, fitted on the issue days of the last WEIGHT_DAYS whose target was observed. */
function weights(z: ReadonlyArray<number | undefined>): number[] {
  const issue = z.length; // z[issue] would be the issue day itself
  const a = Array.from({ length: WEIGHT_DAYS }, (_, k) => anomalyBefore(z, issue - WEIGHT_DAYS + k));
  return Array.from({ length: OUTLOOK_LEADS }, (_, lead) => {
    let [sxy, sxx, n] = [0, 0, 0];
    for (let k = 0; k + lead < WEIGHT_DAYS; k++) {
      const [x, y] = [a[k], z[issue - WEIGHT_DAYS + k + lead]];
      if (x === undefined || y === undefined) continue;
      sxy += x * y;
      sxx += x * x;
      n++;
    }
    return n < MIN_PAIRS || sxx === 0 ? 0 : Math.min(1, Math.max(0, sxy / sxx));
  });
}

/** What an issue computes, before it is dressed as an Outlook: the anomaly, each lead's weight, members and probabilities. */
interface Issued {
  anomaly: number | undefined;
  weights: number[];
  members: Array<readonly ClimateDay[]>;
  /** Per lead, one probability per level (RISK_LABELS order); null without members. */
  probabilities: Array<number[] | null>;
}

function compute(series: SeasonSeries, category: Graded, issueDay: number, climatology: Climatology, withAnomaly: boolean): Issued {
  const z = withAnomaly ? anomalies(series, climatology, issueDay - WEIGHT_DAYS - ANOMALY_DAYS, issueDay) : [];
  const anomaly = withAnomaly ? anomalyBefore(z, z.length) : undefined;
  const w = anomaly === undefined ? new Array<number>(OUTLOOK_LEADS).fill(0) : weights(z);
  const members = w.map((_, lead) => climatology.sample(issueDay + lead));
  return {
    anomaly,
    weights: w,
    members,
    probabilities: members.map((m, lead) => (m.length === 0 ? null : probabilities(category, m, w[lead]! * (anomaly ?? 0)))),
  };
}

function issue(series: SeasonSeries, category: Graded, issueDay: number, climatology: Climatology, withAnomaly: boolean): Outlook {
  const { anomaly, weights: w, members, probabilities: p } = compute(series, category, issueDay, climatology, withAnomaly);
  const years = new Set<number>();
  const days: OutlookDay[] = w.map((weight, lead) => {
    for (const d of members[lead]!) years.add(d.year);
    const base = { date: dayString(issueDay + lead), lead, members: members[lead]!.length, anomaly_weight: weight };
    const probs = p[lead];
    return probs
      ? { ...base, probabilities: byLevel(probs), reason: null }
      : { ...base, probabilities: null, reason: 'no earlier year holds a day around this date' };
  });
  const earlier = [...years].sort((a, b) => a - b);
  const shift = Object.fromEntries(earlier.map((y) => [String(y), climatology.shiftOf(y)]));
  const shifted = Object.values(shift).some((d) => d !== 0);
  const scaled = w.some((x) => x > 0);
  return {
    category,
    issued: dayString(issueDay),
    basis: `${shifted ? 'shifted climatology' : 'climatology'}${scaled ? ' with anomaly' : ''}` as Outlook['basis'],
    window_days: climatology.windowDays,
    earlier_years: earlier,
    shift_days: shift,
    anomaly_log10: anomaly ?? null,
    anomaly_days: ANOMALY_DAYS,
    days,
  };
}

/**
 * Ranked probability score of one probabilistic forecast of ordered levels (JWGFVR, "Methods for
 * probabilistic forecasts", https://www.cawcr.gov.au/projects/verification/verif_web_page.html#RPS;
 * as cran/verification R/rps.r computes it):
 *   RPS = 1/(K-1) Σ_{m=1}^{K} [ Σ_{k<=m} p_k - Σ_{k<=m} o_k ]²
 * with p_k the forecast probability of level k and o_k 1 for the observed level, else 0: 0 for
 * all probability on the observed level, 1 for all of it on the far end of the scale.
 */
export function rankedProbabilityScore(p: LevelProbabilities, observed: Risk): number {
  const o = RISK_LABELS.indexOf(observed);
  let [forecastCdf, total] = [0, 0];
  RISK_LABELS.forEach((level, k) => {
    forecastCdf += p[level];
    total += (forecastCdf - (k >= o ? 1 : 0)) ** 2;
  });
  return total / (K - 1);
}

/** An outlook day and climatology's for the same day, beside what was observed. */
export interface OutlookPair {
  day: number;
  lead: number;
  outlook: LevelProbabilities;
  climatology: LevelProbabilities;
  observed: Risk;
}

/**
 * The outlooks that would have been issued on each of `issueDays`, and climatology's, paired with
 * the observed days: to score the outlook on past days (each outlook reads only days before its issue day).
 */
export function outlookPairs(
  series: SeasonSeries,
  category: Graded,
  issueDays: Iterable<number>,
  options: OutlookOptions = {},
): OutlookPair[] {
  const climatology = new Climatology(series, options);
  const reference = new Climatology(series, { windowDays: options.windowDays });
  const pairs: OutlookPair[] = [];
  for (const issueDay of issueDays) {
    const issued = compute(series, category, issueDay, climatology, options.anomaly !== false).probabilities;
    const climate = compute(series, category, issueDay, reference, false).probabilities;
    issued.forEach((p, lead) => {
      const observed = series.get(issueDay + lead)?.risk;
      const c = climate[lead];
      if (observed && p && c) pairs.push({ day: issueDay + lead, lead, outlook: byLevel(p), climatology: byLevel(c), observed });
    });
  }
  return pairs;
}

/**
 * Mean ranked probability scores of the outlook and of climatology over the same pairs, and the
 * skill score RPSS = 1 - RPS / RPS_climatology (JWGFVR, as above): above 0, the outlook beats
 * climatology. No score from fewer than MIN_PAIRS pairs (verification.ts says why).
 */
export function outlookSkill(pairs: readonly OutlookPair[]): OutlookSkill {
  const base = { pairs: pairs.length, rps: null, rps_climatology: null, rpss: null, beats_climatology: null };
  if (pairs.length < MIN_PAIRS) return { ...base, reason: `${pairs.length} paired days, fewer than the ${MIN_PAIRS} a score needs` };
  const mean = (f: (p: OutlookPair) => number) => pairs.reduce((s, p) => s + f(p), 0) / pairs.length;
  const rps = mean((p) => rankedProbabilityScore(p.outlook, p.observed));
  const rpsClimatology = mean((p) => rankedProbabilityScore(p.climatology, p.observed));
  if (rpsClimatology === 0)
    return { ...base, rps, rps_climatology: 0, reason: 'climatology was perfect on every day: there is no skill to add to it' };
  const rpss = 1 - rps / rpsClimatology;
  return { pairs: pairs.length, rps, rps_climatology: rpsClimatology, rpss, beats_climatology: rpss > 0, reason: null };
}
