/**
 * The scoring as a build runs it on a served store: planned against what the previous build kept
 * (scoring-plan.ts), then every city scored, in threads of their own when the store is large
 * enough to repay them (scoring-threads.ts), else in this one. The render runs it as one of its
 * steps and writes what it gives; nothing here knows the render.
 */
import type { BulkFile } from '../deploy-data/bulk-index.js';
import type { FileRecord } from '../output/file-records.js';
import { openStore, type Store } from '../store/store.js';
import { computeSkills, type SkillOutput } from './score-cities.js';
import { planSkills, type ScoresCache, type SkillsPlan } from './scoring-plan.js';
import { computeSkillsInThreads, type ThreadStart } from './scoring-threads.js';

/** What a scoring run gave: its output, its plan, and the pairs files the previous build's output held already. */
export type Scored = SkillOutput & { plan: SkillsPlan; reused: { files: BulkFile[]; records: Map<string, FileRecord> } };

export interface ScoringRun {
  /** The build's store (its kept forecasts and outlooks), and the served store the skills are written into. */
  store: Store;
  servedPath: string;
  /** The render's folder, where the pairs files go. */
  folder: string;
  cache: ScoresCache | undefined;
  /** Where the closed years' scores are kept for the next build; none without a cache. */
  nextDir: string | undefined;
  /** Threads to score in (0: this one), and how each starts. */
  threads: number;
  entry: ThreadStart;
}

/** Scores every served city. */
export async function runScoring(run: ScoringRun): Promise<Scored> {
  const { store, servedPath, folder } = run;
  const served = openStore(servedPath, { readonly: true, immutable: true });
  let planned: ReturnType<typeof planSkills>;
  try {
    planned = planSkills(store, served, folder, run.cache, run.nextDir);
  } finally {
    served.close();
  }
  const { plan, reused } = planned;
  const output =
    run.threads === 0
      ? await computeSkills(store, servedPath, folder, plan)
      : await computeSkillsInThreads({ storePath: store.path, servedPath, folder, plan }, run.entry, run.threads);
  return { ...output, plan, reused };
}
