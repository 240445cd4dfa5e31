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
import { Climatology, type ClimatologyOptions, type Sample } from './climatology.js';
import { dayString } from './dates.js';
import { type Graded, LEVEL_INDEX, levelIndex, RISK_LABELS, type Risk } from './risk.js';
import type { LevelProbabilities, Outlook, OutlookDay, OutlookSkill } from './schemas.js';
import { type SeasonSeries, seriesSpan } from './seasons.js';
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
function probabilities(category: Graded, members: Sample, a: number): number[] {
  const counts = new Array<number>(K).fill(0);
  const factor = 10 ** a;
  for (let i = 0; i < members.length; i++) {
    let level = members.level(i);
    const value = members.value(i);
    if (a !== 0 && value > 0) {
      const scaled = Math.max(0, (1 + value) * factor - 1);
      const moved = levelIndex(category, scaled) - levelIndex(category, value);
      level = Math.min(K - 1, Math.max(0, level + moved));
    }
    counts[level]!++;
  }
  for (let k = 0; k < K; k++) counts[k]! /= members.length;
  return counts;
}

/** Probabilities by level name. */
const byLevel = (p: readonly number[]): LevelProbabilities => ({
  None: p[0]!,
  Low: p[1]!,
  Moderate: p[2]!,
  High: p[3]!,
  'Very High': p[4]!,
});

/** The outlook of one category issued on `issueDay`, reading only the series' days before it. */
export function outlook(series: SeasonSeries, category: Graded, issueDay: number, options: OutlookOptions = {}): Outlook {
  const climatology = Climatology.of(series, options);
  return issue(category, issueDay, climatology, options.anomaly === false ? null : new Anomalies(series, climatology));
}

/**
 * z(d) and A(s) of one climatology, by day, each made once: an outlook scored over a year reads
 * the same days' anomalies for each issue day it scores (about 67 of them each), and both depend
 * only on the day and the climatology, not on the issue day that reads them.
 */
class Anomalies {
  /** Index 0 is day `base`; NaN where a value is undefined, `made` says which are computed. */
  private readonly base: number;
  private readonly z: Float64Array;
  private readonly a: Float64Array;
  private readonly made: Uint8Array;
  /** The A and z a weight is fitted on, filled again for each issue day. */
  private readonly x = new Float64Array(WEIGHT_DAYS);
  private readonly y = new Float64Array(WEIGHT_DAYS);

  constructor(
    private readonly series: SeasonSeries,
    private readonly climatology: Climatology,
  ) {
    const span = seriesSpan(series);
    // To the day after the last, the served outlook's issue day; other days are computed unkept.
    const length = span ? span.last - span.first + 2 : 0;
    this.base = span?.first ?? 0;
    this.z = new Float64Array(length);
    this.a = new Float64Array(length);
    this.made = new Uint8Array(length);
  }

  /** z(d): log10(1 + v_d) less the mean over d's sample; undefined without a value or a climatology. */
  at(day: number): number | undefined {
    const i = day - this.base;
    if (!(i >= 0 && i < this.made.length)) return undefined; // no value outside the series
    if (!(this.made[i]! & 1)) {
      const v = this.series.get(day);
      const m = v && this.climatology.logMean(day);
      this.z[i] = v && m !== undefined ? log1p10(v.value) - m : Number.NaN;
      this.made[i]! |= 1;
    }
    const z = this.z[i]!;
    return Number.isNaN(z) ? undefined : z;
  }

  /** A(s): the mean of the z of the ANOMALY_DAYS days before s, if MIN_ANOMALY_DAYS of them have one. */
  before(s: number): number | undefined {
    const i = s - this.base;
    const memo = i >= 0 && i < this.made.length;
    if (!memo || !(this.made[i]! & 2)) {
      let [sum, n] = [0, 0];
      for (let d = s - ANOMALY_DAYS; d < s; d++) {
        const x = this.at(d);
        if (x === undefined) continue;
        sum += x;
        n++;
      }
      const a = n < MIN_ANOMALY_DAYS ? Number.NaN : sum / n;
      if (!memo) return Number.isNaN(a) ? undefined : a;
      this.a[i] = a;
      this.made[i]! |= 2;
    }
    const a = this.a[i]!;
    return Number.isNaN(a) ? undefined : a;
  }

  /** w_L for each lead, fitted on the issue days of the last WEIGHT_DAYS before `issueDay` whose target was observed. */
  weights(issueDay: number): number[] {
    const first = issueDay - WEIGHT_DAYS;
    // Read once into arrays (NaN: none), as plain loops: the fit reads each A and z at every lead,
    // for every issue day of every category and city a render scores.
    const { x, y } = this;
    for (let k = 0; k < WEIGHT_DAYS; k++) {
      x[k] = this.before(first + k) ?? Number.NaN;
      y[k] = this.at(first + k) ?? Number.NaN;
    }
    const w: number[] = [];
    for (let lead = 0; lead < OUTLOOK_LEADS; lead++) {
      let sxy = 0;
      let sxx = 0;
      let n = 0;
      for (let k = 0; k + lead < WEIGHT_DAYS; k++) {
        const xk = x[k]!;
        const yk = y[k + lead]!;
        if (Number.isNaN(xk) || Number.isNaN(yk)) continue;
        sxy += xk * yk;
        sxx += xk * xk;
        n++;
      }
      w.push(n < MIN_PAIRS || sxx === 0 ? 0 : Math.min(1, Math.max(0, sxy / sxx)));
    }
    return w;
  }
}

