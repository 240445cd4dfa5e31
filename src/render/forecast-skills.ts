/**
 * The render's forecast-skill step (docs/data.md, "Forecast skill"): each city's skill computed
 * from the forecasts and outlooks the store keeps as issued and the served days
 * (domain/verification/forecast-skill.ts), written into the served store for the handlers; the pairs it is
 * made from, as the bulk forecast-pairs files, a month each (Parquet and gzip CSV); and the
 * outlooks served now, for the outlook file the forecast function carries.
 *
 * What the previous build's render cache holds made from the same inputs is reused (skills-plan.ts):
 * a month's pairs files, and each city's scores of its closed season years, so that a city's days
 * are paired only from the first one something new is made of (the trailing window, the season
 * years under way, a month whose days changed).
 *
 * Cities are scored by as many threads as the render has cores (skills-thread.ts), each taking the
 * next city not yet taken (city-turns.ts); one of them writes every city, in the cities' order, so
 * the files are the same whichever thread scored which city.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';
import type { BulkFile, BulkFormat } from '../deploy-data/bulk-index.js';
import type { OutlookFile } from '../deploy-data/outlook-file.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { DAY_MS, HOUR_MS, isoTime } from '../domain/dates.js';
import { type SeasonSeries, seasonYear, seasonYearOf } from '../domain/seasons/year.js';
import type { Graded } from '../domain/species/risk.js';
import { GRADED } from '../domain/species/risk.js';
import { resampling } from '../domain/verification/bootstrap.js';
import { citySkill, PROVIDER_LEADS, WINDOW_DAYS, yearKey } from '../domain/verification/forecast-skill.js';
import { OUTLOOK_LEADS } from '../domain/verification/outlook.js';
import type { PairColumns } from '../domain/verification/pairs.js';
import type { ForecastSkill, ServedOutlook, SkillYear } from '../domain/verification/skill-schemas.js';
import { observedSeries } from '../domain/verification/target-days.js';
import { encodeSkill } from '../store/forecast-skills.js';
import { openStore, type Store } from '../store/store.js';
import { bulkPath, FORMATS, KindFiles, type Month } from './bulk/months.js';
import { type PairRow, pairFields } from './bulk/pair-columns.js';
import { Batch, type RowGroup } from './bulk/writers.js';
import type { FileRecord } from './cache/render-cache.js';
import { FileWriter, type Written } from './file-writer.js';
import { type FailureReply, failureReply, RenderError, replyError } from './render-error.js';
import { type CityYears, cachedYears, cityYearsFile, type SkillsPlan } from './skills-plan.js';
import { CityTurns } from './threads/city-turns.js';

/** A month's pairs file in a format, under the publish folder. */
export const pairsPath = (month: string, format: BulkFormat): string => bulkPath('forecast-pairs', month, format);
/** Files the step adds to the render: each month's pairs file in both formats. */
export const skillFiles = (months: readonly Month[]): number => months.length * FORMATS.length;
/**
 * Cities per row group of a month's pairs file: about 1,200 rows (every category and day of the
 * month of each), so that a reader of one city fetches a group, not the month, and the writing
 * thread holds each month's group of ten cities, not more, while the cities come.
 */
const CITIES_PER_GROUP = 10;

export interface SkillOutput {
  /** The pairs files the step wrote (into the render's folder), what was recorded of them, and their count. */
  files: BulkFile[];
  records: Array<[string, FileRecord]>;
  written: Written;
  /** The outlooks served now, by city and category. */
  outlooks: OutlookFile;
  /** Thread-seconds the step's threads spent scoring cities, and resampling (the bootstrap) among them. */
  scoring: { seconds: number; resampling: number };
  /** Each city's closed years, kept in the plan's next folder: their files' SHA-256. */
  years: Record<string, string>;
  /** City-years whose scores came from the render cache. */
  yearsReused: number;
}

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

/** What a helper hands the writing thread: a city's scores, by the city's index, or the helper's failure. */
export type Handed = { index: number; scored: ScoredCity } | { failure: FailureReply };

