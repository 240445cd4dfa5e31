/**
 * The render's steps, in the order they run: each reads what the steps before it gave
 * (render-run.ts), and its seconds are its lap in the render's summary. Publishing follows them
 * (publish.ts).
 */
import type { RenderStep } from '../render-run.js';
import { inputsStep } from './inputs-step.js';
import { manifestStep } from './manifest-step.js';
import { measureStep } from './measure-step.js';
import { planStep } from './plan-step.js';
import { servedStep } from './served-step.js';
import { shardsStep } from './shards-step.js';
import { skillsStep } from './skills-step.js';
import { tasksStep } from './tasks-step.js';

export const RENDER_STEPS: readonly RenderStep[] = [
  servedStep,
  skillsStep,
  shardsStep,
  planStep,
  inputsStep,
  tasksStep,
  measureStep,
  manifestStep,
];
