/**
 * `build render`: every enumerable answer written to a fresh folder, which then replaces the
 * served one in a single atomic rename of the `publish` symlink. A killed render leaves the
 * previous folder whole and served. Files whose bytes did not change are hard-linked from the
 * previous render instead of being written again.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative } from 'node:path';
import { storeContext } from '../api/context.js';
import { respond } from '../api/http.js';
import { fileFor, ROUTES, type Params } from '../api/routes.js';
import type { DailyPollen } from '../domain/pollen-rows.js';
import type { Store } from '../store/store.js';
import { SITE_FILES, siteFiles } from '../site/build.js';
import { codeFingerprint, diff, emptyChanges, type RenderState } from './changes.js';
import { redirectsFile } from './redirects.js';

export interface RenderSummary {
  files: number;
  bytes: number;
  /** Files new or changed since the previous render, relative to the publish folder. */
  written: string[];
  unchanged: number;
  /** Files of the previous render that no longer exist. */
  removed: number;
  seconds: number;
  folder: string;
}

/** Renders the store into `publishDir` (a symlink to the current render). */
export async function render(store: Store, publishDir: string): Promise<RenderSummary> {
  const started = performance.now();
  const rendersDir = `${publishDir}.renders`;
  mkdirSync(rendersDir, { recursive: true });
  const previous = currentRender(publishDir, rendersDir);
  const folder = join(rendersDir, `r${Date.now()}-${process.pid}`);
  mkdirSync(folder);

  const summary: RenderSummary = { files: 0, bytes: 0, written: [], unchanged: 0, removed: 0, seconds: 0, folder };
  const made = new Set<string>();
  const written = new Set<string>();
  /** The path of a file in the new folder, its folder created once; the file counts as rendered. */
  const place = (file: string, size: number): string => {
    written.add(file);
    const path = join(folder, file);
    const dir = dirname(path);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
    summary.files++;
    summary.bytes += size;
    return path;
  };
  /** Links the previous render's copy of a file into the new folder, unchanged. */
  const link = (old: string, file: string, size: number) => {
    linkSync(old, place(file, size));
    summary.unchanged++;
  };
  const put = (file: string, body: string | Uint8Array) => {
    const bytes = Buffer.from(body);
    const old = previous && join(previous, file);
    if (old && existsSync(old) && readFileSync(old).equals(bytes)) return link(old, file, bytes.length);
    writeFileSync(place(file, bytes.length), bytes);
    summary.written.push(file);
  };

  // Files whose answers cannot have changed since the previous render are linked, not computed.
  const statePath = `${publishDir}.state.json`;
  const state: RenderState = { code: codeFingerprint(SRC_DIR), fetched: Object.fromEntries(store.fetchTimes()) };
  const before = previous ? readJson<RenderState>(statePath) : undefined;
  const changes = before && before.code === state.code ? diff(new Map(Object.entries(before.fetched)), new Map(Object.entries(state.fetched))) : emptyChanges(false);
  const keep = (file: string): boolean => {
    const old = previous && join(previous, file);
    const stat = old ? statSync(old, { throwIfNoEntry: false }) : undefined;
    if (!old || !stat) return false;
    link(old, file, stat.size);
    return true;
  };

  // Daily rows of unchanged city-days come from the previous render (keys carry the fetch time).
  const memoPath = `${publishDir}.daily-rows.json`;
  const previousMemo = changes.known ? readJson<Record<string, DailyPollen>>(memoPath) : undefined;
  const dailyRows = new Map(Object.entries(previousMemo ?? {}));
  const ctx = storeContext(store, dailyRows);
  for (const route of ROUTES) {
    for (const form of route.forms) {
      for (const params of form.enumerate(store)) {
        const file = fileFor(form, params);
        if (changes.known && form.changesWith && !form.changesWith(params, changes) && keep(file)) continue;
        const answer = await respond({ method: 'GET', path: route.path, query: new URLSearchParams(params as Params) }, ctx);
        if (answer.status === 200 && typeof answer.body === 'string') put(file, answer.body);
      }
    }
  }
  put('_redirects', redirectsFile());
  // The landing page depends on the code alone.
  if (!changes.known || !SITE_FILES.every(keep)) for (const [file, body] of await siteFiles()) put(file, body);

  if (previous) summary.removed = listFiles(previous).filter((f) => !written.has(f)).length;
  swap(publishDir, folder);
  writeFileSync(`${statePath}.next`, JSON.stringify(state));
  renameSync(`${statePath}.next`, statePath);
  const live = new Set(Object.entries(state.fetched).filter(([k]) => k.startsWith('pollen|')).map(([k, t]) => `${k.slice('pollen|'.length)}|${t}`));
  writeFileSync(`${memoPath}.next`, JSON.stringify(Object.fromEntries([...dailyRows].filter(([k]) => live.has(k)))));
  renameSync(`${memoPath}.next`, memoPath);
  for (const name of readdirSync(rendersDir)) {
    if (join(rendersDir, name) !== folder) rmSync(join(rendersDir, name), { recursive: true, force: true });
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

const SRC_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A JSON file written by an earlier render, or undefined when missing or unreadable. */
function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The folder `publishDir` serves now, moving a plain folder into `rendersDir` first. */
function currentRender(publishDir: string, rendersDir: string): string | undefined {
  if (!existsSync(publishDir)) return undefined;
  if (lstatSync(publishDir).isSymbolicLink()) return realpathSync(publishDir);
  const moved = join(rendersDir, `adopted-${Date.now()}`);
  renameSync(publishDir, moved);
  return moved;
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
  const byFolder = new Map<string, number>();
  for (const f of s.written) byFolder.set(dirname(f), (byFolder.get(dirname(f)) ?? 0) + 1);
  const lines = [
    `rendered ${s.files} files (${(s.bytes / 1e6).toFixed(1)} MB) in ${s.seconds.toFixed(1)} s into ${basename(s.folder)}: ` +
      `${s.written.length} written (new or changed), ${s.unchanged} unchanged, ${s.removed} removed`,
  ];
  if (s.unchanged > 0 || s.written.length <= 50) {
    for (const [folder, n] of [...byFolder].sort()) lines.push(`  written in ${folder}/: ${n}${n <= 3 ? ` (${s.written.filter((f) => dirname(f) === folder).map((f) => basename(f)).join(', ')})` : ''}`);
  }
  return lines.join('\n') + '\n';
}
