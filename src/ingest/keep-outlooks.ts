/**
 * The build's part in keeping outlooks as issued (docs/data.md, "The outlook", "Forecast skill"),
 * after the forecasts are kept: for each city, the outlook issued the day after its latest data
 * day, with its references (domain/verification/kept-outlooks.ts), kept once and never made again; what each
 * lead serves is chosen on the outlook's skill over the trailing window as the kept outlooks and
 * the observed days give it then.
 *
 * A provider that can issue its past again (the sample) has the outlooks of the served days
 * before that made again too, each from the days before its issue day only, so that a new
 * deployment has scores at once: they were never served, and say so. Only those that read its own
 * days: in a store of another provider, the days a run replaced. A real provider's store
 * keeps outlooks from its first build that issues one. Outlooks issued before the served days (less
 * the week an outlook reaches) are forgotten, as forecasts are.
 */

import type { City } from '../domain/cities.js';
import { firstServedDay } from '../domain/dates.js';
import type { DayValues } from '../domain/day-values.js';
import type { Graded } from '../domain/species/risk.js';
import { GRADED } from '../domain/species/risk.js';
import { WINDOW_DAYS, windowOutlookSkills } from '../domain/verification/forecast-skill.js';
import {
  CityIssuer,
  chooseServed,
  type KeptCategory,
  type KeptClimatology,
  type KeptOutlook,
  unserved,
} from '../domain/verification/kept-outlooks.js';
import { OUTLOOK_LEADS } from '../domain/verification/outlook.js';
import type { KeptInputs } from '../domain/verification/pairs.js';
import type { Store } from '../store/store.js';

export interface OutlookOptions {
  store: Store;
  cities: readonly City[];
  /** Days the served store holds (SERVE_DAYS). */
  serveDays: number;
  /**
   * The provider that can issue its past again (the sample), if the run's can: the served days'
   * outlooks that read its days are made again, under its name; none that read another's.
   */
  madeAgainBy: string | null;
}

export interface OutlookSummary {
  /** Outlooks a build issued (one per city, the day after its latest data day), and outlooks made again. */
  issued: number;
  madeAgain: number;
  /** Outlooks forgotten: issued before the served days. */
  dropped: number;
  /** Seconds the step took. */
  seconds: number;
}

/** The outlook's own skill compares no provider's forecast. */
const NO_FORECASTS: KeptInputs['forecasts'] = [];

/** Keeps each city's outlook of the day after its latest data day, and the served days' made again where the provider can. */
export function keepOutlooks(o: OutlookOptions): OutlookSummary {
  const started = performance.now();
  const summary: OutlookSummary = { issued: 0, madeAgain: 0, dropped: 0, seconds: 0 };
  for (const city of o.cities) {
    const days = [...o.store.values.span(city.slug, 'UTC', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).values()];
    const latest = days.at(-1)?.day;
    if (latest === undefined) continue;
    const first = firstServedDay(latest, o.serveDays);
    const made = issueCity(
      o.store,
      city.slug,
      days,
      o.madeAgainBy === null ? latest + 1 : Math.max(first - OUTLOOK_LEADS + 1, days[0]!.day + 1),
      latest,
      o.madeAgainBy,
    );
    summary.issued += made.issued;
    summary.madeAgain += made.madeAgain;
  }
  const newest = o.store.pollen.latestDay();
  if (newest !== null) {
    const first = firstServedDay(newest, o.serveDays);
    summary.dropped = o.store.outlooks.dropBefore(first - OUTLOOK_LEADS + 1, first);
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/**
 * Issues a city's outlooks of the days from `from` to `latest + 1` that it has none of: those to
 * `latest` made again where they read the days of `madeAgainBy` (a store some of whose days it
 * replaced has those it replaced made again, not the other provider's), the last a build's,
 * served as its window's skill chooses. One transaction.
 */
function issueCity(
  store: Store,
  city: string,
  days: readonly DayValues[],
  from: number,
  latest: number,
  madeAgainBy: string | null,
): { issued: number; madeAgain: number } {
  const issueDay = latest + 1;
  const kept = store.outlooks.keptDays(city, Math.min(from, issueDay));
  // The provider of the last day before each issue day (the days ascend, and so do the issue days).
  let before = 0;
  const source = (day: number): string => {
    while (before + 1 < days.length && days[before + 1]!.day < day) before++;
    return days[before]!.source;
  };
  // Each outlook to issue, with the provider it reads: the build's, and those made again of `madeAgainBy`'s days.
  const missing: Array<{ day: number; source: string }> = [];
  for (let day = from; day <= issueDay; day++) {
    if (kept.outlooks.has(day)) continue;
    const read = source(day);
    if (day === issueDay || read === madeAgainBy) missing.push({ day, source: read });
  }
  if (missing.length === 0) return { issued: 0, madeAgain: 0 };
  const issuer = new CityIssuer(days);
  const outlooks: KeptOutlook[] = [];
  const climatologies: KeptClimatology[] = [];
  const frozen = new Set(kept.climatologies);
  const freeze = (issue: number) => {
    for (let target = issue; target < issue + OUTLOOK_LEADS; target++) {
      if (frozen.has(target)) continue;
      climatologies.push(issuer.climatology(target));
      frozen.add(target);
    }
  };
  for (const { day, source: read } of missing) {
    if (day === issueDay) continue;
    freeze(day);
    const undecided = issuer.issue(day);
    const categories: KeptOutlook['categories'] = {};
    for (const c of GRADED) if (undecided[c]) categories[c] = unserved(undecided[c]);
    outlooks.push({ issueDay: day, source: read, origin: 'made again', categories });
  }
  const build = missing.at(-1);
  if (build?.day === issueDay) {
    freeze(issueDay);
    // The window's skill from the outlooks kept and those just made, as the render will score it.
    const window = store.outlooks.outlooks(city, latest - WINDOW_DAYS - OUTLOOK_LEADS, latest);
    for (const o of outlooks) window.set(o.issueDay, o);
    const climatologyDays = store.outlooks.climatologies(city, latest - WINDOW_DAYS, latest);
    for (const c of climatologies) climatologyDays.set(c.day, c);
    const sources = new Map(days.map((d) => [d.day, d.source]));
    const inputs = {
      observed: (c: Graded) => issuer.observed(c),
      source: (day: number) => sources.get(day),
      outlooks: window,
      climatologies: climatologyDays,
      forecasts: NO_FORECASTS,
    };
    const undecided = issuer.issue(issueDay);
    const categories: Partial<Record<Graded, KeptCategory>> = {};
    for (const c of GRADED) if (undecided[c]) categories[c] = chooseServed(undecided[c], windowOutlookSkills(inputs, city, c, latest));
    outlooks.push({ issueDay, source: build.source, origin: 'build', categories });
  }
  const made = store.outlooks.keep(city, outlooks, climatologies);
  const built = outlooks.at(-1)?.origin === 'build' && made > 0 ? 1 : 0;
  return { issued: built, madeAgain: made - built };
}

/** What a build kept of outlooks, in a line. */
export const formatOutlooks = (s: OutlookSummary): string =>
  `kept ${s.issued + s.madeAgain} outlooks (${s.issued} issued, ${s.madeAgain} made again) in ${s.seconds.toFixed(1)} s; forgot ${s.dropped} issued before the served days`;
