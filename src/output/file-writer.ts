/** The render's file writer: files under a folder, counted, and for the render cache each with what it recorded of them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type FileRecord, recordOf } from './file-records.js';

export interface Written {
  files: number;
  bytes: number;
  /** Of the files, those written anew (the others are hard links to the render cache's). */
  made: number;
}

/** Writes files under a folder, creating each folder once; records the files of a unit or month for the render cache. */
export class FileWriter {
  readonly written: Written = { files: 0, bytes: 0, made: 0 };
  private readonly made = new Set<string>();
  private recorded: Map<string, FileRecord> | undefined;

  constructor(readonly folder: string) {}

  /** Counts a file put in the folder by other means: a hard link to the render cache's, or one `made` anew elsewhere. */
  count(bytes: number, made = false): void {
    this.written.files++;
    this.written.bytes += bytes;
    if (made) this.written.made++;
  }

  put(file: string, body: string | Uint8Array): void {
    const path = join(this.folder, file);
    const dir = dirname(path);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    writeFileSync(path, body);
    this.count(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, true);
    this.recorded?.set(file, recordOf(path, body));
  }

  /** What `write` returns, each file it puts recorded in `records` (SHA-256, size, inode and time). */
  async recording<T>(records: Map<string, FileRecord>, write: () => Promise<T>): Promise<T> {
    this.recorded = records;
    try {
      return await write();
    } finally {
      this.recorded = undefined;
    }
  }
}
