/**
 * A city's forecast skill (docs/data.md, "Forecast skill", "The outlook"): the forecasts and
 * outlooks kept for it, each as issued, scored against its observed days by lead day, beside
 * persistence and climatology as their issue days kept them, over the trailing window (all its
 * days, and those whose issue day was in season) and each season year; and the outlook served
 * now, as it was issued. Also the paired days as columns (verification-pairs.ts), so that anyone
 * can compute every score again from the forecast-pairs bulk files.
 *
 * Every score of a period is made on one set of days: the forecast and the references it is
 * compared with are scored on the same days (a homogeneous sample), and their intervals on the
 * same resampled days, each drawn from a seed of the table's key (bootstrap.ts), so that a
 * period's scores are the same whichever render or thread makes them.
 */

import { DAY_MS, dayString, isoTime } from '../dates.js';
import { provenanceOfSources } from '../provenance.js';
import type { OutlookSkill } from '../schemas.js';
import type { Graded } from '../species/risk.js';
import { GRADED } from '../species/risk.js';
import { BLOCK_DAYS, COVERAGE, RESAMPLES } from './bootstrap.js';
import { WINDOW_DAYS as CLIMATOLOGY_DAYS } from './climatology.js';
import type { KeptCategory, KeptOutlook } from './kept-outlooks.js';
import { outlookOver, scoresOver, skillKey, tally } from './lead-scores.js';
import { PROVIDER_LEADS } from './leads.js';
import { ANOMALY_DAYS, basisOf, OUTLOOK_LEADS, probabilitiesOf } from './outlook.js';
import { type KeptInputs, type PairColumns, type ProviderForecasts, pairColumns } from './pairs.js';
import { BEYOND_DOUBT, boundText, scoreText } from './score-text.js';
import { MIN_PAIRS } from './scores.js';
import type { CategorySkill, ForecastSkill, ServedOutlook, SkillLead, SkillYear } from './skill-schemas.js';
import { type KeptDay, latestAtLead } from './target-days.js';

export { PROVIDER_LEADS } from './leads.js';

/** Days of the trailing window. */
export const WINDOW_DAYS = 90;

/** How a kept forecast came: the build's own call, the forecast function's fetch, or a provider's past forecast made again. */
export type KeptOrigin = 'build' | 'function' | 'made again';

/** A forecast as the store keeps it: when it was issued, by which provider, how it came, and the UTC days it covered enough. */
export interface KeptForecast {
  issuedAt: number;
  source: string;
  origin: KeptOrigin;
  days: readonly KeptDay[];
}

export interface SkillInputs extends Omit<KeptInputs, 'forecasts'> {
  city: string;
  /** The store's provider: the answer's where no day is served. */
  provider: string | null;
  /** The providers of the served days, the earliest day's first (none: `provider` alone). */
  sources?: readonly string[];
  /** The first day to pair (a render that keeps closed years' scores pairs the days after them), and the latest (the window's last day); null without data. */
  first: number | null;
  latest: number | null;
  /** The forecasts kept for the city. */
  forecasts: readonly KeptForecast[];
  /** Season years scored before (each lead's scores, by yearKey), taken as they are: their days are not paired again. */
  scored?: ReadonlyMap<string, readonly SkillYear[]>;
  /** The forecasts and outlooks kept of the served days, counted (when the inputs hold fewer: those `first` reaches). */
  archive?: ForecastSkill['archive'];
}

/** A season year's key: its category and year. */
export const yearKey = (category: Graded, year: number): string => `${category} ${year}`;

/** The period id of the trailing window ending on `latest`. */
export const windowPeriod = (latest: number): string => `window ${dayString(latest)}`;

/** The rows of `c` whose days are in [from, to], optionally only those whose issue day at `lead` was in season. */
function rowsIn(c: PairColumns, from: number, to: number, inSeasonAt?: number): number[] {
  const rows: number[] = [];
  const inSeason = inSeasonAt === undefined ? undefined : c.inSeason[inSeasonAt]!;
  for (let i = 0; i < c.n; i++) {
    const day = c.day[i]!;
    if (day < from || day > to || (inSeason && inSeason[i] !== 1)) continue;
    rows.push(i);
  }
  return rows;
}

/** The outlook's skill over the trailing window ending on `latest`, at every lead: what chooses what an outlook issued the day after serves. */
export function windowOutlookSkills(inputs: KeptInputs, city: string, category: Graded, latest: number): OutlookSkill[] {
  const from = latest - WINDOW_DAYS + 1;
  const c = pairColumns(inputs, category, from, latest);
  const rows = rowsIn(c, from, latest);
  return Array.from({ length: OUTLOOK_LEADS }, (_, lead) => outlookOver(c, lead, rows, skillKey(city, windowPeriod(latest))).outlook);
}

