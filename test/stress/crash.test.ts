import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outlookFilePath, readOutlookFile } from '../../src/deploy-data/outlook-file.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { listFiles } from '../../src/render/render.js';
import { serve } from '../../src/server/server.js';
import { pullSnapshot, pushSnapshot } from '../../src/store/snapshot.js';
import { openStore, StoreVersionError } from '../../src/store/store.js';
import { ROOT, runCli } from '../helpers/cli.js';
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
    // The link, the render it names, and the files beside the store of the one before it.
    expect(readdirSync(`${publish}.renders`)).toHaveLength(3);
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

  it('answers every request from one render, whichever step a render is killed at (site file, bulk index, outlook, manifest, served store, publish folder)', async () => {
    const dir = tempDir();
    const prepared = join(dir, 'prepared');
    const [db, publish] = [join(prepared, 'store.db'), join(prepared, 'publish')];
    const cities = ['--cities', 'austin,tulsa,boise,miami'];
    const [before, after] = [dayNumber('2025-05-30'), dayNumber('2025-05-31')];
    expect((await runCli(['ingest', '--from', '2025-03-01', '--to', dayString(before), ...cities, '--db', db])).code).toBe(0);
    expect((await runCli(['render', '--db', db, '--publish', publish])).code).toBe(0);
    // The next render serves one more day.
    expect((await runCli(['ingest', '--from', dayString(after), '--to', dayString(after), ...cities, '--db', db])).code).toBe(0);

    /** The day each served answer and file says is the newest: all from one render, or not. */
    const servedDays = async (at: string) => {
      const [store, pub] = [join(at, 'store.db'), join(at, 'publish')];
      process.env.POLLEN_DB = store;
      process.env.FORECAST_CACHE_DB = join(at, 'forecast-cache.db');
      const server = await serve({ root: ROOT, publishDir: pub, port: 0 });
      try {
        const get = (path: string) => fetch(server.url + path);
        const json = async <T>(path: string) => (await (await get(path)).json()) as T;
        // A day without data answers 200 with no rows.
        const rows = async (path: string) =>
          (await json<{ rows: unknown[] }>(path)).rows.length > 0 ? dayString(after) : dayString(before);
        const served = openStore(servedStorePath(store), { readonly: true, immutable: true });
        const latest = served.pollen.latestDay();
        served.close();
        const issued = readOutlookFile(outlookFilePath(store))?.issued;
        return {
          'latest-date (static)': (await json<{ date: string }>('/api/latest-date')).date,
          health: (await json<{ latestDate: string }>('/api/health')).latestDate,
          'pollen of the latest date': (await json<{ date: string }>('/api/pollen')).date,
          'pollen of the new day': await rows(`/api/pollen?city=austin&date=${dayString(after)}`),
          'map of the latest date': (await json<{ date: string }>('/api/map-data')).date,
          'outlook issued the day after': issued ? dayString(dayNumber(issued) - 1) : null,
          'served store': latest === null ? null : dayString(latest),
        };
      } finally {
        await server.close();
      }
    };
    const old = await servedDays(prepared);
    expect(old).toEqual(Object.fromEntries(Object.keys(old).map((k) => [k, dayString(before)])));

    const renders = (at: string) => join(at, 'publish.renders');
    const first = new Set(readdirSync(renders(prepared)));
    const fresh = (at: string) => readdirSync(renders(at)).filter((n) => /^r\d+-\d+$/.test(n) && !first.has(n));
    const beside = (at: string, file: string) => () => fresh(at).some((g) => existsSync(join(renders(at), g, 'served', file)));
    const current = (at: string) => {
      try {
        return readlinkSync(join(renders(at), 'current'));
      } catch {
        return undefined;
      }
    };
    // Each step of a render, watched for on disk, in the order it takes them.
    const steps: Array<[string, (at: string) => () => boolean]> = [
      ['its folder made', (at) => () => fresh(at).length > 0],
      ['served store written', (at) => beside(at, 'serve.db')],
      ['pages being written', (at) => () => fresh(at).some((g) => existsSync(join(renders(at), g, 'site', 'data', 'pollen')))],
      ['site files written', (at) => () => fresh(at).some((g) => existsSync(join(renders(at), g, 'site', '_redirects')))],
      ['site file written', (at) => beside(at, 'site.json')],
      ['bulk index written', (at) => beside(at, 'bulk-index.json')],
      ['outlook written', (at) => beside(at, 'outlook.json')],
      ['shards manifest written', (at) => beside(at, 'shards.json')],
      ['swapped', (at) => () => fresh(at).includes(current(at) ?? '')],
    ];
    const landed: string[] = [];
    for (const [i, [step, when]] of steps.entries()) {
      const victim = join(dir, `victim-${i}`);
      execFileSync('cp', ['-a', prepared, victim]);
      const vdb = join(victim, 'store.db');
      const run = await runCli(['render', '--db', vdb, '--publish', join(victim, 'publish')], { killWhen: when(victim) });
      if (run.signal === 'SIGKILL') landed.push(step);
      else expect(run.code, run.stderr).toBe(0);
      const swapped = fresh(victim).includes(basename(dirname(realpathSync(join(victim, 'publish')))));
      const days = await servedDays(victim);
      const expected = swapped ? dayString(after) : dayString(before);
      expect(days, step).toEqual(Object.fromEntries(Object.keys(days).map((k) => [k, expected])));
      // The next render serves the new day everywhere.
      expect((await runCli(['render', '--db', vdb, '--publish', join(victim, 'publish')])).code).toBe(0);
      const next = await servedDays(victim);
      expect(next, step).toEqual(Object.fromEntries(Object.keys(next).map((k) => [k, dayString(after)])));
      rmSync(victim, { recursive: true, force: true });
    }
    count({ kills: landed.length });
    // The steps that take the render seconds are always caught in the middle; the later ones, a moment apart, when they are.
    expect(landed.slice(0, 4)).toEqual(steps.slice(0, 4).map(([step]) => step));
  }, 1_200_000);
});
