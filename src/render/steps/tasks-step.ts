/**
 * The units (each city, each day, the files made once) and the bulk months, rendered by worker
 * threads side by side, each given a batch of consecutive units and holding only what it reads;
 * a unit or month whose inputs the render cache holds unchanged is linked from it.
 */
import type { Unit } from '../../api/contract/static-forms.js';
import { openStore } from '../../store/store.js';
import { renderStep } from '../render-run.js';
import { inProcess, inWorkers, tasksOf } from '../threads/task-pool.js';
import type { TaskInput } from '../threads/tasks.js';
import { unitsOf } from '../units.js';

export const tasksStep = renderStep({
  name: 'tasks',
  run: (run) => {
    const { target } = run;
    const { workers } = run.of('served');
    const { plan, months } = run.of('plan');
    const input: TaskInput = {
      storePath: target.nextServed,
      folder: target.folder,
      cacheDir: target.reuse ? target.cacheDir : undefined,
      cacheKey: target.cacheKey.toString('hex'),
      code: target.code,
      record: target.cacheDir !== undefined,
    };
    // The bulk files' months follow the units: each month is a task of its own for a worker.
    const tasks = tasksOf(openedOnce(target.nextServed, plan.cityDaysFrom), months, run.of('inputs'));
    return workers === 0 ? inProcess(input, tasks, run.routes) : inWorkers(input, tasks, workers, target.threads());
  },
});

/** The units of a store, read from a connection closed once they are all given out. */
function* openedOnce(path: string, cityDaysFrom: number): Generator<Unit> {
  const store = openStore(path, { readonly: true, immutable: true });
  try {
    yield* unitsOf(store, store.cities.set().slugs, cityDaysFrom);
  } finally {
    store.close();
  }
}
