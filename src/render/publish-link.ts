/**
 * Everything a render publishes is one generation: a folder among the renders (`<publish>.renders`)
 * holding `site/`, the files the publish folder serves, and `served/`, what the functions read
 * beside the store (the site file, the bulk index, the outlook, the shards manifest and the
 * served store). One link, `<publish>.renders/current`, names the generation served, and is
 * swapped with one rename; `publish` is a link to `current/site`, and `served` beside the store a
 * link to `current/served`. A reader through either sees the old render or the new one, never
 * parts of both, whenever a render is killed.
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { processAlive } from '../deploy-data/leftovers.js';
import { kindAt } from '../deploy-data/safe-files.js';

/** The link that names the generation served. */
export const CURRENT = 'current';
/** A generation's publish folder, and its files beside the store. */
export const siteOf = (generation: string): string => join(generation, 'site');
export const servedOf = (generation: string): string => join(generation, 'served');

/** A plain folder at `publishDir` (not yet a link to a render) is moved among the renders, so the link can take its place. */
export function adoptPlainFolder(publishDir: string, rendersDir: string): void {
  if (existsSync(publishDir) && !lstatSync(publishDir).isSymbolicLink()) renameSync(publishDir, join(rendersDir, `adopted-${Date.now()}`));
}

/** The name a link is made under before it is renamed into place (its group: the process that made it). */
export const LINK_LEFTOVER = /^.+\.next-(\d+)$/;

/** Makes `link` a symbolic link to `target` (relative to the link's folder) with one rename, unless it is one already. */
export function linkTo(link: string, target: string): void {
  const text = relative(dirname(link), target);
  try {
    if (readlinkSync(link) === text) return;
  } catch {
    // No link there yet, or something else: the rename below replaces a file or a link.
  }
  const next = `${link}.next-${process.pid}`;
  rmSync(next, { force: true });
  symlinkSync(text, next, 'dir');
  renameSync(next, link);
}

/**
 * Serves `generation`: `current` swapped to it, the one change a reader can see; then `publish`,
 * and where a render leaves them `served` beside the store, linked through `current` (done once:
 * after that they stay as they are).
 */
export function swap(publishDir: string, rendersDir: string, generation: string, servedLink?: string): void {
  const current = join(rendersDir, CURRENT);
  linkTo(current, generation);
  linkTo(publishDir, siteOf(current));
  if (servedLink) linkTo(servedLink, servedOf(current));
}

/** The name of the generation served now among `rendersDir`, if any. */
export function servedGeneration(rendersDir: string): string | undefined {
  try {
    return basename(readlinkSync(join(rendersDir, CURRENT)));
  } catch {
    return undefined;
  }
}

/**
 * Removes what `rendersDir` holds besides `current`, the generation served and the one before it:
 * older generations, and those of killed renders; a render still running keeps its own (its name
 * ends in its process id). Of the one before, only its files beside the store stay, for a reader
 * that resolved them before the swap, until the next render.
 */
export function removeOlderGenerations(rendersDir: string, served: string, previous: string | undefined): void {
  for (const name of readdirSync(rendersDir)) {
    if (name === CURRENT || name === basename(served)) continue;
    const path = join(rendersDir, name);
    // The one before was served: whole, whoever made it (a server that wrote the first files still runs).
    if (name === previous) {
      rmSync(kindAt(servedOf(path)) === 'folder' ? siteOf(path) : path, { recursive: true, force: true });
      continue;
    }
    const pid = /-(\d+)$/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && processAlive(Number(pid))) continue;
    rmSync(path, { recursive: true, force: true });
  }
}
