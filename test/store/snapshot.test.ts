import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullSnapshot, pushSnapshot } from '../../src/store/snapshot.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const scratch = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
let server: BlobsServer;
let blobs: ReturnType<typeof getStore>;
let edgeURL = '';
beforeAll(async () => {
  server = new BlobsServer({ directory: join(scratch, 'blobs'), token: 'tok', logger: () => {} });
  const { port } = await server.start();
  edgeURL = `http://127.0.0.1:${port}`;
  blobs = getStore({ name: 'pollen-snapshots', siteID: 'site', token: 'tok', edgeURL });
});
afterAll(async () => {
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('store snapshots in Netlify Blobs', () => {
  it('pulls nothing at first, then round-trips the store byte for byte and keeps dated copies', async () => {
    const dir = tempDir();
    expect(await pullSnapshot(blobs, join(dir, 'first.db'))).toBe(false);
    const db = await buildStore(dir, ['tulsa'], { from: 20100, to: 20110 });
    const rows = await pushSnapshot(blobs, db, '2026-01-02');
    expect(rows).toBeGreaterThan(200);
    const copy = join(dir, 'copy.db');
    expect(await pullSnapshot(blobs, copy)).toBe(true);
    expect(readFileSync(copy).equals(readFileSync(db))).toBe(true);
    expect((await blobs.list({ prefix: 'daily/' })).blobs.map((b) => b.key)).toEqual(['daily/2026-01-02.db']);
  });

  it('refuses a damaged download and leaves nothing behind', async () => {
    const dir = tempDir();
    const damaged = getStore({ name: 'damaged-snapshots', siteID: 'site', token: 'tok', edgeURL });
    await damaged.set('pollen.db', new TextEncoder().encode('this is not a SQLite file').buffer as ArrayBuffer);
    await expect(pullSnapshot(damaged, join(dir, 'pulled.db'))).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never replaces a snapshot with a store that has fewer hourly rows', async () => {
    const dir = tempDir();
    const smaller = await buildStore(dir, ['tulsa'], { from: 20100, to: 20101 });
    await expect(pushSnapshot(blobs, smaller, '2026-01-03')).rejects.toThrow(
      /refusing to replace a snapshot of \d+ hourly rows with one of \d+/,
    );
  });
});
