/**
 * Puts a render in place once its steps have run: the site file, the bulk index, the outlook and
 * the shards' manifest written into its folder beside its served store, then the whole generation
 * served with one swap (publish-link.ts), the render cache kept, the older generations removed.
 */
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { bulkIndexPath, writeBulkIndex } from '../deploy-data/bulk-index.js';
import { outlookFilePath, writeOutlookFile } from '../deploy-data/outlook-file.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { publishShards, shardFolderPath, shardManifestPath } from '../deploy-data/shard-folder.js';
import { siteFilePath, writeSiteFile } from '../deploy-data/site-file.js';
import { allergensOf } from '../domain/species/allergens.js';
import { RenderCache } from './cache/render-cache.js';
import { removeOlderGenerations, servedGeneration, swap } from './publish-link.js';
import type { RenderRun } from './render-run.js';

export function publishRender(run: RenderRun): void {
  const { store, target } = run;
  const at = (path: string) => join(target.served, basename(path));
  writeSiteFile(at(siteFilePath(store.path)), {
    provider: store.pollen.latestSource(),
    cities: store.cities.set().list.map(({ region: _r, ...entry }) => entry),
    allergens: allergensOf(store.shapes.all()),
  });
  writeBulkIndex(at(bulkIndexPath(store.path)), run.of('manifest').manifest);
  writeOutlookFile(at(outlookFilePath(store.path)), run.of('skills').outlooks);
  const manifest = shardManifestPath(store.path);
  target.warnings.push(...publishShards(manifest, at(manifest), shardFolderPath(store.path), run.of('shards').manifest));
  const previous = servedGeneration(target.rendersDir);
  swap(target.publish, target.rendersDir, target.generation, target.servedLink);
  keepCache(run);
  removeOlderGenerations(target.rendersDir, target.generation, previous);
  // What renders wrote beside the store before its files had a folder of their own (a served store: 11 MB at 40 cities).
  for (const name of BESIDE_BEFORE) {
    const path = join(dirname(store.path), name);
    if (kindAt(path) === 'file') rmSync(path);
  }
}

const BESIDE_BEFORE = ['site.json', 'bulk-index.json', 'outlook.json', 'shards.json', 'shards.previous.json', 'serve.db'];

/** The render's output kept for the next; the render is served already, so a cache that could not be kept only makes the next render a full one. */
function keepCache(run: RenderRun): void {
  const { target } = run;
  if (!target.cacheDir) return;
  const skills = run.of('skills');
  const years = skills.plan.nextDir === undefined ? undefined : { dir: skills.plan.nextDir, sha256: skills.years };
  const tasks = run.of('tasks');
  try {
    RenderCache.save(target.cacheDir, {
      folder: target.folder,
      code: target.code,
      key: target.cacheKey,
      reuse: target.reuse,
      units: tasks.units,
      records: tasks.records,
      skills: years,
      shards: run.of('shards').parts,
    });
  } catch (error) {
    rmSync(join(target.cacheDir, 'state.json'), { force: true });
    if (years) rmSync(years.dir, { recursive: true, force: true });
    target.warnings.push(`the render cache could not be kept (${(error as Error).message}); the next render renders everything`);
  }
}