/** What an issue computes, before it is dressed as an Outlook: the anomaly, each lead's weight, members and probabilities. */
interface Issued {
  anomaly: number | undefined;
  weights: number[];
  members: Sample[];
  /** Per lead, one probability per level (RISK_LABELS order); null without members. */
  probabilities: Array<number[] | null>;
}

function compute(category: Graded, issueDay: number, climatology: Climatology, anomalies: Anomalies | null): Issued {
  const anomaly = anomalies?.before(issueDay);
  const w = anomaly === undefined ? new Array<number>(OUTLOOK_LEADS).fill(0) : anomalies!.weights(issueDay);
  const members = w.map((_, lead) => climatology.sample(issueDay + lead));
  return {
    anomaly,
    weights: w,
    members,
    probabilities: members.map((m, lead) => (m.length === 0 ? null : probabilities(category, m, w[lead]! * (anomaly ?? 0)))),
  };
}

function issue(category: Graded, issueDay: number, climatology: Climatology, anomalies: Anomalies | null): Outlook {
  const { anomaly, weights: w, members, probabilities: p } = compute(category, issueDay, climatology, anomalies);
  const years = new Set<number>();
  const days: OutlookDay[] = w.map((weight, lead) => {
    const sample = members[lead]!;
    for (let i = 0; i < sample.length; i++) years.add(sample.year(i));
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
  return rps(
    RISK_LABELS.map((level) => p[level]),
    observed,
  );
}

/** The same, of probabilities in RISK_LABELS order. */
function rps(p: readonly number[], observed: Risk): number {
  const o = LEVEL_INDEX[observed];
  let forecastCdf = 0;
  let total = 0;
  for (let k = 0; k < K; k++) {
    forecastCdf += p[k]!;
    total += (forecastCdf - (k >= o ? 1 : 0)) ** 2;
  }
  return total / (K - 1);
}

/** An outlook day beside what was observed: the ranked probability score of the outlook, and of climatology, on it. */
export interface OutlookPair {
  day: number;
  lead: number;
  observed: Risk;
  rps: number;
  rps_climatology: number;
}

/**
 * Climatology's score on each target day, its members neither moved nor scaled: what every
 * outlook is scored against. It depends on the target day alone, so each is made once however
 * many issue days and season timings reach it.
 */
export class ClimatologyReference {
  private readonly climatology: Climatology;
  /** Climatology's score on each observed day with members, null on the others. */
  private readonly scores = new Map<number, number | null>();

  constructor(
    private readonly series: SeasonSeries,
    private readonly category: Graded,
    windowDays?: number,
  ) {
    this.climatology = Climatology.of(series, { windowDays });
  }

  /** Whether some earlier year holds a day around the date of `day`. */
  has(day: number): boolean {
    return this.climatology.sample(day).length > 0;
  }

  /** Climatology's ranked probability score on `day`: null unobserved or without members. */
  score(day: number): number | null {
    let score = this.scores.get(day);
    if (score === undefined) {
      const members = this.climatology.sample(day);
      const observed = this.series.get(day)?.risk;
      score = members.length === 0 || !observed ? null : rps(probabilities(this.category, members, 0), observed);
      this.scores.set(day, score);
    }
    return score;
  }
}

/**
 * The outlooks that would have been issued on each of `issueDays`, scored with climatology's
 * against the observed days: to score the outlook on past days (each outlook reads only days
 * before its issue day). `reference` may be shared by calls on the same series and category.
 */
export function outlookPairs(
  series: SeasonSeries,
  category: Graded,
  issueDays: Iterable<number>,
  options: OutlookOptions = {},
  reference = new ClimatologyReference(series, category, options.windowDays),
): OutlookPair[] {
  const climatology = Climatology.of(series, options);
  const anomalies = options.anomaly === false ? null : new Anomalies(series, climatology);
  const pairs: OutlookPair[] = [];
  for (const issueDay of issueDays) {
    const issued = compute(category, issueDay, climatology, anomalies).probabilities;
    for (let lead = 0; lead < issued.length; lead++) {
      const [day, p] = [issueDay + lead, issued[lead]];
      const observed = series.get(day)?.risk;
      const climate = p && observed ? reference.score(day) : null;
      if (observed && p && climate !== null) pairs.push({ day, lead, observed, rps: rps(p, observed), rps_climatology: climate });
    }
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
  const rps = mean((p) => p.rps);
  const rpsClimatology = mean((p) => p.rps_climatology);
  if (rpsClimatology === 0)
    return { ...base, rps, rps_climatology: 0, reason: 'climatology was perfect on every day: there is no skill to add to it' };
  const rpss = 1 - rps / rpsClimatology;
  return { pairs: pairs.length, rps, rps_climatology: rpsClimatology, rpss, beats_climatology: rpss > 0, reason: null };
}
