/**
 * A store a writer was killed in the middle of writing: a reader opens it as the last committed
 * transaction left it. The writer is a real process, killed with SIGKILL while it commits
 * transactions of 50 rows outside WAL mode (as the compaction writes), until one kill leaves the
 * hot rollback journal a reader cannot roll back by itself (SQLITE_READONLY_ROLLBACK).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const WRITER = `
const Database = require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))});
const db = new Database(process.argv[2]);
db.pragma('journal_mode = DELETE');
db.exec('CREATE TABLE t (n INTEGER, b BLOB)');
const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
const blob = Buffer.alloc(4000, 1);
process.stdout.write('ready\\n');
for (let i = 0; ; i++) db.transaction(() => { for (let k = 0; k < 50; k++) insert.run(i, blob); })();
`;

/** Runs the writer on a new file and kills it a while after it starts writing; the file. */
async function killedWriter(dir: string, attempt: number): Promise<string> {
  const path = join(dir, `killed-${attempt}.db`);
  const script = join(dir, 'writer.cjs');
  writeFileSync(script, WRITER);
  const child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([new Promise<void>((resolve) => child.stdout.once('data', () => resolve())), exited]);
  await new Promise((resolve) => setTimeout(resolve, 100 + ((attempt * 37) % 200)));
  child.kill('SIGKILL');
  await exited;
  return path;
}

describe('a store whose writer was killed', () => {
  it('opens to read as its last committed transaction left it, the unfinished one rolled back', async () => {
    const dir = tempDir();
    /** The code SQLite's own reader gives the file (undefined: it reads it). */
    const plainRead = (file: string): string | undefined => {
      const plain = new Database(file, { readonly: true, fileMustExist: true });
      try {
        plain.prepare('SELECT count(*) AS n FROM t').get();
        return undefined;
      } catch (error) {
        return (error as { code?: string }).code;
      } finally {
        plain.close();
      }
    };
    let path: string | undefined;
    // A kill lands mid-transaction about half the time; 40 tries leave a hot journal all but surely.
    for (let attempt = 0; attempt < 40 && !path; attempt++) {
      const killed = await killedWriter(dir, attempt);
      // SQLite's own reader refuses it: the journal must be rolled back, which takes a writer.
      if (existsSync(`${killed}-journal`) && plainRead(killed) === 'SQLITE_READONLY_ROLLBACK') path = killed;
    }
    expect(path, 'a kill left a hot rollback journal').toBeDefined();
    const db = openDatabase(path!, true, []);
    try {
      const { n } = db.prepare('SELECT count(*) AS n FROM t').get() as { n: number };
      expect(n % 50).toBe(0);
      const { last } = db.prepare('SELECT max(n) AS last FROM t').get() as { last: number | null };
      expect(n).toBe(last === null ? 0 : (last + 1) * 50);
    } finally {
      db.close();
    }
    expect(existsSync(`${path}-journal`)).toBe(false);
  }, 120_000);
});
