/**
 * The render's forecast-skill step (docs/data.md, "Forecast skill"): each city's skill computed
 * from the forecasts the store keeps and the served days (domain/forecast-skill.ts), written into
 * the served store for the handlers; the pairs it is made from, as the bulk forecast-pairs file
 * (Parquet and gzip CSV, staged beside the served store until the render's folder exists); and
 * the outlooks served now, for the outlook file the forecast function carries.
 *
 * Cities are scored by as many threads as the render has cores (skills-thread.ts), each taking the
 * next city not yet taken (city-turns.ts); one of them writes every city, in the cities' order, so
 * the files are the same whichever thread scored which city.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { DAY_MS, HOUR_MS } from '../domain/dates.js';
import { citySkill, FORECAST_LEADS } from '../domain/forecast-skill.js';
import type { ServedOutlook } from '../domain/skill-schemas.js';
import { SAMPLE_ID } from '../providers/sample/index.js';
import type { BulkFile, BulkFormat } from '../served/bulk-index.js';
import type { OutlookFile } from '../served/outlook-file.js';
import { allDailyRows } from '../store/daily-rows.js';
import { encodeSkill } from '../store/forecast-skills.js';
import { openStore, type Store } from '../store/store.js';
import { FORMATS, KindFiles, WRITER, wholePath } from './bulk.js';
import { Batch, type RowGroup } from './bulk-writers.js';
import { CityTurns } from './city-turns.js';
import { PAIR_FIELDS } from './pair-columns.js';
import { linkOrCopy } from './render-cache.js';
import type { FileWriter } from './file-writer.js';
import { type FailureReply, failureReply, RenderError, replyError } from './render-error.js';

/** The pairs file in a format, under the publish folder. */
export const pairsPath = (format: BulkFormat): string => wholePath('forecast-pairs', format);
/** Files the step adds to the render: the pairs file in both formats. */
export const SKILL_FILES = FORMATS.length;
/**
 * Cities per row group of the pairs file: about 15,000 rows (every category and served day of
 * each). A group's values are held as JavaScript values while it is encoded: at 20 cities a group
 * added 66 MB to the step's peak at 200 cities, for a file 12% smaller (docs/performance.md).
 */
const CITIES_PER_GROUP = 5;

export interface SkillOutput {
  /** The pairs file, staged: each format's path under the publish folder and where it waits. */
  staged: Array<{ file: BulkFile; at: string }>;
  stageDir: string;
  /** The outlooks served now, by city and category. */
  outlooks: OutlookFile;
}

/** A city's share of the step, as the thread that scored it hands it to the one that writes. */
export interface ScoredCity {
  city: string;
  /** Its skill, as the served store keeps it. */
  skill: Uint8Array;
  /** Its outlooks served now, by category. */
  outlooks: Record<string, ServedOutlook>;
  /** Its rows of the pairs file, column by column. */
  pairs: RowGroup;
}

/** What a helper hands the writing thread: a city's scores, by the city's index, or the helper's failure. */
export type Handed = { index: number; scored: ScoredCity } | { failure: FailureReply };

/** A city's skill, outlooks and pairs; a store that cannot be read fails the render, naming the city. */
function scoreCity(store: Store, served: Store, city: string, provider: string | null): ScoredCity {
  let made: ReturnType<typeof citySkill>;
  try {
    const rows = allDailyRows(served, city, 'UTC');
    // Forecasts issued up to two days before the first served day reach it.
    const from = ((rows[0]?.day ?? 0) - FORECAST_LEADS + 1) * DAY_MS - HOUR_MS;
    made = citySkill({ city, provider, simulated: provider === SAMPLE_ID, rows, forecasts: store.issued.since(city, from) });
  } catch (error) {
    throw new RenderError(`the forecast skill of ${city} could not be computed: ${(error as Error).message}. Nothing was published.`);
  }
  const pairs = new Batch(PAIR_FIELDS);
  for (const p of made.rows) pairs.add(p);
  const outlooks = Object.fromEntries(made.skill.categories.map((c) => [c.category, c.outlook]));
  // The columns alone: what crosses to the writing thread is cloned.
  return { city, skill: encodeSkill(made.skill), outlooks, pairs: { columns: pairs.columns, rows: pairs.rows } };
}

/** The served store as the step reads it: nothing writes it until every city is scored. */
const readServed = (servedPath: string): Store => openStore(servedPath, { readonly: true, immutable: true });

/**
 * A helper's part of the step: scores each city it takes its turn at and hands it to the writing
 * thread through `port`; a failure is handed the same way, and ends the helper's part. Says when
 * it has closed the served store, which the writing thread waits for before it writes there.
 */
export function scoreForWriter(store: Store, servedPath: string, turns: CityTurns, port: MessagePort): void {
  let served: Store | undefined;
  try {
    served = readServed(servedPath);
    const { slugs } = served.cities.set();
    const provider = served.pollen.latestSource();
    for (let index = turns.take(); index < slugs.length; index = turns.take()) {
      port.postMessage({ index, scored: scoreCity(store, served, slugs[index]!, provider) } satisfies Handed);
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
 * Computes every served city's skill from the forecasts `store` keeps and the UTC days of the
 * served store at `servedPath`, writes it there, and stages the pairs file in `stageDir`. The
 * cities are scored by this thread and by the helpers sharing `turns` with it, which hand theirs
 * through `helpers` (scoreForWriter); this thread writes them all.
 */
export async function computeSkills(
  store: Store,
  servedPath: string,
  stageDir: string,
  turns = new CityTurns(CityTurns.memory()),
  helpers: readonly MessagePort[] = [],
): Promise<SkillOutput> {
  const served = readServed(servedPath);
  const pairs = new KindFiles('forecast-pairs', PAIR_FIELDS, CITIES_PER_GROUP);
  const outlooks: OutlookFile = { issued: null, provider: served.pollen.latestSource(), cities: {} };
  const skills: Array<[string, Uint8Array]> = [];
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
        outlooks.issued ??= Object.values(s.outlooks)[0]?.issued ?? null;
        outlooks.cities[s.city] = s.outlooks;
        pairs.addGroup(s.pairs);
        await pairs.cityDone();
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
      scored.set(index, scoreCity(store, served, slugs[index]!, outlooks.provider));
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
  mkdirSync(stageDir, { recursive: true });
  const at = (path: string) => join(stageDir, basename(path));
  // What the pairs are made from (the kept forecasts, the served days) shows in the pairs themselves.
  const files = await pairs.finish(
    null,
    (path, body) => writeFileSync(at(path), body),
    (parquet) => createHash('sha256').update(`${WRITER}\nforecast-pairs\n`).update(parquet).digest('hex'),
  );
  return { staged: files.map((file) => ({ file, at: at(file.path) })), stageDir, outlooks };
}

/** Puts the staged pairs files in the render's folder, counted by its writer; says what each holds, for the manifest. */
export function placeSkillFiles(output: SkillOutput, out: FileWriter): BulkFile[] {
  for (const { file, at } of output.staged) {
    linkOrCopy(at, join(out.folder, file.path));
    out.count(statSync(at).size, true);
  }
  rmSync(output.stageDir, { recursive: true, force: true });
  return output.staged.map((s) => s.file);
}
