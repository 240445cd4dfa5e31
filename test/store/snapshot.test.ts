import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pullSnapshot, pushSnapshot } from '../../src/store/snapshot.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { buildStore } from '../helpers/site.js';
import { held, useSnapshotBlobs } from '../helpers/snapshots.js';
import { tempDir } from '../helpers/tmp.js';

const blobsNamed = useSnapshotBlobs();

describe('store snapshots in Netlify Blobs', () => {
  it('pulls nothing at first, then round-trips what the store holds and keeps dated copies', async () => {
    const dir = tempDir();
    expect(await pullSnapshot(blobsNamed(), join(dir, 'first.db'))).toBe(false);
    const db = await buildStore(dir, ['tulsa'], { from: 20100, to: 20110 });
    const rows = await pushSnapshot(blobsNamed(), db, '2026-01-02');
    expect(rows).toBeGreaterThan(200);
    const copy = join(dir, 'copy.db');
    expect(await pullSnapshot(blobsNamed(), copy)).toBe(true);
    expect(held(copy)).toEqual(held(db));
    expect(readdirSync(dir).sort()).toEqual(['copy.db', 'pollen.db']);
    expect((await blobsNamed().list({ prefix: 'daily/' })).blobs.map((b) => b.key)).toEqual(['daily/2026-01-02.db']);
  });

  it('refuses a damaged download and leaves nothing behind', async () => {
    const dir = tempDir();
    const damaged = blobsNamed('damaged-snapshots');
    await damaged.set('pollen.db', new TextEncoder().encode('this is not a SQLite file').buffer as ArrayBuffer);
    await expect(pullSnapshot(damaged, join(dir, 'pulled.db'))).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never replaces a snapshot with a store that has fewer hourly rows', async () => {
    const dir = tempDir();
    const smaller = await buildStore(dir, ['tulsa'], { from: 20100, to: 20101 });
    await expect(pushSnapshot(blobsNamed(), smaller, '2026-01-03')).rejects.toThrow(
      /refusing to replace a snapshot of \d+ hourly rows with one of \d+/,
    );
  });

  it('pushes every row of an ingest killed part way, WAL included, and pulls it over the store and its old WAL', async () => {
    const dir = tempDir();
    const db = join(dir, 'store.db');
    const killed = await runCli(['ingest', '--from', '2025-01-01', '--to', '2025-03-31', '--cities', 'tulsa,austin,boise', '--db', db], {
      killWhen: /ingest: 90%/,
    });
    expect(killed.signal).toBe('SIGKILL');
    // The kill left work in the WAL that the file alone lacks: the case a copy of the file loses.
    expect(existsSync(`${db}-wal`)).toBe(true);
    const before = held(db);
    expect(before.counts.hours).toBeGreaterThan(1000);

    const snapshots = blobsNamed('killed-ingest');
    expect(await pushSnapshot(snapshots, db, '2026-01-04')).toBe(before.counts.hours);
    expect((await snapshots.getMetadata('pollen.db'))?.metadata.hourlyRows).toBe(before.counts.hours);

    const elsewhere = join(tempDir(), 'pulled.db');
    expect(await pullSnapshot(snapshots, elsewhere)).toBe(true);
    expect(held(elsewhere)).toEqual(before);

    // Another snapshot over the killed store, whose WAL is still there: SQLite would replay that WAL into the new file.
    const other = blobsNamed('another-store');
    const small = await buildStore(tempDir(), ['wichita'], { from: 20100, to: 20102 });
    await pushSnapshot(other, small, '2026-01-04');
    expect(existsSync(`${db}-wal`)).toBe(true);
    expect(await pullSnapshot(other, db)).toBe(true);
    expect(readdirSync(dir)).toEqual(['store.db']);
    const store = openStore(db, { readonly: true });
    expect(store.checks.integrity()).toBe('ok');
    store.close();
    expect(held(db)).toEqual(held(small));
  }, 120_000);

  it('refuses a download that holds fewer hourly rows than its metadata says, leaving the store as it was', async () => {
    const small = await buildStore(tempDir(), ['tulsa'], { from: 20100, to: 20101 });
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], { from: 20100, to: 20104 });
    const [rows, claimed] = [held(small).counts.hours!, held(db).counts.hours!];
    const snapshots = blobsNamed('mislabelled');
    await pushSnapshot(snapshots, small, '2026-01-05');
    const { data } = (await snapshots.getWithMetadata('pollen.db', { type: 'arrayBuffer' }))!;
    await snapshots.set('pollen.db', data, { metadata: { hourlyRows: claimed } });
    await expect(pullSnapshot(snapshots, db)).rejects.toThrow(`holds ${rows} hourly rows where its metadata says ${claimed}`);
    expect(held(db).counts.hours).toBe(claimed);
    expect(readdirSync(dir)).toEqual(['pollen.db']);
  });
});
