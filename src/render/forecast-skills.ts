/**
 * The render's forecast-skill step (docs/data.md, "Forecast skill"): each city's skill computed
 * from the forecasts the store keeps and the served days (domain/forecast-skill.ts), written into
 * the served store for the handlers; the pairs it is made from, as the bulk forecast-pairs file
 * (Parquet and gzip CSV, staged beside the served store until the render's folder exists); and
 * the outlooks served now, for the outlook file the forecast function carries.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DAY_MS, HOUR_MS } from '../domain/dates.js';
import { citySkill, FORECAST_LEADS } from '../domain/forecast-skill.js';
import { SAMPLE_ID } from '../providers/sample/index.js';
import type { BulkFile, BulkFormat } from '../served/bulk-index.js';
import type { OutlookFile } from '../served/outlook-file.js';
import { allDailyRows } from '../store/daily-rows.js';
import { openStore, type Store } from '../store/store.js';
import { FORMATS, KindFiles, WRITER, wholePath } from './bulk.js';
import { PAIR_FIELDS } from './pair-columns.js';
import { linkOrCopy } from './render-cache.js';
import type { FileWriter } from './file-writer.js';
import { RenderError } from './render-error.js';

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
  /** Thread-seconds the scores took. */
  seconds: number;
}

/** A city's skill; a store that cannot be read fails the render, naming the city. */
function skillOf(store: Store, served: Store, city: string, provider: string | null): ReturnType<typeof citySkill> {
  try {
    const rows = allDailyRows(served, city, 'UTC');
    // Forecasts issued up to two days before the first served day reach it.
    const from = ((rows[0]?.day ?? 0) - FORECAST_LEADS + 1) * DAY_MS - HOUR_MS;
    return citySkill({ city, provider, simulated: provider === SAMPLE_ID, rows, forecasts: store.issued.since(city, from) });
  } catch (error) {
    throw new RenderError(`the forecast skill of ${city} could not be computed: ${(error as Error).message}. Nothing was published.`);
  }
}

/**
 * Computes every served city's skill from the forecasts `store` keeps and the UTC days of the
 * served store at `servedPath`, writes it there, and stages the pairs file in `stageDir`.
 */
export async function computeSkills(store: Store, servedPath: string, stageDir: string): Promise<SkillOutput> {
  const started = performance.now();
  const served = openStore(servedPath);
  const pairs = new KindFiles('forecast-pairs', PAIR_FIELDS, CITIES_PER_GROUP);
  const outlooks: OutlookFile = { issued: null, provider: served.pollen.latestSource(), cities: {} };
  try {
    const provider = outlooks.provider;
    for (const city of served.cities.set().slugs) {
      const made = skillOf(store, served, city, provider);
      served.skills.put(city, made.skill);
      outlooks.issued ??= made.skill.categories[0]?.outlook.issued ?? null;
      outlooks.cities[city] = Object.fromEntries(made.skill.categories.map((c) => [c.category, c.outlook]));
      for (const p of made.rows) pairs.add(p);
      pairs.cityDone();
    }
    mkdirSync(stageDir, { recursive: true });
    const at = (path: string) => join(stageDir, basename(path));
    // What the pairs are made from (the kept forecasts, the served days) shows in the pairs themselves.
    const files = await pairs.finish(
      null,
      (path, body) => writeFileSync(at(path), body),
      (parquet) => createHash('sha256').update(`${WRITER}\nforecast-pairs\n`).update(parquet).digest('hex'),
    );
    const staged = files.map((file) => ({ file, at: at(file.path) }));
    return { staged, stageDir, outlooks, seconds: (performance.now() - started) / 1000 };
  } finally {
    served.close();
  }
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
