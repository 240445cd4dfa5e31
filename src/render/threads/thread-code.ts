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
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

/** The modules a render thread starts from, beside this one: the unit worker, the scoring step's (src/scoring). */
const SOURCES = { worker: './worker.ts', 'scoring-worker': '../../scoring/scoring-worker.ts' } as const;
export type ThreadEntry = keyof typeof SOURCES;
const ENTRIES = Object.keys(SOURCES) as ThreadEntry[];

/** How to start each kind of render thread: the module and its argv; and why the bundle is not used, if it is not. */
export interface ThreadCode {
  start: (entry: ThreadEntry) => { url: URL; argv: string[] };
  warning?: string;
}

const HERE = new URL('.', import.meta.url);
/** Where the bundles are kept: bare imports from there resolve in the project's node_modules. */
export const THREAD_CACHE = fileURLToPath(new URL('../../../node_modules/.cache/pollen-api/', HERE));

/** The threads' bundle for the code whose digest is `code`, made in `cache` if it is not there yet. */
export function threadCode(code: string, cache = THREAD_CACHE): ThreadCode {
  const name = `render-threads-${code.slice(0, 16)}`;
  const folder = join(cache, name);
  try {
    if (!complete(folder)) bundle(folder);
    // Marked as used now: a render of other code prunes only bundles no render has used lately.
    const now = new Date();
    utimesSync(folder, now, now);
  } catch (error) {
    return {
      start: (entry) => ({ url: new URL('./worker-boot.mjs', HERE), argv: [SOURCES[entry]] }),
      warning: `the render threads' code could not be bundled under ${cache} (${(error as Error).message}); they load it through tsx, which is slower`,
    };
  }
  pruneOthers(cache, name);
  return { start: (entry) => ({ url: pathToFileURL(join(folder, `${entry}.mjs`)), argv: [] }) };
}

/** Whether a bundle's folder holds every entry. */
const complete = (folder: string): boolean => ENTRIES.every((entry) => existsSync(join(folder, `${entry}.mjs`)));

/** Bundles the entries into a folder of their own, then renames it into place: a render beside this one sees all of it or none. */
function bundle(folder: string): void {
  // What a removal stopped halfway left: no render can start from it.
  rmSync(folder, { recursive: true, force: true });
  const staging = `${folder}.${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    buildSync({
      entryPoints: ENTRIES.map((entry) => ({ in: fileURLToPath(new URL(SOURCES[entry], HERE)), out: entry })),
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
    if (complete(folder)) return;
    throw error;
  }
}

/**
 * A day: a render of other code still running (its unit workers start minutes after its first
 * thread) keeps its bundle, and a checkout's older versions do not pile up.
 */
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * Removes other versions' bundles (and folders left by a bundling that died) that no render has
 * used for a day. Best effort: what cannot be removed now is tried again by the next render.
 */
function pruneOthers(cache: string, keep: string): void {
  const before = Date.now() - UNUSED_FOR_MS;
  for (const name of readdirSync(cache)) {
    if (name === keep || !name.startsWith('render-threads-')) continue;
    try {
      if (statSync(join(cache, name)).mtimeMs < before) rmSync(join(cache, name), { recursive: true, force: true });
    } catch {
      // Removed by another render meanwhile, or not ours to remove: either way nothing to do here.
    }
  }
}
