/**
 * One city's share of the forecast-skill step (score-cities.ts): its skill from the days the
 * render cache does not already hold the scores of, the outlooks it serves, its pairs rows of the
 * months written anew, and its closed years for the next render.
 */
import { deflateRawSync } from 'node:zlib';
import { DAY_MS, HOUR_MS, isoTime } from '../domain/dates.js';
import { type SeasonSeries, seasonYear, seasonYearOf } from '../domain/seasons/year.js';
import { GRADED, type Graded } from '../domain/species/risk.js';
import { resampling } from '../domain/verification/bootstrap.js';
import { citySkill, PROVIDER_LEADS, WINDOW_DAYS, yearKey } from '../domain/verification/forecast-skill.js';
import { OUTLOOK_LEADS } from '../domain/verification/outlook.js';
import type { PairColumns } from '../domain/verification/pairs.js';
import type { ForecastSkill, ServedOutlook, SkillYear } from '../domain/verification/skill-schemas.js';
import { observedSeries } from '../domain/verification/target-days.js';
import type { Month } from '../output/bulk/months.js';
import { type PairRow, pairFields } from '../output/bulk/pair-columns.js';
import { Batch, type RowGroup } from '../output/bulk/writers.js';
import { RenderError } from '../output/render-error.js';
import { encodeSkill } from '../store/skills-table.js';
import type { Store } from '../store/store.js';
import { type CityYears, cachedYears, type SkillsPlan } from './scoring-plan.js';

/** A city's share of the step, as the thread that scored it hands it to the one that writes. */
export interface ScoredCity {
  city: string;
  /** Its skill, as the served store keeps it. */
  skill: Uint8Array;
  /** Its outlooks served now, by category. */
  outlooks: Record<string, ServedOutlook>;
  /** Its rows of each month's pairs file written anew (by the month's index; none for a month reused), column by column. */
  pairs: RowGroup[];
  /** Its closed season years' scores, deflated, for the next render's cache; null for none. */
  years: Uint8Array | null;
  /** How many of them came from the render cache. */
  yearsReused: number;
  /** Seconds its scoring took, and its resampling among them. */
  seconds: number;
  resampling: number;
}

