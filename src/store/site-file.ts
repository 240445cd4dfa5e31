/**
 * The site file: what a render knows that functions without the store need (the forecast's
 * provider). Render writes it beside the store, atomically; the forecast function carries it
 * instead of the store.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SiteFile {
  /** The provider of the newest stored day, or null for an empty store. */
  provider: string | null;
}

/** Where the site file of the store at `dbPath` lives. */
export const siteFilePath = (dbPath: string): string => join(dirname(dbPath), 'site.json');

/** Writes the site file with one rename, so a reader never sees half of it. */
export function writeSiteFile(path: string, site: SiteFile): void {
  writeFileSync(`${path}.next`, `${JSON.stringify(site)}\n`);
  renameSync(`${path}.next`, path);
}

/** The site file at `path`, or undefined when there is none. */
export function readSiteFile(path: string): SiteFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SiteFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
