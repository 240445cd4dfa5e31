/**
 * One render's record: where it writes and with what settings (render-target.ts), what each of
 * its steps gave (steps/render-steps.ts lists them), and the seconds each took. A step reads what
 * the steps before it gave by their names, so the order of the list is the only order there is.
 */
import type { Route } from '../api/routes.js';
import type { BulkManifest } from '../deploy-data/bulk-index.js';
import type { ShardManifest } from '../deploy-data/shard-folder.js';
import type { Month } from '../output/bulk/months.js';
import type { FileWriter } from '../output/file-writer.js';
import type { Scored } from '../scoring/scoring-run.js';
import type { ShardParts } from '../store/shards/shard-writer.js';
import { openStore, type Store } from '../store/store.js';
import type { RenderInputs } from './cache/input-digests.js';
import type { RenderCache } from './cache/render-cache.js';
import type { FilePlan } from './file-budget.js';
import type { RenderOptions, Target } from './render-target.js';
import type { ServedStore } from './served-store.js';
import type { TaskResults } from './threads/task-pool.js';

/** What each step gives, by its name. */
export interface StepOutputs {
  /** The city-days the served store holds, the threads the render's work runs in, and the site's files on their way. */
  served: { cityDays: number; workers: number; site: Promise<Map<string, string | Uint8Array>> };
  /** Each city's forecast skill, written into the served store, and the pairs files. */
  skills: Scored;
  /** The served store's shards (each key once, in the folder beside the store), their manifest, and the functions' size being measured. */
  shards: {
    manifest: ShardManifest;
    parts: ShardParts;
    reused: number;
    written: { shards: number; bytes: number };
    measured: Promise<ServedStore>;
  };
  /** The bulk files' months and the plan of files within the deploy's budget. */
  plan: { plan: FilePlan; months: Month[] };
  /** Each unit's and month's digest of what it is made from. */
  inputs: RenderInputs;
  /** What the units and the bulk months wrote. */
  tasks: TaskResults;
  /** The functions' size, checked, and the writer of the files made once (`_redirects`, the site's). */
  measure: { served: ServedStore; out: FileWriter };
  /** The bulk files' manifest, and every file the render wrote, counted against its plan. */
  manifest: { manifest: BulkManifest; files: number };
}

export type StepName = keyof StepOutputs;

/** A step of the render: its name (its lap in the summary) and what it does with what the steps before it gave. */
export interface RenderStep<K extends StepName = StepName> {
  name: K;
  run: (run: RenderRun) => StepOutputs[K] | Promise<StepOutputs[K]>;
}

/** A step, typed by its name. */
export const renderStep = <K extends StepName>(step: RenderStep<K>): RenderStep<K> => step;

/** Wall-clock seconds of each step, in the order they ran, and of publishing (`finish`). */
export class Laps {
  readonly steps: Partial<Record<StepName | 'finish', number>> = {};
  private lap = performance.now();

  done(name: StepName | 'finish'): void {
    const now = performance.now();
    this.steps[name] = (now - this.lap) / 1000;
    this.lap = now;
  }
}

export class RenderRun {
  readonly laps = new Laps();
  private readonly outputs: Partial<StepOutputs> = {};

  constructor(
    readonly store: Store,
    readonly target: Target,
    readonly options: RenderOptions,
    readonly routes: readonly Route[],
    /** The previous build's output, where the render may reuse it (checked: render-cache.ts). */
    readonly cache: RenderCache | undefined,
  ) {}

  /** What the step `name` gave; a step that asks for one not run yet is a bug in the list's order. */
  of<K extends StepName>(name: K): StepOutputs[K] {
    const output = this.outputs[name];
    if (output === undefined) throw new Error(`the render's ${name} step has not run yet`);
    return output as StepOutputs[K];
  }

  put<K extends StepName>(name: K, output: StepOutputs[K]): void {
    this.outputs[name] = output;
  }

  /** `use` of the served store this render writes, opened read-only for it. */
  withServed<T>(use: (store: Store) => T): T {
    const store = openStore(this.target.nextServed, { readonly: true, immutable: true });
    try {
      return use(store);
    } finally {
      store.close();
    }
  }
}
