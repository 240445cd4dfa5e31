/**
 * The bulk files' manifest (`/data/bulk/index.json`), which a render also leaves beside the store
 * so that the MCP function, which carries no publish folder, can give it (`get_bulk_files`).
 */
import { join } from 'node:path';
import type { BulkColumn, BulkManifest } from '../domain/schemas.js';
import { readJsonFile, servedDirPath, writeJsonFile } from './site-file.js';

export type { BulkColumn, BulkKind, BulkManifest } from '../domain/schemas.js';

/** One file of the manifest: its URL path, month, rows, bytes, SHA-256 and columns. */
export type BulkFile = BulkManifest['files'][number];
export type BulkFormat = BulkFile['format'];
export type BulkType = BulkColumn['type'];

/** Where the manifest of the store at `dbPath` is left for the functions. */
export const bulkIndexPath = (dbPath: string): string => join(servedDirPath(dbPath), 'bulk-index.json');

export const writeBulkIndex = (path: string, manifest: BulkManifest): void => writeJsonFile(path, manifest);
/** The manifest at `path`, or undefined when no render has written one. */
export const readBulkIndex = (path: string): BulkManifest | undefined => readJsonFile<BulkManifest>(path);
