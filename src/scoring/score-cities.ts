/**
 * The render's forecast-skill step (docs/data.md, "Forecast skill"): each city's skill computed
 * from the forecasts and outlooks the store keeps as issued and the served days
 * (domain/verification/forecast-skill.ts), written into the served store for the handlers; the pairs it is
 * made from, as the bulk forecast-pairs files, a month each (Parquet and gzip CSV); and the
 * outlooks served now, for the outlook file the forecast function carries.
 *
 * What the previous build's render cache holds made from the same inputs is reused (scoring/scoring-plan.ts):
 * a month's pairs files, and each city's scores of its closed season years, so that a city's days
 * are paired only from the first one something new is made of (the trailing window, the season
 * years under way, a month whose days changed).
 *
 * Cities are scored by as many threads as the render has cores (scoring-threads.ts), each taking the
 * next city not yet taken (city-turns.ts); one of them writes every city, in the cities' order, so
 * the files are the same whichever thread scored which city.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import type { BulkFile, BulkFormat } from '../deploy-data/bulk-index.js';
import type { OutlookFile } from '../deploy-data/outlook-file.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { bulkPath, FORMATS, KindFiles, type Month } from '../output/bulk/months.js';
import { pairFields } from '../output/bulk/pair-columns.js';
import type { FileRecord } from '../output/file-records.js';
import { FileWriter, type Written } from '../output/file-writer.js';
import { type FailureReply, failureReply, replyError } from '../output/render-error.js';
import { openStore, type Store } from '../store/store.js';
import { CityTurns } from './city-turns.js';
import { type ScoredCity, scoreCity } from './score-city.js';
import { cityYearsFile, type SkillsPlan } from './scoring-plan.js';

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

/** What a helper hands the writing thread: a city's scores, by the city's index, or the helper's failure. */
export type Handed = { index: number; scored: ScoredCity } | { failure: FailureReply };

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
