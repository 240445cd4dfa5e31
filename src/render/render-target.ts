/** Where a render writes and with what settings, settled before any work (a bad setting fails here). */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Route } from '../api/routes.js';
import { removeLeftovers, TEMP_FILE } from '../deploy-data/leftovers.js';
import { kindAt } from '../deploy-data/safe-files.js';
import { renderCachePath, servedDirPath, servedStorePath } from '../deploy-data/site-file.js';
import { settingsOf } from '../settings.js';
import type { Store } from '../store/store.js';
import { codeDigest } from './cache/cache-files.js';
import { cacheKeyOf } from './cache/key.js';
import { CACHE_LEFTOVERS, loadCache, skillYearsDir } from './cache/render-cache.js';
import { adoptPlainFolder, LINK_LEFTOVER, servedOf, siteOf } from './publish-link.js';
import { type ThreadCode, threadCode } from './threads/thread-code.js';

export interface RenderOptions {
  /** The route list to render (in-process only); tests give one with a failing handler. */
  routes?: readonly Route[];
  /** Days the served store keeps (default `$SERVE_DAYS`, else 730). */
  serveDays?: number;
  /** Worker threads, for the forecast skill and then the units; 0 renders in this thread. Default: the cores (up to 4), for a store of some size. */
  workers?: number;
  /** The largest a function carrying the served store may be, zipped. */
  functionLimitBytes?: number;
  /** The most files the publish folder may hold (default `$DEPLOY_MAX_FILES`, else 10,000). */
  maxFiles?: number;
  /** The render cache: the previous build's reusable output (default `$RENDER_CACHE`, else beside the store). */
  cacheDir?: string;
  /** Where the threads' code is bundled (thread-code.ts; default under node_modules/.cache). */
  threadCache?: string;
  /** Refuse to render without `RENDER_CACHE_KEY` (cache-key.ts), as the scheduled rebuild asks. */
  requireCacheKey?: boolean;
}

/** Where a render writes, and with what settings. */
export interface Target {
  /** The `publish` symlink, the folder of renders it points into, and this render's generation there (publish-link.ts), with its publish folder. */
  publish: string;
  rendersDir: string;
  generation: string;
  folder: string;
  /** The link beside the store to the files the functions read; this render's folder of them, and its served store. */
  servedLink: string;
  served: string;
  nextServed: string;
  cacheDir: string | undefined;
  /** The key that signs the render cache's state (cache-key.ts). */
  cacheKey: Buffer;
  /** Where the forecast-skill step keeps each city's closed years until the render cache takes them; none without a cache. */
  nextYears: string | undefined;
  /** Whether the render cache holds output a render may reuse (checked), and why not when it was ignored. */
  reuse: boolean;
  warnings: string[];
  code: string;
  maxFiles: number;
  /** How the render's threads load their code, made when the first thread starts. */
  threads: () => ThreadCode;
}

/** The folders and settings of a render; a bad setting fails here, before any work. */
export function targetOf(store: Store, publishDir: string, options: RenderOptions): Target {
  const publish = resolve(publishDir); // `publish/` and `publish` are the same folder
  const rendersDir = `${publish}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  adoptPlainFolder(publish, rendersDir);
  removeLeftovers(rendersDir, LINK_LEFTOVER);
  removeLeftovers(dirname(publish), new RegExp(`^${basename(publish).replace(/\W/g, '\\$&')}\\.next-(\\d+)$`));
  // Beside the store: the link's, and what renders that wrote there before their generations did left (11 MB a served store at 40 cities).
  removeLeftovers(dirname(store.path), /^served\.next-(\d+)$/, /^serve\.db\.next-(\d+)$/, TEMP_FILE);
  // What the previous build made from the same inputs is reused (render-cache.ts).
  // (A route list of a test's own renders without it: the code's digest does not cover it.)
  const named = options.routes ? undefined : resolve(options.cacheDir ?? settingsOf().RENDER_CACHE ?? renderCachePath(store.path));
  const code = codeDigest();
  const cacheKey = cacheKeyOf(store.path, options.requireCacheKey);
  // A cache folder that is a link (or a file) is not used at all: nothing is read or written through it.
  const cacheDir = named !== undefined && !['folder', 'none'].includes(kindAt(named)) ? undefined : named;
  if (cacheDir) removeLeftovers(cacheDir, ...CACHE_LEFTOVERS);
  const cache = cacheDir ? loadCache(cacheDir, code, cacheKey) : {};
  const warnings = cache.warning ? [cache.warning] : [];
  if (named !== cacheDir) warnings.push(`the render cache (${named}) is not a folder but a link or another file: it is not used`);
  let threads: ThreadCode | undefined;
  const generation = join(rendersDir, `r${Date.now()}-${process.pid}`);
  return {
    publish,
    rendersDir,
    generation,
    folder: siteOf(generation),
    servedLink: servedDirPath(store.path),
    served: servedOf(generation),
    nextServed: join(servedOf(generation), basename(servedStorePath(store.path))),
    cacheDir,
    cacheKey,
    // A name no one could have placed beforehand (the folder is made with mkdir, never through a link).
    nextYears: cacheDir ? `${skillYearsDir(cacheDir)}.next-${process.pid}-${randomBytes(6).toString('hex')}` : undefined,
    reuse: cache.state !== undefined,
    warnings,
    code,
    maxFiles: options.maxFiles ?? settingsOf().DEPLOY_MAX_FILES,
    threads: () => {
      if (threads === undefined) {
        threads = threadCode(code, options.threadCache);
        if (threads.warning) warnings.push(threads.warning);
      }
      return threads;
    },
  };
}
