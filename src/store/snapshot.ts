/**
 * The store's history between scheduled builds lives in Netlify Blobs (a site-wide store, kept
 * until deleted, not tied to a deploy): pulled before ingest, pushed after. A push never replaces
 * a snapshot with one holding fewer hourly rows, and keeps a dated copy of the last seven days.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** Downloads the snapshot to `path` (atomically); false when there is none yet. */
export async function pullSnapshot(blobs: BlobStore, path: string): Promise<boolean> {
  const data = await blobs.get(SNAPSHOT_KEY, { type: 'arrayBuffer' });
  if (data === null) return false;
  const partial = `${path}.pull-${process.pid}`;
  try {
    writeFileSync(partial, Buffer.from(data));
    const check = openStore(partial, { readonly: true });
    const ok = check.checks.integrity();
    check.close();
    if (ok !== 'ok') throw new Error(`the downloaded snapshot fails its integrity check: ${ok}`);
    renameSync(partial, path);
    return true;
  } finally {
    rmSync(partial, { force: true }); // nothing left behind after a failure (after success it is already renamed)
  }
}

/** Uploads the store at `path`, refusing one that has lost rows. Returns the rows it holds. */
export async function pushSnapshot(blobs: BlobStore, path: string, today: string): Promise<number> {
  const store = openStore(path, { readonly: true });
  const rows = store.checks.counts().hours!;
  const ok = store.checks.integrity();
  store.close();
  if (ok !== 'ok') throw new Error(`the store fails its integrity check: ${ok}`);
  const previous = await blobs.getMetadata(SNAPSHOT_KEY);
  const before = Number(previous?.metadata.hourlyRows ?? 0);
  if (rows < before) throw new Error(`refusing to replace a snapshot of ${before} hourly rows with one of ${rows}`);
  const bytes = readFileSync(path);
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
}
