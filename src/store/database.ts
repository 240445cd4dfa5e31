/**
 * Opening the SQLite file: pragmas, the schema version, and the migrations it is handed (the
 * store gives schema.ts's list; this module imports none, so no table module is loaded to open a file).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;
export type Row = Record<string, unknown>;

/** A migration: SQL, or frozen code for what SQL cannot do (re-packing rows). Each runs in its own transaction. */
export type Migration = string | ((db: Db) => void);

/** A store that is missing or written by another version of this code. */
export class StoreVersionError extends Error {}

/**
 * Opens the file. A writer creates it and brings it to the schema of the last of `migrations`, each
 * in its own transaction; a reader only accepts a file already at that version.
 */
export function openDatabase(path: string, readonly: boolean, migrations: readonly Migration[]): Db {
  const latest = migrations.length;
  if (!readonly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  if (readonly && !existsSync(path)) throw new StoreVersionError(`no store at ${path}; run \`npm run ingest\` first`);
  const { db, current } = readonly ? openReader(path) : versioned(new Database(path));
  if (readonly) {
    if (current !== latest) {
      db.close();
      throw new StoreVersionError(
        `store ${path} has schema version ${current}, this code reads ${latest}${current < latest ? '; run `npm run ingest` once to upgrade it' : ''}`,
      );
    }
    return db;
  }
  // WAL keeps per-day commits cheap and is crash-safe; close() folds it back into one file (foldWal).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if (current > latest) {
    db.close();
    throw new StoreVersionError(`store ${path} has schema version ${current}, newer than this code (${latest})`);
  }
  for (let v = current; v < latest; v++) {
    const migration = migrations[v]!;
    db.transaction(() => {
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  // A migration that re-packed rows left their old pages free: give them back (a fresh store has none).
  if (current > 0 && current < latest) db.exec('VACUUM');
  return db;
}

const versioned = (db: Db) => ({ db, current: db.pragma('user_version', { simple: true }) as number });

/**
 * What a writer killed mid-write leaves that a reader cannot undo: a hot rollback journal (a
 * write outside WAL mode, such as the compaction's), or a WAL whose index needs rebuilding
 * (sqlite.org/rescode.html: SQLITE_READONLY_ROLLBACK, SQLITE_READONLY_RECOVERY, SQLITE_READONLY_CANTINIT).
 */
const NEEDS_A_WRITER = new Set(['SQLITE_READONLY_ROLLBACK', 'SQLITE_READONLY_RECOVERY', 'SQLITE_READONLY_CANTINIT']);

/**
 * A reader's connection, and the file's version. Where a killed writer left the file for a writer
 * to put right, it is opened once to write (its first read rolls the unfinished transaction back,
 * or rebuilds the WAL's index, as the next writer would: no committed row changes), then read.
 */
function openReader(path: string): { db: Db; current: number } {
  const open = () => {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return versioned(db);
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return open();
  } catch (error) {
    if (!(error instanceof Database.SqliteError) || !NEEDS_A_WRITER.has(error.code)) throw error;
    const writer = new Database(path, { fileMustExist: true });
    try {
      versioned(writer);
    } finally {
      writer.close();
    }
    return open();
  }
}

/** How long a closing writer waits for a lock another connection holds for a moment, before it leaves the WAL as it is. */
const FOLD_WAIT_MS = 1000;

/**
 * Folds the WAL back into the file and leaves WAL mode, so that the file stands alone (a snapshot
 * uploads it, a reader opens it in a folder it cannot write); true when done. Where another
 * connection holds the file (the server's, or a render's read-only one, beside an ingest), SQLite
 * refuses to leave WAL mode (SQLITE_BUSY): the WAL then stays, nothing in it lost, and the last
 * connection to close folds it. A reader mid-read lets the checkpoint copy only what it no longer reads.
 */
export function foldWal(db: Db): boolean {
  db.pragma(`busy_timeout = ${FOLD_WAIT_MS}`);
  const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
  if (checkpoint?.busy) return false;
  try {
    db.pragma('journal_mode = DELETE');
    return true;
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY') return false;
    throw error;
  }
}
