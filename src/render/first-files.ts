/**
 * The files a site needs before its render is done: the landing page (not yet its API reference
 * page, which Redoc takes seconds to make), `_redirects`, and the answers made once (the city
 * list, the dates, OpenAPI, llms.txt). With them in place every other answer is a function's,
 * from the same handlers (the fallback answers a missing file), so a server can answer at once
 * while the full render works, and serve its files when it swaps in.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROUTES } from '../api/routes.js';
import { FileWriter } from '../output/file-writer.js';
import { siteFiles } from '../site/build.js';
import type { Store } from '../store/store.js';
import { storeContext } from '../wiring/contexts.js';
import { adoptPlainFolder, siteOf, swap } from './publish-link.js';
import { redirectsFile } from './redirects.js';
import { renderOrReuse } from './unit-files.js';

/** Publishes the first files of `store` at `publishDir`; the number of files written. */
export async function publishFirstFiles(store: Store, publishDir: string): Promise<number> {
  const publish = resolve(publishDir);
  const rendersDir = `${publish}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  adoptPlainFolder(publish, rendersDir);
  const generation = join(rendersDir, `first-${Date.now()}-${process.pid}`);
  const folder = siteOf(generation);
  mkdirSync(folder, { recursive: true });
  const out = new FileWriter(folder);
  out.put('_redirects', redirectsFile(store.cities.set().slugs));
  for (const [file, body] of await siteFiles({ reference: false })) out.put(file, body);
  await renderOrReuse({ unit: { kind: 'once' } }, ROUTES, storeContext(store), out, undefined, undefined);
  swap(publish, rendersDir, generation);
  return out.written.files;
}
