/**
 * Each city's forecast skill, scored (src/scoring) into the served store before its shards are
 * cut and measured, in threads of their own, as many as the units have; what the render cache
 * holds of it made from the same inputs is reused.
 */
import { runScoring } from '../../scoring/scoring-run.js';
import { renderStep } from '../render-run.js';

export const skillsStep = renderStep({
  name: 'skills',
  run: (run) => {
    const { store, target } = run;
    return runScoring({
      store,
      servedPath: target.nextServed,
      folder: target.folder,
      cache: run.cache,
      nextDir: target.nextYears,
      threads: run.of('served').workers,
      entry: () => target.threads().start('scoring-worker'),
    });
  },
});
