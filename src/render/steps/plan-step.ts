/** The plan of files within the deploy's budget (file-budget.ts), and the months the bulk files cover. */
import { bulkFileCount, bulkMonths } from '../../output/bulk/months.js';
import { skillFiles } from '../../scoring/score-cities.js';
import { SITE_FILES } from '../../site/build.js';
import { planFiles } from '../file-budget.js';
import { renderStep } from '../render-run.js';
import { unitsOf } from '../units.js';

export const planStep = renderStep({
  name: 'plan',
  run: (run) =>
    run.withServed((served) => {
      const months = bulkMonths(served);
      // Besides the forms' files: the site's, `_redirects`, and the bulk files with their manifest and the pairs files.
      const extra = SITE_FILES.length + 1 + bulkFileCount(months) + skillFiles(months);
      const units = unitsOf(served, served.cities.set().slugs);
      return { plan: planFiles(served, run.routes, units, extra, run.target.maxFiles), months };
    }),
});
