import { existsSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../src/render/render.js';
import { pullSnapshot, pushSnapshot } from '../../src/store/snapshot.js';
import { openStore, StoreVersionError } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { held, useSnapshotBlobs } from '../helpers/snapshots.js';
import { tempDir } from '../helpers/tmp.js';
import { count } from './counters.js';

const KILLS = 20;
/** Each kill of ingest is followed by a push and two pulls of the snapshot: fewer, so the test stays within its time. */
const SNAPSHOT_KILLS = 8;
const MAX_ATTEMPTS = 60;
const INGEST = [
  '--from',
  '2025-01-01',
  '--to',
  '2025-05-31',
  '--cities',
  'austin,anchorage,honolulu,wichita,scranton,richmond,tulsa,dallas,boise,miami',
];
const randomDelay = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** Runs the CLI and SIGKILLs it after `delay` ms unless it ended first; true when the kill landed. */
async function killAfter(args: string[], delay: number): Promise<boolean> {
  const started = Date.now();
  const result = await runCli(args, { killWhen: () => Date.now() - started >= delay });
  return result.signal === 'SIGKILL';
}

describe('crash safety', () => {
  const blobsNamed = useSnapshotBlobs();

  it(`survives ${KILLS} SIGKILLs of ingest at random points: a sound file, whole city-days, and the same tables in the end`, async () => {
    const dir = tempDir();
    const reference = join(dir, 'reference.db');
    const started = Date.now();
    expect((await runCli(['ingest', ...INGEST, '--db', reference])).code).toBe(0);
    // Kills land within a run as long as this machine takes for one, whether fast or busy.
    const run = Date.now() - started;
    const victim = join(dir, 'victim.db');
    let kills = 0;
    for (let attempt = 0; kills < KILLS && attempt < MAX_ATTEMPTS; attempt++) {
      const landed = await killAfter(['ingest', ...INGEST, '--db', victim], randomDelay(0.2 * run, 0.95 * run));
      if (!landed) {
        // It finished before the kill: start over so the next kill lands mid-run.
        for (const f of readdirSync(dir).filter((n) => n.startsWith('victim.db'))) rmSync(join(dir, f));
        continue;
      }
      kills++;
      if (!existsSync(victim)) continue; // killed before it created the file
      const store = openStore(victim);
      expect(store.checks.integrity()).toBe('ok');
      expect(store.checks.incompleteDays()).toEqual([]);
      store.close();
    }
    count({ kills });
    expect(kills).toBe(KILLS);
    expect((await runCli(['ingest', ...INGEST, '--db', victim])).code).toBe(0);
    const [a, b] = [openStore(victim, { readonly: true }), openStore(reference, { readonly: true })];
    expect(a.checks.counts()).toEqual(b.checks.counts());
    expect(a.checks.checksum(['fetched_at'])).toBe(b.checks.checksum(['fetched_at']));
    a.close();
    b.close();
  });

  it(`survives ${KILLS} SIGKILLs of render at random points: the served folder is always a complete render`, async () => {
    const dir = tempDir();
    const db = join(dir, 'store.db');
    expect((await runCli(['ingest', ...INGEST, '--db', db])).code).toBe(0);
    const [reference, publish] = [join(dir, 'reference'), join(dir, 'publish')];
    expect((await runCli(['render', '--db', db, '--publish', reference])).code).toBe(0);
    const expected = new Map(listFiles(reference).map((f) => [f, readFileSync(join(reference, f))]));
    const complete = () => {
      const files = listFiles(publish);
      expect(files.length).toBe(expected.size);
      for (const f of files) expect(readFileSync(join(publish, f)).equals(expected.get(f)!), f).toBe(true);
    };

    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    let kills = 0;
    for (let attempt = 0; kills < KILLS && attempt < MAX_ATTEMPTS; attempt++) {
      // Remove the render state now and then, so that some renders are full ones and take longer.
      if (attempt % 2 === 0) rmSync(`${publish}.state.json`, { force: true });
      if (await killAfter(['render', '--db', db, '--publish', publish], randomDelay(400, 3000))) kills++;
      complete();
      expect(realpathSync(publish).startsWith(realpathSync(`${publish}.renders`))).toBe(true);
    }
    count({ kills });
    expect(kills).toBe(KILLS);
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    complete();
    expect(readdirSync(`${publish}.renders`)).toHaveLength(1);
  });

  it(`survives ${SNAPSHOT_KILLS} SIGKILLs of ingest followed by snapshot push and pull: the snapshot holds every row the killed store did`, async () => {
    const dir = tempDir();
    const started = Date.now();
    expect((await runCli(['ingest', ...INGEST, '--db', join(dir, 'reference.db')])).code).toBe(0);
    const run = Date.now() - started;
    // The scheduled rebuild's cycle: pull, ingest (killed here), push; the next run pulls what was pushed.
    const victim = join(dir, 'victim.db');
    const pulled = join(dir, 'pulled.db');
    let kills = 0;
    for (let attempt = 0; kills < SNAPSHOT_KILLS && attempt < MAX_ATTEMPTS; attempt++) {
      if (!(await killAfter(['ingest', ...INGEST, '--db', victim], randomDelay(0.2 * run, 0.95 * run)))) {
        for (const f of readdirSync(dir).filter((n) => n.startsWith('victim.db'))) rmSync(join(dir, f));
        continue;
      }
      kills++;
      if (!existsSync(victim)) continue;
      let before: ReturnType<typeof held>;
      try {
        before = held(victim);
      } catch (error) {
        if (!(error instanceof StoreVersionError)) throw error;
        continue; // killed before its schema was committed: there is nothing to push yet
      }
      const blobs = blobsNamed(`killed-${attempt}`);
      expect(await pushSnapshot(blobs, victim, '2026-01-01')).toBe(before.counts.hours);
      rmSync(pulled, { force: true });
      expect(await pullSnapshot(blobs, pulled)).toBe(true);
      expect(held(pulled)).toEqual(before);
      expect(await pullSnapshot(blobs, victim)).toBe(true);
      expect(readdirSync(dir).filter((n) => n.startsWith('victim.db'))).toEqual(['victim.db']);
      expect(held(victim)).toEqual(before);
    }
    count({ kills });
    expect(kills).toBe(SNAPSHOT_KILLS);
  }, 600_000);
});