/** Why a lead served what it did, in a sentence a person reads beside the probabilities. */
function servedBecause(served: 'outlook' | 'climatology', kept: KeptCategory, lead: number): string {
  const decision = kept.decisions[lead];
  if (!decision)
    return 'Served the usual for the season (climatology): this outlook was made again for a day before the store kept outlooks, and never chosen.';
  const interval = decision.rpss_interval;
  const measured =
    decision.rpss === null
      ? `it could not be scored at this lead: ${decision.reason}`
      : `ranked probability skill ${scoreText(decision.rpss)}${interval ? `, 95% interval ${boundText(interval[0]!)} to ${boundText(interval[1]!)}` : ''}, over ${decision.days} days`;
  const margin = interval && interval[0]! >= BEYOND_DOUBT ? 'beyond doubt' : 'by a margin its interval puts only just above 0';
  return served === 'outlook'
    ? `Served the outlook: over the last ${WINDOW_DAYS} days it beat the usual for the season at this lead ${margin} (${measured}).`
    : `Served the usual for the season (climatology): over the last ${WINDOW_DAYS} days the outlook has not been shown better than the usual for this time of year at this lead (${measured}).`;
}

/** The outlook issued the day after `latest`, as kept: each day's served probabilities, the outlook's and climatology's, and why. */
function servedOutlook(inputs: Pick<KeptInputs, 'outlooks' | 'climatologies'>, category: Graded, latest: number): ServedOutlook | null {
  const issueDay = latest + 1;
  const kept = inputs.outlooks.get(issueDay)?.categories[category];
  if (!kept) return null;
  const o = kept.outlook;
  return {
    issued: dayString(issueDay),
    basis: basisOf(o),
    window_days: CLIMATOLOGY_DAYS,
    earlier_years: o.earlierYears,
    shift_days: o.shiftDays,
    anomaly_log10: o.anomaly,
    anomaly_days: ANOMALY_DAYS,
    days: o.leads.map((counts, lead) => {
      const served = kept.served[lead] ?? 'climatology';
      const frozen = inputs.climatologies.get(issueDay + lead)?.categories[category];
      const climatology = frozen ? probabilitiesOf(frozen) : null;
      const outlook = probabilitiesOf(counts);
      const decision = kept.decisions[lead];
      return {
        date: dayString(issueDay + lead),
        lead,
        probabilities: served === 'outlook' ? outlook : climatology,
        served,
        why: servedBecause(served, kept, lead),
        outlook,
        climatology,
        members: counts.members,
        anomaly_weight: o.weights[lead]!,
        rpss: decision?.rpss ?? null,
        rpss_interval: decision?.rpss_interval ?? null,
      };
    }),
  };
}

/** A category's skill, its pair columns, and each season year's scores (by year, each lead's). */
function categorySkill(
  inputs: KeptInputs,
  city: string,
  category: Graded,
  first: number,
  latest: number,
  scored: ReadonlyMap<string, readonly SkillYear[]> | undefined,
  mixed: boolean,
): { skill: CategorySkill; pairs: PairColumns; years: Map<number, SkillYear[]> } {
  const c = pairColumns(inputs, category, first, latest);
  const window = { from: latest - WINDOW_DAYS + 1, to: latest };
  const spans: Array<{ year: number; from: number; to: number }> = [];
  for (let i = 0; i < c.n; i++) {
    const year = c.seasonYear[i]!;
    const last = spans.at(-1);
    if (last?.year === year) last.to = c.day[i]!;
    else spans.push({ year, from: c.day[i]!, to: c.day[i]! });
  }
  const years = new Map<number, SkillYear[]>();
  for (const [key, leads] of scored ?? []) {
    const [name, year] = key.split(' ');
    if (name === category && leads.length >= OUTLOOK_LEADS) years.set(Number(year), [...leads]);
  }
  for (const y of spans) {
    if (years.has(y.year)) continue;
    const rows = rowsIn(c, y.from, y.to);
    years.set(
      y.year,
      Array.from({ length: c.leads }, (_, lead) => ({
        year: y.year,
        ...scoresOver(c, lead, rows, { ...y, id: `year ${y.year}` }, city, mixed),
      })),
    );
  }
  const held = [...years.keys()].sort((a, b) => a - b);
  const inWindow = rowsIn(c, window.from, window.to);
  const leads: SkillLead[] = Array.from({ length: c.leads }, (_, lead) => ({
    lead,
    window: scoresOver(c, lead, inWindow, { ...window, id: windowPeriod(latest) }, city, mixed),
    window_in_season: scoresOver(
      c,
      lead,
      rowsIn(c, window.from, window.to, lead),
      { ...window, id: `window in season ${dayString(latest)}` },
      city,
      mixed,
    ),
    // A year scored before with fewer leads has none at the further ones.
    years: held.flatMap((y) => years.get(y)![lead] ?? []),
  }));
  return { skill: { category, leads, outlook: servedOutlook(inputs, category, latest) }, pairs: c, years };
}