/** The month a day falls in, by its index. */
export function monthIndex(months: readonly Month[]): (day: number) => number {
  return (day) => {
    let [lo, hi] = [0, months.length - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (months[mid]!.to < day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * The first day a city's pairs are needed from, and the closed years it takes as scored: its
 * trailing window, each category's year under way, each month written anew and each closed year
 * the cache does not hold made from the same inputs.
 */
function neededFrom(
  plan: SkillsPlan,
  city: string,
  served: number,
  latest: number,
): { from: number; scored: Map<string, SkillYear[]>; closed: Set<string> } {
  const cached = cachedYears(plan, city);
  const scored = new Map<string, SkillYear[]>();
  const closed = new Set<string>();
  let from = latest - WINDOW_DAYS + 1;
  for (const category of GRADED) {
    from = Math.min(from, seasonYear(category, seasonYearOf(category, latest)).from);
    for (let year = seasonYearOf(category, served); seasonYear(category, year).to < latest; year++) {
      const key = yearKey(category, year);
      if (plan.years[key] === undefined) {
        from = Math.min(from, seasonYear(category, year).from);
        continue;
      }
      closed.add(key);
      const kept = cached[key];
      if (kept && kept.scores.length >= OUTLOOK_LEADS) scored.set(key, kept.scores);
      else from = Math.min(from, seasonYear(category, year).from);
    }
  }
  for (const month of plan.months) if (!month.reused) from = Math.min(from, month.from);
  return { from: Math.max(from, served), scored, closed };
}

/** The archive of what a city's scores are made from: every forecast and outlook kept of the served days, however few of them are paired. */
function archiveOf(store: Store, city: string, served: number, latest: number, mixed: boolean): ForecastSkill['archive'] {
  const since = (served - PROVIDER_LEADS + 1) * DAY_MS - HOUR_MS;
  const f = store.issued.archive(city, since);
  const o = store.outlooks.archive(city, served - OUTLOOK_LEADS + 1, latest + 1);
  return {
    forecasts: f.forecasts,
    issue_days: f.issueDays,
    first_issued: f.first === null ? null : isoTime(f.first),
    last_issued: f.last === null ? null : isoTime(f.last),
    by: { build: f.by.build, function: f.by.function, made_again: f.by['made again'] },
    outlooks: { issued: o.issued, made_again: o.madeAgain },
    ...(mixed ? { by_provider: store.issued.bySource(city, since) } : {}),
  };
}

/** A city with nothing served: a skill with no days. */
const unscored = (city: string, provider: string | null) =>
  citySkill({
    city,
    provider,
    first: null,
    latest: null,
    observed: () => new Map(),
    source: () => undefined,
    outlooks: new Map(),
    climatologies: new Map(),
    forecasts: [],
  });

/** A city's skill from the days the plan does not already hold the scores of, with the closed years scored anew and how many were reused. */
function skillOf(store: Store, served: Store, city: string, provider: string | null, plan: SkillsPlan) {
  const first = plan.months[0]?.from;
  const latest = served.values.newest(city, 'UTC', 1)[0]?.day;
  if (first === undefined || latest === undefined) return { made: unscored(city, provider), closed: new Set<string>(), yearsReused: 0 };
  const need = neededFrom(plan, city, first, latest);
  const days = [...served.values.span(city, 'UTC', need.from, latest).values()];
  const providers = new Map(days.map((d) => [d.day, d.source]));
  // The providers of every served day: the answer names each where they are several.
  const sources = served.pollen.sourcesIn(city, first * 24, (latest + 1) * 24);
  const observed = new Map<Graded, SeasonSeries>();
  const made = citySkill({
    city,
    provider,
    sources,
    first: need.from,
    latest,
    source: (day) => providers.get(day),
    observed: (category) => {
      let series = observed.get(category);
      if (!series) observed.set(category, (series = observedSeries(days, category)));
      return series;
    },
    // Issued up to 13 days before the first day paired: persistence and the season at a provider's furthest lead are its issue day's.
    outlooks: store.outlooks.outlooks(city, need.from - Math.max(OUTLOOK_LEADS, PROVIDER_LEADS) + 1, latest + 1),
    climatologies: store.outlooks.climatologies(city, need.from, latest + OUTLOOK_LEADS),
    // Forecasts issued up to 13 days before the first day paired reach it (a daily provider's).
    forecasts: store.issued.since(city, (need.from - PROVIDER_LEADS) * DAY_MS),
    scored: need.scored,
    archive: archiveOf(store, city, first, latest, sources.length > 1),
  });
  return { made, closed: need.closed, yearsReused: need.scored.size };
}

/** A city's pairs rows in a batch per served month, those of the months the render cache holds left out. */
function pairBatches(plan: SkillsPlan, city: string, pairs: readonly PairColumns[]): Batch<PairRow>[] {
  const monthOf = monthIndex(plan.months);
  const fields = pairFields(plan.layout);
  const batches = plan.months.map(() => new Batch(fields));
  if (pairs.length === 0) return batches;
  const row: PairRow = { city, c: pairs[0]!, i: 0 };
  for (const c of pairs) {
    row.c = c;
    for (let i = 0; i < c.n; i++) {
      const m = monthOf(c.day[i]!);
      if (plan.months[m]!.reused) continue;
      row.i = i;
      batches[m]!.add(row);
    }
  }
  return batches;
}

/** A city's skill, outlooks, pairs of the months written anew and closed years; a store that cannot be read fails the render, naming the city. */
export function scoreCity(store: Store, served: Store, city: string, provider: string | null, plan: SkillsPlan): ScoredCity {
  const [started, resampled] = [performance.now(), resampling.seconds];
  let scored: ReturnType<typeof skillOf>;
  try {
    scored = skillOf(store, served, city, provider, plan);
  } catch (error) {
    throw new RenderError(`the forecast skill of ${city} could not be computed: ${(error as Error).message}. Nothing was published.`);
  }
  const { made, closed, yearsReused } = scored;
  const outlooks: Record<string, ServedOutlook> = {};
  for (const c of made.skill.categories) if (c.outlook) outlooks[c.category] = c.outlook;
  const years: CityYears = {};
  for (const key of closed) {
    const scores = made.years.get(key);
    if (scores) years[key] = { digest: plan.years[key]!, scores };
  }
  return {
    city,
    skill: encodeSkill(made.skill),
    outlooks,
    // The columns alone: what crosses to the writing thread is cloned.
    pairs: pairBatches(plan, city, made.pairs).map((b) => ({ columns: b.columns, rows: b.rows })),
    years: Object.keys(years).length === 0 ? null : deflateRawSync(JSON.stringify(years)),
    yearsReused,
    seconds: (performance.now() - started) / 1000,
    resampling: resampling.seconds - resampled,
  };
}
