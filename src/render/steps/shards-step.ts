/**
 * The served store cut into shards, content-addressed in the folder beside the store: a shard
 * whose bytes an earlier render wrote is there already and is not written again, and a quarter's
 * or day's shards made from the same inputs as the previous render's are taken as they were.
 * The functions' zipped size is measured from the manifest while the render goes on.
 */
import { folderPut, shardFolderPath } from '../../deploy-data/shard-folder.js';
import { writeShards } from '../../store/shards/shard-writer.js';
import { renderStep } from '../render-run.js';
import { measureFunctions } from '../served-store.js';

export const shardsStep = renderStep({
  name: 'shards',
  run: (run) => {
    const { store, target } = run;
    const folderShards = folderPut(shardFolderPath(store.path));
    const reuse = { code: target.code, previous: run.cache?.shardParts() ?? {}, has: folderShards.has };
    const { manifest, parts, reused } = run.withServed((served) => writeShards(served, folderShards.put, reuse));
    const replaced = folderShards.replaced();
    if (replaced.length > 0) target.warnings.push(`shards that were not their key's bytes, written again: ${replaced.join(', ')}`);
    const measured = measureFunctions(manifest, run.of('served').cityDays);
    measured.catch(() => {}); // awaited by the measure step
    return { manifest, parts, reused, written: folderShards.written(), measured };
  },
});
