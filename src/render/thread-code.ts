/**
 * The code the render's threads run. A thread does not inherit the TypeScript loader of the
 * thread that starts it: registering tsx in each one starts a loader thread of its own and
 * transforms every module again, which cost each thread about 0.9 CPU-seconds and 40 MB more
 * than the same modules bundled into one file (docs/performance.md, B1's peak RSS). So the
 * threads' entries are bundled by esbuild, once for each version of the code (its digest names
 * the folder), under node_modules/.cache, where the libraries they leave external resolve as
 * they do from src/. Where that folder cannot be written, the threads load the sources
 * through tsx as before (worker-boot.mjs), and the render says so.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

/** The modules a render thread starts from: the unit worker, the forecast-skill step. */
export type ThreadEntry = 'worker' | 'skills-worker';
const ENTRIES: readonly ThreadEntry[] = ['worker', 'skills-worker'];

/** How to start each kind of render thread: the module and its argv; and why the bundle is not used, if it is not. */
export interface ThreadCode {
  start: (entry: ThreadEntry) => { url: URL; argv: string[] };
  warning?: string;
}

const HERE = new URL('.', import.meta.url);
/** Where the bundles are kept: bare imports from there resolve in the project's node_modules. */
export const THREAD_CACHE = fileURLToPath(new URL('../../node_modules/.cache/pollen-api/', HERE));

/** The threads' bundle for the code whose digest is `code`, made in `cache` if it is not there yet. */
export function threadCode(code: string, cache = THREAD_CACHE): ThreadCode {
  const name = `render-threads-${code.slice(0, 16)}`;
  const folder = join(cache, name);
  try {
    if (!existsSync(join(folder, 'worker.mjs'))) bundle(folder);
    pruneOthers(cache, name);
    return { start: (entry) => ({ url: pathToFileURL(join(folder, `${entry}.mjs`)), argv: [] }) };
  } catch (error) {
    return {
      start: (entry) => ({ url: new URL('./worker-boot.mjs', HERE), argv: [`./${entry}.ts`] }),
      warning: `the render threads' code could not be bundled under ${cache} (${(error as Error).message}); they load it through tsx, which is slower`,
    };
  }
}

/** Bundles the entries into a folder of their own, then renames it into place: a render beside this one sees all of it or none. */
function bundle(folder: string): void {
  const staging = `${folder}.${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    buildSync({
      entryPoints: ENTRIES.map((entry) => ({ in: fileURLToPath(new URL(`./${entry}.ts`, HERE)), out: entry })),
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    });
    renameSync(staging, folder);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another render put the same bundle in place first.
    if (existsSync(join(folder, 'worker.mjs'))) return;
    throw error;
  }
}

/** Removes the bundles of other versions of the code, which no render of this one starts. */
function pruneOthers(cache: string, keep: string): void {
  for (const name of readdirSync(cache)) {
    if (name !== keep && name.startsWith('render-threads-') && !name.includes('.'))
      rmSync(join(cache, name), { recursive: true, force: true });
  }
}
