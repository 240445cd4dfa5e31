/**
 * The outlook file a render leaves beside the store (`outlook.json`): each city's outlook served
 * now, by category (domain/verification/forecast-skill.ts), which the forecast function carries instead of the
 * store, to answer /api/forecast?days= and /api/alerts' outlook days.
 */
import { join } from 'node:path';
import type { ServedOutlook } from '../domain/verification/skill-schemas.js';
import { readJsonFile, servedDirPath, writeJsonFile } from './site-file.js';

export interface OutlookFile {
  /** The day the outlooks were issued (the day after the latest data day), or null without data. */
  issued: string | null;
  /** The provider of the days they are made from. */
  provider: string | null;
  /** Each city's outlook of each category (tree, grass, weed, ragweed). */
  cities: Record<string, Record<string, ServedOutlook>>;
}

/** Where the outlook file of the store at `dbPath` lives. */
export const outlookFilePath = (dbPath: string): string => join(servedDirPath(dbPath), 'outlook.json');

export const writeOutlookFile = (path: string, file: OutlookFile): void => writeJsonFile(path, file);
/** The outlook file at `path`, or undefined when no render has written one. */
export const readOutlookFile = (path: string): OutlookFile | undefined => readJsonFile<OutlookFile>(path);
