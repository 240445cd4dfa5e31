/**
 * What a render leaves beside the store for the functions, in the folder `served` (a link to the
 * render served, render/publish-link.ts, so that they all change at once): the site file (the
 * forecast's provider, the city set and the allergens, so the forecast function carries it instead
 * of the store), the served store (the last SERVE_DAYS days, what every other function opens), the
 * bulk index, the outlook and the shards manifest.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CityEntry } from '../domain/cities.js';
import type { Allergen } from '../domain/species/allergens.js';

export interface SiteFile {
  /** The provider of the newest stored day, or null for an empty store. */
  provider: string | null;
  /** The cities served. */
  cities: CityEntry[];
  /** The allergens the store holds (what `/api/alerts?species=` may name); absent in a site file older than them. */
  allergens?: Allergen[];
}

/** The folder of what the render served left beside the store at `dbPath`: a link to it. */
export const servedDirPath = (dbPath: string): string => join(dirname(dbPath), 'served');

/** Where the site file of the store at `dbPath` lives. */
export const siteFilePath = (dbPath: string): string => join(servedDirPath(dbPath), 'site.json');

/** Where the render cache of the store at `dbPath` lives by default: the previous build's reusable output. */
export const renderCachePath = (dbPath: string): string => join(dirname(dbPath), 'render-cache');

/** Where the served store of the store at `dbPath` lives. */
export const servedStorePath = (dbPath: string): string => join(servedDirPath(dbPath), 'serve.db');

/** Writes a JSON file beside the store with one rename, so a reader never sees half of it. */
export function writeJsonFile(path: string, value: unknown): void {
  // A name of its own, made once, created anew (`wx` refuses anything there, a link included),
  // then renamed over the file: a reader sees the old file or the new one, never half of one.
  const next = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(next, `${JSON.stringify(value)}\n`, { flag: 'wx' });
    renameSync(next, path);
  } catch (error) {
    rmSync(next, { force: true });
    throw error;
  }
}

/** The JSON file at `path`, or undefined when there is none. */
export function readJsonFile<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export const writeSiteFile = (path: string, site: SiteFile): void => writeJsonFile(path, site);
export const readSiteFile = (path: string): SiteFile | undefined => readJsonFile<SiteFile>(path);
