/**
 * The bulk files' manifest (`/data/bulk/index.json`), which a render also leaves beside the store
 * so that the MCP function, which carries no publish folder, can give it (`get_bulk_files`).
 */
import { dirname, join } from 'node:path';
import { readJsonFile, writeJsonFile } from './site-file.js';

export type BulkKind = 'pollen-hourly' | 'pollen-daily' | 'weather-daily';
export type BulkFormat = 'parquet' | 'csv.gz';
export type BulkType = 'STRING' | 'TIMESTAMP' | 'DATE' | 'DOUBLE' | 'INT32';

/** One column of a kind's files: what it holds, and for a species where the provider puts it. */
export interface BulkColumn {
  name: string;
  type: BulkType;
  nullable: boolean;
  unit?: string;
  description: string;
  /** A species column: the provider's category, and allergen name when the category has several. */
  provider?: { category: string; name?: string };
}

export interface BulkFile {
  /** The URL path on the deployment. */
  path: string;
  kind: BulkKind;
  format: BulkFormat;
  /** YYYY-MM (UTC). */
  month: string;
  rows: number;
  bytes: number;
  sha256: string;
  /** Column names, in order: every file of a kind has the kind's columns. */
  columns: string[];
}

export interface BulkManifest {
  /** The served store's days, first and last (UTC). */
  from: string | null;
  to: string | null;
  kinds: Record<BulkKind, { description: string; columns: BulkColumn[] }>;
  files: BulkFile[];
}

/** Where the manifest of the store at `dbPath` is left for the functions. */
export const bulkIndexPath = (dbPath: string): string => join(dirname(dbPath), 'bulk-index.json');

export const writeBulkIndex = (path: string, manifest: BulkManifest): void => writeJsonFile(path, manifest);
/** The manifest at `path`, or undefined when no render has written one. */
export const readBulkIndex = (path: string): BulkManifest | undefined => readJsonFile<BulkManifest>(path);
