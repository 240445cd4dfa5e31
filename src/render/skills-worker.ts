/**
 * The forecast-skill step's thread (skills-thread.ts): scores every city from the store at
 * `storePath` into the served store at `servedPath`, and replies with what the render needs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/store.js';
import { computeSkills, type SkillOutput } from './forecast-skills.js';
import { type FailureReply, failureReply } from './render-error.js';

export interface SkillsInput {
  storePath: string;
  servedPath: string;
  stageDir: string;
}

export type SkillsReply = { done: true; output: SkillOutput } | FailureReply;

const input = workerData as SkillsInput;
const store = openStore(input.storePath, { readonly: true });
computeSkills(store, input.servedPath, input.stageDir)
  .then(
    (output) => parentPort!.postMessage({ done: true, output } satisfies SkillsReply),
    (error: unknown) => parentPort!.postMessage(failureReply(error) satisfies SkillsReply),
  )
  .finally(() => store.close());
