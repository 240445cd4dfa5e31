/**
 * Netlify's own Blobs server (`@netlify/blobs/server`) on loopback for a suite: started before it,
 * stopped and its folder removed after; `blobs.edgeURL` is where `getStore` reaches it (token `tok`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll } from 'vitest';

export const BLOBS_TOKEN = 'tok';

export function useBlobsServer(prefix: string): { readonly edgeURL: string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  let server: BlobsServer | undefined;
  const state = { edgeURL: '' };
  beforeAll(async () => {
    server = new BlobsServer({ directory: join(scratch, 'blobs'), token: BLOBS_TOKEN, logger: () => {} });
    state.edgeURL = `http://127.0.0.1:${(await server.start()).port}`;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });
  return state;
}
