/**
 * The store's history between scheduled builds lives in Netlify Blobs (a site-wide store, kept
 * until deleted, not tied to a deploy): pulled before ingest, pushed after. A push never replaces
 * a snapshot with one holding fewer hourly rows, and keeps a dated copy of the last seven days.
 * A snapshot is the whole store: the store's file alone lacks what its WAL holds (all of a killed
 * ingest's work since the last checkpoint), so push uploads a copy SQLite makes through a reader,
 * and pull never leaves the old store's WAL beside the new file, where SQLite would replay it.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { getStore } from '@netlify/blobs';
import { settingsOf } from '../settings.js';
import { openStore } from './store.js';

type BlobStore = ReturnType<typeof getStore>;

export const SNAPSHOT_KEY = 'pollen.db';
const KEEP_DATED = 7;

/** The snapshot store of a site, from NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN. */
export const snapshotStore = (env: NodeJS.ProcessEnv = process.env): BlobStore => siteBlobs('pollen-snapshots', env);

/** A site-wide Blobs store of the site NETLIFY_SITE_ID names, reached with NETLIFY_AUTH_TOKEN (from outside Netlify: the scheduled rebuild). */
export function siteBlobs(name: string, env: NodeJS.ProcessEnv = process.env): BlobStore {
  const { NETLIFY_SITE_ID: siteID, NETLIFY_AUTH_TOKEN: token } = settingsOf(env);
  if (!siteID || !token) throw new Error(`NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN must be set to reach the site's Blobs store ${name}`);
  return getStore({ name, siteID, token, consistency: 'strong' });
}

/** Removes what SQLite keeps beside the store file at `path`: its WAL, its WAL's index, its rollback journal. */
const removeSideFiles = (path: string): void => {
  for (const file of [`${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
};

/** Removes the store file at `path` and what SQLite keeps beside it. */
const removeFiles = (path: string): void => {
  rmSync(path, { force: true });
  removeSideFiles(path);
};

/** Writes `bytes` to `path` and waits for the disk, so that a rename of it never exposes a partial file. */
function writeDurably(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The hourly rows the store file at `path` holds, once it passes SQLite's integrity check. */
function soundRows(path: string, what: string): number {
  const store = openStore(path, { readonly: true });
  try {
    const ok = store.checks.integrity();
    if (ok !== 'ok') throw new Error(`${what} fails its integrity check: ${ok}`);
    return store.checks.counts().hours!;
  } finally {
    store.close();
  }
}

/**
 * Downloads the snapshot beside `path`, checks it (sound, and holding the hourly rows its metadata
 * says), then puts it in place of the store: false when there is none yet.
 */
export async function pullSnapshot(blobs: BlobStore, path: string): Promise<boolean> {
  const found = await blobs.getWithMetadata(SNAPSHOT_KEY, { type: 'arrayBuffer' });
  if (found === null) return false;
  const partial = `${path}.pull-${process.pid}`;
  try {
    writeDurably(partial, new Uint8Array(found.data));
    const rows = soundRows(partial, 'the downloaded snapshot');
    const said = found.metadata.hourlyRows;
    if (said !== undefined && rows !== Number(said))
      throw new Error(
        `the downloaded snapshot holds ${rows} hourly rows where its metadata says ${String(said)}: it is not the store that was pushed`,
      );
    // The old store's WAL and journal would be replayed into the new file ("database disk image is malformed").
    removeSideFiles(path);
    renameSync(partial, path);
    return true;
  } finally {
    removeFiles(partial); // nothing left behind after a failure (after success the file is already renamed)
  }
}

/**
 * Uploads a copy of the store at `path`, WAL included, refusing one that has lost rows. Returns
 * the hourly rows the uploaded file holds.
 */
export async function pushSnapshot(blobs: BlobStore, path: string, today: string): Promise<number> {
  const copy = `${path}.push-${process.pid}`;
  removeFiles(copy);
  try {
    const store = openStore(path, { readonly: true });
    try {
      await store.backupTo(copy);
    } finally {
      store.close();
    }
    const rows = soundRows(copy, 'the store');
    const previous = await blobs.getMetadata(SNAPSHOT_KEY);
    const before = Number(previous?.metadata.hourlyRows ?? 0);
    if (rows < before) throw new Error(`refusing to replace a snapshot of ${before} hourly rows with one of ${rows}`);
    const bytes = readFileSync(copy);
    const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    await blobs.set(`daily/${today}.db`, body, { metadata: { hourlyRows: rows } });
    await blobs.set(SNAPSHOT_KEY, body, { metadata: { hourlyRows: rows, pushedOn: today } });
    const { blobs: dated } = await blobs.list({ prefix: 'daily/' });
    for (const old of dated
      .map((b) => b.key)
      .sort()
      .slice(0, -KEEP_DATED))
      await blobs.delete(old);
    return rows;
  } finally {
    removeFiles(copy);
  }
}
