/**
 * The publish folder is a symbolic link to the render it serves, swapped with one rename, so a
 * reader (the local server, a deploy) sees the old render or the new one, never half of either.
 */
import { existsSync, lstatSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A plain folder at `publishDir` (not yet a link to a render) is moved among the renders, so the link can take its place. */
export function adoptPlainFolder(publishDir: string, rendersDir: string): void {
  if (existsSync(publishDir) && !lstatSync(publishDir).isSymbolicLink()) renameSync(publishDir, join(rendersDir, `adopted-${Date.now()}`));
}

/** Points `publishDir` at `folder` with one rename, which replaces the old link atomically. */
export function swap(publishDir: string, folder: string): void {
  const link = `${publishDir}.next-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(publishDir), folder), link, 'dir');
  renameSync(link, publishDir);
}
