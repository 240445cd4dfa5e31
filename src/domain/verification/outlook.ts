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
 *   ŵ_L   = Σ A(s) z(s + L) / Σ A(s)², the least-squares weight of the anomaly at lead L, fitted on
 *           this year's last WEIGHT_DAYS issue days whose target was already observed
 *   w     = the weights closest to ŵ (weighted by Σ A(s)²) that never rise with the lead, in [0, 1]
 *           (antitonic.ts): an anomaly's hold on the days ahead can only fade, and a lead fitted
 *           on its own read noise as skill (Houston's weed went 0.27, 0.33, 0.09, 0.22, 0, 0.29,
 *           0.16, 0.16); 0 from the first lead with fewer than MIN_PAIRS issue days to fit
 *   member: 1 + v  ->  (1 + v) · 10^(w_L · A(issue day))
 * A member's level moves by as many NAB levels as its scaled daily mean crosses; a day without
 * pollen stays without: an anomaly scales a season, it does not start one (the shift moves it).
 * Why an anomaly persists: daily pollen counts are autocorrelated for weeks, half or more of their
 * variation coming from long-lasting factors, 30-40% from the air mass, which changes with each
 * front (Nowosad et al. 2015, "Temporal and spatiotemporal autocorrelation of daily concentrations
 * of Alnus, Betula, and Corylus pollen in Poland", doi:10.1007/s10453-014-9354-2).
 *
 * An outlook is issued once and kept (ingest/keep-outlooks.ts): as level counts of its members at
 * each lead, beside climatology's for the same days (the same members, unmoved and unscaled), so
 * that it is scored later as it was issued. Its own skill is the ranked probability score against
 * climatology's (outlookSkill): where it has not beaten climatology (its RPSS interval above 0), climatology is
 * what is served.
 */

import { dayString } from '../dates.js';
import type { LevelProbabilities, Outlook, OutlookDay } from '../schemas.js';
import { type SeasonSeries, seriesSpan } from '../seasons/year.js';
import { type Graded, K, levelIndex, type Risk } from '../species/risk.js';
import { nonIncreasing } from './antitonic.js';
import { WINDOW_DAYS as CLIMATOLOGY_DAYS, Climatology, type ClimatologyOptions, type Sample } from './climatology.js';
import { medianDay } from './references.js';
import { MIN_PAIRS } from './scores.js';

export type { Outlook, OutlookSkill } from '../schemas.js';

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

const log1p10 = (v: number): number => Math.log10(1 + v);

/** How many of a day's members fall in each level (RISK_LABELS order): its probabilities are counts / members. */
export interface LevelCounts {
  members: number;
  counts: readonly number[];
}

/** The members' levels, moved by the anomaly `a` (log10), counted: one count per level, in RISK_LABELS order. */
function levelCounts(category: Graded, members: Sample, a: number): number[] {
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
  return counts;
}

/** Probabilities by level name, from counts; null without members. */
export const probabilitiesOf = (c: LevelCounts): LevelProbabilities | null =>
  c.members === 0
    ? null
    : {
        None: c.counts[0]! / c.members,
        Low: c.counts[1]! / c.members,
        Moderate: c.counts[2]! / c.members,
        High: c.counts[3]! / c.members,
        'Very High': c.counts[4]! / c.members,
      };

/**
 * z(d) and A(s) of one climatology, by day, each made once: outlooks issued on many days read the
 * same days' anomalies (about 67 of them each), and both depend only on the day and the
 * climatology, not on the issue day that reads them.
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
    // To the day after the last, an outlook's issue day; other days are computed unkept.
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
    // Read once into arrays (NaN: none), as plain loops: the fit reads each A and z at every lead.
    const { x, y } = this;
    for (let k = 0; k < WEIGHT_DAYS; k++) {
      x[k] = this.before(first + k) ?? Number.NaN;
      y[k] = this.at(first + k) ?? Number.NaN;
    }
    // Each lead's least-squares weight and its Σ A², up to the first lead with too few pairs to fit.
    const fitted: number[] = [];
    const squares: number[] = [];
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
      if (n < MIN_PAIRS || sxx === 0) break;
      fitted.push(sxy / sxx);
      squares.push(sxx);
    }
    // Σ_k (z - w A)² is Σ A² (w - ŵ)² and a constant at each lead, so the weights that fit every
    // lead at once and never rise with it are ŵ's antitonic regression weighted by Σ A².
    const w = nonIncreasing(fitted, squares, 0, 1);
    while (w.length < OUTLOOK_LEADS) w.push(0);
    return w;
  }
}

/**
 * An outlook as issued: the anomaly, each lead's weight, the earlier years and the shifts it read,
 * and each lead's level counts. The anomaly and the weights are kept to three decimals (they are
 * reported, not used again); the counts are what was computed with them unrounded.
 */
export interface IssuedOutlook {
  issued: number;
  earlierYears: number[];
  shiftDays: Record<string, number>;
  anomaly: number | null;
  weights: number[];
  leads: LevelCounts[];
}

/** Three decimals, no signed zero. */
const thousandths = (v: number): number => Math.round(v * 1000) / 1000 + 0;

/**
 * The outlooks of one category of a series: each issue day's reads only the series' days before
 * it. Made for many issue days at once (a store's past outlooks made again), it keeps each season
 * timing's climatology and anomalies for the next.
 */
export class Outlooks {
  private readonly anomalies = new Map<Climatology, Anomalies>();

  constructor(
    private readonly series: SeasonSeries,
    private readonly category: Graded,
  ) {}

  /** The outlook issued on `issueDay` with this season timing (ClimatologyOptions' shiftDays); `anomaly: false` gives climatology, shifted or not. */
  issue(issueDay: number, options: OutlookOptions = {}): IssuedOutlook {
    const climatology = Climatology.of(this.series, options);
    let anomalies: Anomalies | null = null;
    if (options.anomaly !== false) {
      anomalies = this.anomalies.get(climatology) ?? null;
      if (!anomalies) this.anomalies.set(climatology, (anomalies = new Anomalies(this.series, climatology)));
    }
    const anomaly = anomalies?.before(issueDay);
    const w = anomaly === undefined ? new Array<number>(OUTLOOK_LEADS).fill(0) : anomalies!.weights(issueDay);
    const years = new Set<number>();
    const leads = w.map((weight, lead) => {
      const sample = climatology.sample(issueDay + lead);
      for (let i = 0; i < sample.length; i++) years.add(sample.year(i));
      return { members: sample.length, counts: levelCounts(this.category, sample, weight * (anomaly ?? 0)) };
    });
    const earlierYears = [...years].sort((a, b) => a - b);
    return {
      issued: issueDay,
      earlierYears,
      shiftDays: Object.fromEntries(earlierYears.map((y) => [String(y), climatology.shiftOf(y)])),
      anomaly: anomaly === undefined ? null : thousandths(anomaly),
      weights: w.map(thousandths),
      leads,
    };
  }

  /** Climatology's level counts on `day` (the earlier years within a week of its date, unmoved), and its median day. */
  climatology(day: number): LevelCounts & { median: { value: number; level: Risk } | undefined } {
    const sample = Climatology.of(this.series).sample(day);
    return { members: sample.length, counts: levelCounts(this.category, sample, 0), median: medianDay(sample) };
  }
}

/** What an issued outlook's basis is called: whether it moved any year, and whether it scaled by the anomaly. */
export function basisOf(o: Pick<IssuedOutlook, 'shiftDays' | 'weights'>): Outlook['basis'] {
  const shifted = Object.values(o.shiftDays).some((d) => d !== 0);
  const scaled = o.weights.some((x) => x > 0);
  return `${shifted ? 'shifted climatology' : 'climatology'}${scaled ? ' with anomaly' : ''}` as Outlook['basis'];
}

/** An issued outlook as answers give it: each day's probabilities (the counts over the members), the basis and what it read. */
export function outlookAnswer(category: Graded, o: IssuedOutlook, windowDays = CLIMATOLOGY_DAYS): Outlook {
  const days: OutlookDay[] = o.leads.map((c, lead) => {
    const base = { date: dayString(o.issued + lead), lead, members: c.members, anomaly_weight: o.weights[lead]! };
    const probabilities = probabilitiesOf(c);
    return probabilities
      ? { ...base, probabilities, reason: null }
      : { ...base, probabilities: null, reason: 'no earlier year holds a day around this date' };
  });
  return {
    category,
    issued: dayString(o.issued),
    basis: basisOf(o),
    window_days: windowDays,
    earlier_years: o.earlierYears,
    shift_days: o.shiftDays,
    anomaly_log10: o.anomaly,
    anomaly_days: ANOMALY_DAYS,
    days,
  };
}

/** The outlook of one category issued on `issueDay`, reading only the series' days before it, as answers give it. */
export const outlook = (series: SeasonSeries, category: Graded, issueDay: number, options: OutlookOptions = {}): Outlook =>
  outlookAnswer(category, new Outlooks(series, category).issue(issueDay, options), options.windowDays);
