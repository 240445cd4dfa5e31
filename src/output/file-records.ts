/**
 * What the build records of a file it writes, so that a later build can tell whether the file is
 * still what it wrote (render/cache/render-cache.ts checks each reused file against its record).
 */
import { createHash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';

/**
 * What was recorded of a file when it was written: its SHA-256 and size, and the inode and
 * modification time (ns) it had, with whether those alone vouch for it (`settled`).
 */
export type FileRecord = [sha256: string, bytes: number, ino: string, mtimeNs: string, settled: boolean];

/** A file's stat with nanosecond times, or undefined when it is missing or not a plain file. */
export function statOf(path: string): (Stats & { mtimeNs: bigint; ino: bigint; size: bigint }) | undefined {
  try {
    const st = lstatSync(path, { bigint: true });
    return st.isFile() ? (st as unknown as Stats & { mtimeNs: bigint; ino: bigint; size: bigint }) : undefined;
  } catch {
    return undefined;
  }
}

/** The record of a file just written from `body`. */
export function recordOf(path: string, body: string | Uint8Array): FileRecord {
  const st = statOf(path)!;
  return [createHash('sha256').update(body).digest('hex'), Number(st.size), String(st.ino), String(st.mtimeNs), false];
}
