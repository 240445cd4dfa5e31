/** Each unit and month with the digest of what it is made from, by which the render cache decides what it reuses. */
import { RenderInputs } from '../cache/input-digests.js';
import { renderStep } from '../render-run.js';

export const inputsStep = renderStep({
  name: 'inputs',
  run: (run) => run.withServed((served) => new RenderInputs(served, run.target.code)),
});
