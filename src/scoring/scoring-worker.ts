/**
 * A thread of the forecast-skill step (scoring-threads.ts). The writing one scores cities from the
 * store at `storePath` into the served store at `servedPath` with the helpers' help, and replies
 * with what the render needs; a helper scores cities for it and hands them over (score-cities.ts).
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type FailureReply, failureReply } from '../output/render-error.js';
import { openStore } from '../store/store.js';
import { CityTurns } from './city-turns.js';
import { computeSkills, type SkillOutput, scoreForWriter } from './score-cities.js';
import type { SkillsPlan } from './scoring-plan.js';

export interface SkillsInput {
  storePath: string;
  servedPath: string;
  /** The render's folder, which the pairs files go into. */
  folder: string;
  plan: SkillsPlan;
  /** The cities' turns, shared by the step's threads (CityTurns.memory()). */
  turns: SharedArrayBuffer;
  /** The writing thread's: a port from each helper. */
  helpers?: MessagePort[];
  /** A helper's: its port to the writing thread. */
  writer?: MessagePort;
}

export type SkillsReply = { done: true; output: SkillOutput } | FailureReply;

const input = workerData as SkillsInput;
const store = openStore(input.storePath, { readonly: true });
const turns = new CityTurns(input.turns);
if (input.writer) {
  try {
    scoreForWriter(store, input.servedPath, input.plan, turns, input.writer);
  } finally {
    store.close();
    input.writer.close();
  }
} else {
  const helpers = input.helpers ?? [];
  computeSkills(store, input.servedPath, input.folder, input.plan, turns, helpers)
    .then(
      (output) => parentPort!.postMessage({ done: true, output } satisfies SkillsReply),
      (error: unknown) => parentPort!.postMessage(failureReply(error) satisfies SkillsReply),
    )
    .finally(() => {
      store.close();
      for (const port of helpers) port.close();
    });
}
