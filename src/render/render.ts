/**
 * `build render`: every enumerable answer written to a fresh folder, which then replaces the
 * served one in a single atomic rename of the `publish` symlink. Every enumerated request must
 * answer 200: otherwise the render fails, its folder is removed, and the previous one stays
 * served, so a deploy never ships a hole that the fallback would answer with a 500.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { storeContext } from '../api/context.js';
import { respondWith } from '../api/http.js';
import { fileFor, ROUTES, type Params, type Route } from '../api/routes.js';
import { siteFiles } from '../site/build.js';
import { siteFilePath, writeSiteFile } from '../store/site-file.js';
import type { Store } from '../store/store.js';
import { redirectsFile } from './redirects.js';

export interface RenderSummary {
  files: number;
  bytes: number;
  seconds: number;
  folder: string;
}

/** An enumerated request did not answer 200: nothing of this render is served. */
export class RenderError extends Error {}

export interface RenderOptions {
  /** The route list to render; tests give one with a failing handler. */
  routes?: readonly Route[];
}

/** Renders the store into `publishDir` (a symlink to the current render), and writes the site file beside the store. */
export async function render(store: Store, publishDir: string, options: RenderOptions = {}): Promise<RenderSummary> {
  const started = performance.now();
  const publish = resolve(publishDir); // `publish/` and `publish` are the same folder
  const rendersDir = `${publish}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  adoptPlainFolder(publish, rendersDir);
  const folder = join(rendersDir, `r${Date.now()}-${process.pid}`);
  mkdirSync(folder);

  const summary: RenderSummary = { files: 0, bytes: 0, seconds: 0, folder };
  const made = new Set<string>();
  const put = (file: string, body: string | Uint8Array) => {
    const path = join(folder, file);
    const dir = dirname(path);
    if (!made.has(dir)) (mkdirSync(dir, { recursive: true }), made.add(dir));
    writeFileSync(path, body);
    summary.files++;
    summary.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  };

  try {
    const ctx = storeContext(store);
    for (const route of options.routes ?? ROUTES) {
      for (const form of route.forms) {
        for (const params of form.enumerate(store)) {
          const query = new URLSearchParams(params as Params);
          const answer = await respondWith(route, { method: 'GET', path: route.path, query }, ctx, () => {});
          if (answer.status !== 200 || typeof answer.body !== 'string') {
            throw new RenderError(`${route.path}?${query} answered ${answer.status}${typeof answer.body === 'string' ? `: ${answer.body.slice(0, 200)}` : ''}; the previous render stays served`);
          }
          put(fileFor(form, params), answer.body);
        }
      }
    }
    put('_redirects', redirectsFile());
    for (const [file, body] of await siteFiles()) put(file, body);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }

  writeSiteFile(siteFilePath(store.path), { provider: store.latestSource() });
  swap(publish, folder);
  for (const name of readdirSync(rendersDir)) {
    if (join(rendersDir, name) !== folder) rmSync(join(rendersDir, name), { recursive: true, force: true });
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/** A plain folder at `publishDir` (not yet a link to a render) is moved among the renders, so the link can take its place. */
function adoptPlainFolder(publishDir: string, rendersDir: string): void {
  if (existsSync(publishDir) && !lstatSync(publishDir).isSymbolicLink()) renameSync(publishDir, join(rendersDir, `adopted-${Date.now()}`));
}

/** Points `publishDir` at `folder` with one rename, which replaces the old link atomically. */
function swap(publishDir: string, folder: string): void {
  const link = `${publishDir}.next-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(publishDir), folder), link, 'dir');
  renameSync(link, publishDir);
}

/** Every file below `dir`, relative to it. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** A short account of what a render wrote. */
export function formatRender(s: RenderSummary): string {
  return `rendered ${s.files} files (${(s.bytes / 1e6).toFixed(1)} MB) in ${s.seconds.toFixed(1)} s into ${basename(s.folder)}\n`;
}
