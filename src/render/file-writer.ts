/** The render's file writer: files under a folder, counted, and for the render cache each with its SHA-256. */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Written {
  files: number;
  bytes: number;
  /** Of the files, those written anew (the others are hard links to the render cache's). */
  made: number;
}

/** Writes files under a folder, creating each folder once; records the files of a unit with their SHA-256. */
export class FileWriter {
  readonly written: Written = { files: 0, bytes: 0, made: 0 };
  private readonly made = new Set<string>();
  private recorded: Record<string, string> | undefined;

  constructor(readonly folder: string) {}

  /** Counts a file put in the folder by other means (a hard link to the render cache). */
  count(bytes: number): void {
    this.written.files++;
    this.written.bytes += bytes;
  }

  put(file: string, body: string | Uint8Array): void {
    const path = join(this.folder, file);
    const dir = dirname(path);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    writeFileSync(path, body);
    this.written.made++;
    this.count(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    if (this.recorded) this.recorded[file] = createHash('sha256').update(body).digest('hex');
  }

  /** The files `write` puts, with their SHA-256. */
  async record(write: () => Promise<void>): Promise<Record<string, string>> {
    this.recorded = {};
    try {
      await write();
      return this.recorded;
    } finally {
      this.recorded = undefined;
    }
  }
}
