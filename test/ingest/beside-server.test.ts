import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli, startCli, stdoutUntil } from '../helpers/cli.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

/** The environment of both commands: no cache path set, so that each follows its `--db`. */
const ENV = { FORECAST_CACHE_DB: '', POLLEN_DB: '', FORECAST_DAILY_BUDGET: '' };

const exited = (child: ReturnType<typeof startCli>) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

describe('an ingest beside another process on the same store', () => {
  it("runs while `npm start` serves: both exit 0, and the ingest keeps every forecast the server's function fetched, from the store's own cache", async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa', 'austin'], { from: 20000, to: 20002 });
    const start = startCli(['start', '--db', db, '--publish', join(dir, 'publish'), '--port', '0'], ENV);
    const stopped = exited(start);
    let stderr = '';
    start.stderr!.on('data', (d: Buffer) => (stderr += d));
    try {
      const served = await stdoutUntil(start, /serving .* on (http:\/\/127\.0\.0\.1:\d+)/);
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(served)![1]!;
      await stdoutUntil(start, /rendered \d+ files/);
      for (const city of ['tulsa', 'austin']) {
        const answer = await fetch(`${url}/api/forecast?city=${city}`);
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { source: string }).source).toBe('sample');
      }
      const ingest = await runCli(['ingest', '--db', db, '--from', '2024-10-06', '--to', '2024-10-07'], { env: ENV });
      expect(ingest.stderr).not.toMatch(/locked|SqliteError/);
      expect(ingest.code, ingest.stderr).toBe(0);
      // The server's cache is the store's: beside it, not the checkout's default.
      expect(existsSync(join(dir, 'forecast-cache.db'))).toBe(true);
      expect(ingest.stderr).toMatch(/\(2 fetched by the forecast function,/);
      expect(ingest.stdout).toMatch(/^\d+ city-days/);
      // The server still answers, and still caches: its cache was read, not taken from it.
      const again = await fetch(`${url}/api/forecast?city=tulsa`);
      expect(again.status).toBe(200);
      expect(((await again.json()) as { source: string }).source).toBe('cache');
    } finally {
      start.kill('SIGTERM');
    }
    expect(await stopped, stderr).toEqual({ code: 0, signal: null });

    const cache = openStore(join(dir, 'forecast-cache.db'), { readonly: true });
    const store = openStore(db, { readonly: true });
    try {
      const fetched = [...cache.issued.all()];
      expect(fetched.map((f) => f.city).sort()).toEqual(['austin', 'tulsa']);
      for (const { city, forecast } of fetched) {
        expect(store.issued.has(city, forecast.issuedAt)).toBe(true);
        expect(store.issued.since(city, forecast.issuedAt).find((f) => f.issuedAt === forecast.issuedAt)?.origin).toBe('function');
      }
      expect(store.pollen.latestDay()).toBe(20003);
    } finally {
      cache.close();
      store.close();
    }
  }, 240_000);

  it("ends while a render's read-only connection holds the store: exit 0 with its summary, and the reader reads on", async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], { from: 20000, to: 20002 });
    // In WAL mode, as a render that began while an ingest was under way finds the store (WAL mode stays in the file).
    const wal = new Database(db);
    expect(wal.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    wal.close();
    // As a render holds it: a read-only connection in the middle of a read while the ingest runs and ends.
    const reader = new Database(db, { readonly: true });
    const newestDay = reader.prepare('SELECT max(day) FROM pollen_day').pluck();
    try {
      reader.exec('BEGIN');
      expect(newestDay.get()).toBe(20002);
      const ingest = await runCli(['ingest', '--db', db, '--from', '2024-10-06', '--to', '2024-10-07'], { env: ENV });
      expect(ingest.stderr).not.toMatch(/locked|SqliteError/);
      expect(ingest.code, ingest.stderr).toBe(0);
      expect(ingest.stdout).toMatch(/^\d+ city-days/);
      // The read goes on as it began; once it ends the reader sees the new day, and so does the next one.
      expect(newestDay.get()).toBe(20002);
      reader.exec('COMMIT');
      expect(newestDay.get()).toBe(20003);
    } finally {
      reader.close();
    }
    const next = openStore(db, { readonly: true });
    try {
      expect(next.pollen.latestDay()).toBe(20003);
    } finally {
      next.close();
    }
  }, 120_000);
});