/** The month a day falls in, by its index. */
function monthIndex(months: readonly Month[]): (day: number) => number {
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
function scoreCity(store: Store, served: Store, city: string, provider: string | null, plan: SkillsPlan): ScoredCity {
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

/** The served store as the step reads it: nothing writes it until every city is scored. */
const readServed = (servedPath: string): Store => openStore(servedPath, { readonly: true, immutable: true });

/**
 * A helper's part of the step: scores each city it takes its turn at and hands it to the writing
 * thread through `port`; a failure is handed the same way, and ends the helper's part. Says when
 * it has closed the served store, which the writing thread waits for before it writes there.
 */
export function scoreForWriter(store: Store, servedPath: string, plan: SkillsPlan, turns: CityTurns, port: MessagePort): void {
  let served: Store | undefined;
  try {
    served = readServed(servedPath);
    const { slugs } = served.cities.set();
    const provider = served.pollen.latestSource();
    for (let index = turns.take(); index < slugs.length; index = turns.take()) {
      port.postMessage({ index, scored: scoreCity(store, served, slugs[index]!, provider, plan) } satisfies Handed);
      turns.handed();
    }
  } catch (error) {
    port.postMessage({ failure: failureReply(error) } satisfies Handed);
    turns.handed();
  } finally {
    served?.close();
    turns.finished();
  }
}

/**
 * Computes every served city's skill from the forecasts and outlooks `store` keeps and the UTC
 * days of the served store at `servedPath`, writes it there, writes the pairs files of the months
 * the plan does not reuse into the render's `folder`, and keeps each city's closed years in the
 * plan's next folder. The cities are scored by this thread and by the helpers sharing `turns`
 * with it, which hand theirs through `helpers` (scoreForWriter); this thread writes them all.
 */
export async function computeSkills(
  store: Store,
  servedPath: string,
  folder: string,
  plan: SkillsPlan,
  turns = new CityTurns(CityTurns.memory()),
  helpers: readonly MessagePort[] = [],
): Promise<SkillOutput> {
  const served = readServed(servedPath);
  const pairs = plan.months.map((m) => (m.reused ? undefined : new KindFiles('forecast-pairs', pairFields(plan.layout), CITIES_PER_GROUP)));
  const outlooks: OutlookFile = { issued: null, provider: served.pollen.latestSource(), cities: {} };
  const skills: Array<[string, Uint8Array]> = [];
  const scoring = { seconds: 0, resampling: 0 };
  const years: Record<string, string> = {};
  let yearsReused = 0;
  if (plan.nextDir) {
    // Written into only when a real folder: never through a link someone placed at its name.
    mkdirSync(plan.nextDir, { recursive: true });
    if (kindAt(plan.nextDir) !== 'folder') throw new Error(`${plan.nextDir} is not a folder but a link or another file`);
  }
  try {
    const { slugs } = served.cities.set();
    // A city scored waits here until every city before it is written: the cities the helpers score
    // while this thread scores one of its own, since every thread takes the next city left.
    const scored = new Map<number, ScoredCity>();
    let next = 0;
    const write = async () => {
      for (let s = scored.get(next); s !== undefined; s = scored.get(++next)) {
        scored.delete(next);
        skills.push([s.city, s.skill]);
        scoring.seconds += s.seconds;
        scoring.resampling += s.resampling;
        outlooks.issued ??= Object.values(s.outlooks)[0]?.issued ?? null;
        outlooks.cities[s.city] = s.outlooks;
        yearsReused += s.yearsReused;
        if (s.years && plan.nextDir) {
          writeFileSync(cityYearsFile(plan.nextDir, s.city), s.years);
          years[s.city] = createHash('sha256').update(s.years).digest('hex');
        }
        for (const [m, files] of pairs.entries()) {
          if (!files || s.pairs[m]!.rows === 0) continue;
          files.addGroup(s.pairs[m]!);
          await files.cityDone();
        }
      }
    };
    const receive = () => {
      for (const port of helpers) {
        for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
          const handed = m.message as Handed;
          if ('failure' in handed) throw replyError(handed.failure);
          scored.set(handed.index, handed.scored);
        }
      }
    };
    for (let index = turns.take(); index < slugs.length; index = turns.take()) {
      scored.set(index, scoreCity(store, served, slugs[index]!, outlooks.provider, plan));
      receive();
      await write();
    }
    while (next < slugs.length) {
      const seen = turns.handedCount();
      receive();
      await write();
      if (next < slugs.length) turns.waitHanded(seen, 1000);
    }
  } finally {
    served.close();
  }
  // Nothing reads the served store as a file that never changes (immutable) while it is written.
  turns.waitFinished(helpers.length, 1000);
  const written = openStore(servedPath);
  try {
    written.skills.put(skills);
  } finally {
    written.close();
  }
  const out = new FileWriter(folder);
  const records = new Map<string, FileRecord>();
  const files: BulkFile[] = [];
  await out.recording(records, async () => {
    for (const [m, month] of plan.months.entries()) {
      const kind = pairs[m];
      if (kind) files.push(...(await kind.finish(month.month, (path, body) => out.put(path, body), month.digest)));
    }
  });
  return { files, records: [...records], written: out.written, outlooks, scoring, years, yearsReused };
}