/** Counts of the forecasts and outlooks kept: how many, on how many days, when, and how they came. */
function archiveOf(forecasts: readonly KeptForecast[], outlooks: Iterable<KeptOutlook>, mixed: boolean): ForecastSkill['archive'] {
  const issued = forecasts.map((f) => f.issuedAt);
  const count = (origin: KeptOrigin) => forecasts.filter((f) => f.origin === origin).length;
  const kept = [...outlooks];
  return {
    forecasts: forecasts.length,
    issue_days: new Set(issued.map((t) => Math.floor(t / DAY_MS))).size,
    first_issued: issued.length === 0 ? null : isoTime(Math.min(...issued)),
    last_issued: issued.length === 0 ? null : isoTime(Math.max(...issued)),
    by: { build: count('build'), function: count('function'), made_again: count('made again') },
    outlooks: { issued: kept.filter((o) => o.origin === 'build').length, made_again: kept.filter((o) => o.origin === 'made again').length },
    ...(mixed ? { by_provider: forecastsByProvider(forecasts.map((f) => f.source)) } : {}),
  };
}

/** How many forecasts each provider issued, from each forecast's provider, in the order they first come. */
const forecastsByProvider = (sources: Iterable<string>): Array<{ provider: string; forecasts: number }> =>
  tally(sources).map(([provider, forecasts]) => ({ provider, forecasts }));

/**
 * Each provider's kept forecasts by lead, as far as its reach (to PROVIDER_LEADS), the last issued
 * on an issue day for each day it reaches; the providers in the order their first forecast was issued.
 */
export function providerForecasts(forecasts: readonly KeptForecast[]): ProviderForecasts[] {
  const bySource = new Map<string, { first: number; days: KeptDay[] }>();
  for (const f of forecasts) {
    const held = bySource.get(f.source) ?? { first: f.issuedAt, days: [] };
    held.first = Math.min(held.first, f.issuedAt);
    for (const d of f.days) if (d.lead < PROVIDER_LEADS) held.days.push(d);
    bySource.set(f.source, held);
  }
  return [...bySource]
    .sort(([a, x], [b, y]) => x.first - y.first || (a < b ? -1 : 1))
    .map(([provider, { days }]) => {
      const reach = days.reduce((m, d) => Math.max(m, d.lead + 1), 0);
      return {
        provider,
        leads: Array.from({ length: reach }, (_, lead) => new Map(latestAtLead(days, lead).map((t) => [t.day, t]))),
      };
    });
}

/**
 * A city's forecast skill, its pair columns by category (of the days from `first`), and each
 * category's season years' scores by yearKey (those scored before included).
 */
export function citySkill(inputs: SkillInputs): { skill: ForecastSkill; pairs: PairColumns[]; years: Map<string, SkillYear[]> } {
  const { first, latest } = inputs;
  const provenance = provenanceOfSources(inputs.sources ?? [], inputs.provider);
  const mixed = provenance.providers !== undefined;
  const base = {
    city: inputs.city,
    ...provenance,
    days: 'UTC' as const,
    min_pairs: MIN_PAIRS,
    bootstrap: { method: 'moving blocks' as const, block_days: BLOCK_DAYS, resamples: RESAMPLES, coverage: COVERAGE },
    archive: inputs.archive ?? archiveOf(inputs.forecasts, inputs.outlooks.values(), mixed),
  };
  if (latest === null || first === null)
    return {
      skill: { ...base, latest: null, window: { days: WINDOW_DAYS, from: null, to: null }, categories: [] },
      pairs: [],
      years: new Map(),
    };
  const kept: KeptInputs = { ...inputs, forecasts: providerForecasts(inputs.forecasts) };
  const made = GRADED.map((c) => categorySkill(kept, inputs.city, c, first, latest, inputs.scored, mixed));
  const years = new Map<string, SkillYear[]>();
  for (const [i, m] of made.entries()) for (const [year, leads] of m.years) years.set(yearKey(GRADED[i]!, year), leads);
  return {
    skill: {
      ...base,
      latest: dayString(latest),
      window: { days: WINDOW_DAYS, from: dayString(latest - WINDOW_DAYS + 1), to: dayString(latest) },
      categories: made.map((m) => m.skill),
    },
    pairs: made.map((m) => m.pairs),
    years,
  };
}
