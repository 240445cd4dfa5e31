/** The store snapshots' test bench: a real BlobsServer on loopback, and what a store file holds. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll } from 'vitest';
import { openStore } from '../../src/store/store.js';

export type SnapshotBlobs = ReturnType<typeof getStore>;

/** A BlobsServer for the file's tests; the function gives the site-wide store of that name on it. */
export function useSnapshotBlobs(): (name?: string) => SnapshotBlobs {
  const scratch = mkdtempSync(join(tmpdir(), 'snapshot-blobs-'));
  let server: BlobsServer | undefined;
  let edgeURL = '';
  beforeAll(async () => {
    server = new BlobsServer({ directory: scratch, token: 'tok', logger: () => {} });
    edgeURL = `http://127.0.0.1:${(await server.start()).port}`;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });
  return (name = 'pollen-snapshots') => getStore({ name, siteID: 'site', token: 'tok', edgeURL });
}

/** What a store file holds, WAL included (a reader never folds the WAL back): its counts and checksum. */
export function held(path: string): { counts: Record<string, number>; checksum: string } {
  const store = openStore(path, { readonly: true });
  try {
    return { counts: store.checks.counts(), checksum: store.checks.checksum() };
  } finally {
    store.close();
  }
}
