/**
 * Reading files a render takes in without following a link: the render cache is restored from
 * elsewhere (CI's cache store), and the shards folder and its manifest are whatever the disk holds,
 * so a symbolic link in them could send a read or a write outside their folder. A read refuses a
 * link at its path (O_NOFOLLOW); a folder must be a real one.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';

/** A file's bytes, refusing a symbolic link at its path (ELOOP) rather than following it. */
export function readNoFollow(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(size);
    for (let at = 0; at < size; ) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** What is at `path`, not following a link: a folder, a file, something else (a link), or nothing. */
export function kindAt(path: string): 'folder' | 'file' | 'other' | 'none' {
  try {
    const st = lstatSync(path);
    return st.isDirectory() ? 'folder' : st.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}
