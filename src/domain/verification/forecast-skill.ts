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
import { BLOCK_DAYS, COVERAGE, RESAMPLES } from './bootstrap.js';
import { scoreText } from './score-text.js';
import { DAY_MS, dayString, isoTime } from '../dates.js';
import { provenanceOfSources } from '../provenance.js';
import type { KeptCategory, KeptOutlook } from './kept-outlooks.js';
import { basisOf, OUTLOOK_LEADS, outlookSkill, probabilitiesOf, ANOMALY_DAYS } from './outlook.js';
import { WINDOW_DAYS as CLIMATOLOGY_DAYS } from './climatology.js';
import type { Graded } from '../species/risk.js';
import type { OutlookSkill } from '../schemas.js';
import type { CategorySkill, ForecastSkill, ServedOutlook, SkillLead, SkillScores, SkillYear } from './skill-schemas.js';
import { type Levels, MIN_PAIRS, scoreSample } from './scores.js';
import { GRADED, type KeptDay, latestAtLead } from './target-days.js';
import { FORECAST_LEADS, type KeptInputs, type PairColumns, pairColumns, SERVED_CODE } from './pairs.js';

export { FORECAST_LEADS } from './pairs.js';

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

/**
 * The key a period's resampling is seeded with: its city and period (bootstrap.ts). Every table of
 * the period with as many days resamples the same blocks, whatever its category and lead: the
 * categories of a city are observed on the same days.
 */
export const skillKey = (city: string, period: string): string => `${city} ${period}`;

/** The period id of the trailing window ending on `latest`. */
export const windowPeriod = (latest: number): string => `window ${dayString(latest)}`;

const BEYOND = `the provider's forecast reaches lead ${FORECAST_LEADS - 1} (48 hours): beyond it, only the outlook is scored`;

/** The rows of `c` at `indexes` as a sample's columns. */
function levelsAt(values: Float64Array, levels: ArrayLike<number>, indexes: readonly number[]): Levels {
  // Loops, not TypedArray.from with a map function, which V8 runs several times slower.
  const out = { values: new Float64Array(indexes.length), levels: new Uint8Array(indexes.length) };
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k]!;
    out.values[k] = values[i]!;
    out.levels[k] = levels[i]!;
  }
  return out;
}

/** The outlook's skill at `lead` on the rows given (every one with its and climatology's score), and what was served's. */
function outlookOver(c: PairColumns, lead: number, rows: readonly number[], key: string) {
  const rps: number[] = [];
  const climatology: number[] = [];
  const servedRps: number[] = [];
  const servedClimatology: number[] = [];
  const outlookRps = c.outlookRps[lead]!;
  const served = c.served[lead]!;
  for (const i of rows) {
    const [o, k] = [outlookRps[i]!, c.climatologyRps[i]!];
    if (Number.isNaN(o) || Number.isNaN(k)) continue;
    rps.push(o);
    climatology.push(k);
    if (served[i]! < 0) continue;
    servedRps.push(served[i] === SERVED_CODE.outlook ? o : k);
    servedClimatology.push(k);
  }
  return {
    outlook: outlookSkill(rps, climatology, key),
    served: outlookSkill(servedRps, servedClimatology, key),
  };
}

/** Why a reference is left out: present on fewer than half of the forecast's days. */
function leftOut(name: 'persistence' | 'climatology', present: number, of: number): string {
  return name === 'persistence'
    ? `a complete day observed before the issue day was held on only ${present} of the ${of} days`
    : present === 0
      ? `no earlier year holds days around these dates (the store's first year): no climatology on any of the ${of} days`
      : `an earlier year holds days around the date on only ${present} of the ${of} days`;
}

/**
 * The scores at one lead over one period's rows: the forecast, and each reference present on at
 * least half of its days, on the days they share; the outlook and what was served on theirs.
 */
