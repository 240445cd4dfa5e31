/**
 * The bulk files' manifest, over the months' files and the pairs files (those the skills step
 * wrote, and those it linked from the render cache); then every file the render wrote, counted
 * against the plan: the plan counted what the forms enumerate, so a render that wrote otherwise
 * is a bug, never a deploy over budget.
 */
import { BULK_INDEX_FILE, bulkManifest } from '../../output/bulk/months.js';
import { pairFields } from '../../output/bulk/pair-columns.js';
import { renderStep } from '../render-run.js';

export const manifestStep = renderStep({
  name: 'manifest',
  run: (run) => {
    const skills = run.of('skills');
    const written = run.of('tasks');
    const { plan, months } = run.of('plan');
    const { out } = run.of('measure');
    for (const f of skills.reused.files) out.count(f.bytes);
    for (const [file, record] of [...skills.reused.records, ...skills.records]) written.records.set(file, record);
    const bulk = [...written.bulk, ...skills.reused.files, ...skills.files];
    const manifest = run.withServed((served) => bulkManifest(served, months, bulk, pairFields(skills.plan.layout)));
    out.put(BULK_INDEX_FILE, `${JSON.stringify(manifest, null, 1)}\n`);
    const files = written.files + skills.written.files + out.written.files;
    if (files !== plan.always + plan.cityDayFiles)
      throw new Error(`the render wrote ${files} files where it planned ${plan.always + plan.cityDayFiles}`);
    return { manifest, files };
  },
});