function scoresOver(
  c: PairColumns,
  lead: number,
  rows: readonly number[],
  period: { from: number; to: number; id: string },
  city: string,
  mixed: boolean,
): SkillScores {
  const key = skillKey(city, period.id);
  const base = { from: dayString(period.from), to: dayString(period.to), ...outlookOver(c, lead, rows, key) };
  if (lead >= FORECAST_LEADS)
    return {
      ...base,
      days: 0,
      reason: BEYOND,
      forecast: null,
      persistence: null,
      climatology: null,
      left_out: {},
      ...(mixed ? { by_provider: [] } : {}),
    };
  const forecastLevel = c.forecastLevel[lead]!;
  const persistenceLevel = c.persistenceLevel[lead]!;
  const paired = rows.filter((i) => forecastLevel[i]! >= 0);
  const withPersistence = paired.filter((i) => persistenceLevel[i]! >= 0).length;
  const withClimatology = paired.filter((i) => c.climatologyLevel[i]! >= 0).length;
  const persistence = withPersistence > 0 && 2 * withPersistence >= paired.length;
  const climatology = withClimatology > 0 && 2 * withClimatology >= paired.length;
  const left_out: SkillScores['left_out'] = {};
  if (!persistence && paired.length > 0) left_out.persistence = leftOut('persistence', withPersistence, paired.length);
  if (!climatology && paired.length > 0) left_out.climatology = leftOut('climatology', withClimatology, paired.length);
  const days = paired.filter((i) => (!persistence || persistenceLevel[i]! >= 0) && (!climatology || c.climatologyLevel[i]! >= 0));
  const forecasts = [levelsAt(c.forecastValue[lead]!, forecastLevel, days)];
  if (persistence) forecasts.push(levelsAt(c.persistenceValue[lead]!, persistenceLevel, days));
  if (climatology) forecasts.push(levelsAt(c.climatologyValue, c.climatologyLevel, days));
  const scored = scoreSample(levelsAt(c.observedValue, c.observedLevel, days), forecasts, key);
  return {
    ...base,
    days: scored.days,
    reason: scored.reason,
    forecast: scored.tables[0]!,
    persistence: persistence ? scored.tables[1]! : null,
    climatology: climatology ? scored.tables[persistence ? 2 : 1]! : null,
    left_out,
    ...(mixed ? { by_provider: byProvider(c, days) } : {}),
  };
}

/** How many times each provider comes in `sources`, in the order each first comes. */
function tally(sources: Iterable<string>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const s of sources) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts];
}

/** The days of `rows` by the provider of each (its observed day, and its forecast), in the order they first come. */
const byProvider = (c: PairColumns, rows: readonly number[]): Array<{ provider: string; days: number }> =>
  tally(rows.map((i) => c.provider[i]!)).map(([provider, days]) => ({ provider, days }));

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
      : `ranked probability skill ${scoreText(decision.rpss)}${interval ? `, 95% interval ${scoreText(interval[0]!)} to ${scoreText(interval[1]!)}` : ''}, over ${decision.days} days`;
  return served === 'outlook'
    ? `Served the outlook: over the last ${WINDOW_DAYS} days it beat the usual for the season at this lead beyond doubt (${measured}).`
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
    if (name === category && leads.length === OUTLOOK_LEADS) years.set(Number(year), [...leads]);
  }
  for (const y of spans) {
    if (years.has(y.year)) continue;
    const rows = rowsIn(c, y.from, y.to);
    years.set(
      y.year,
      Array.from({ length: OUTLOOK_LEADS }, (_, lead) => ({
        year: y.year,
        ...scoresOver(c, lead, rows, { ...y, id: `year ${y.year}` }, city, mixed),
      })),
    );
  }
  const held = [...years.keys()].sort((a, b) => a - b);
  const inWindow = rowsIn(c, window.from, window.to);
  const leads: SkillLead[] = Array.from({ length: OUTLOOK_LEADS }, (_, lead) => ({
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
    years: held.map((y) => years.get(y)![lead]!),
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
  // A forecast is compared with its own provider's days only: a day another provider replaced is none of its.
  const targets = inputs.forecasts.flatMap((f) =>
    f.days.filter((d) => {
      const observed = inputs.source(d.day);
      return observed === undefined || observed === f.source;
    }),
  );
  const kept: KeptInputs = {
    ...inputs,
    forecasts: Array.from({ length: FORECAST_LEADS }, (_, lead) => new Map(latestAtLead(targets, lead).map((t) => [t.day, t]))),
  };
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
