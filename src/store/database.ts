/**
 * Opening the SQLite file: pragmas, the schema version, and the migrations it is handed (the
 * store gives schema.ts's list; this module imports none, so no table module is loaded to open a file).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type StoredStatus, statusOfCode } from '../domain/status.js';

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
  const db = new Database(path, { readonly, fileMustExist: readonly });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (readonly) {
    if (current !== latest) {
      db.close();
      throw new StoreVersionError(
        `store ${path} has schema version ${current}, this code reads ${latest}${current < latest ? '; run `npm run ingest` once to upgrade it' : ''}`,
      );
    }
    return db;
  }
  // WAL keeps per-day commits cheap and is crash-safe; close() folds it back into one file.
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

/**
 * The stored status of each of a city's days in [from, to] (days never asked are absent), from a
 * statement taking (city id, from, to) and giving `day, status`: the pollen and the weather days' alike.
 */
export function storedStatuses(
  names: Names,
  statement: Database.Statement,
  city: string,
  from: number,
  to: number,
): Map<number, StoredStatus> {
  const id = names.id('city', city);
  if (id === undefined) return new Map();
  return new Map((statement.all(id, from, to) as Row[]).map((r) => [r.day as number, statusOfCode(r.status as number)]));
}

type NameKind = 'city' | 'source' | 'label';

/** Ids of the small lookup tables (cities, sources, labels), cached; a writer adds names it has not seen. */
export class Names {
  private readonly ids = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly stmt;

  constructor(
    db: Db,
    private readonly readonly: boolean,
  ) {
    this.stmt = {
      city: [
        db.prepare('SELECT id FROM city WHERE slug = ?').pluck(),
        db.prepare('INSERT INTO city (slug) VALUES (?) ON CONFLICT (slug) DO NOTHING'),
      ],
      source: [
        db.prepare('SELECT id FROM source WHERE name = ?').pluck(),
        db.prepare('INSERT INTO source (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
      ],
      label: [
        db.prepare('SELECT id FROM label WHERE text = ?').pluck(),
        db.prepare('INSERT INTO label (text) VALUES (?) ON CONFLICT (text) DO NOTHING'),
      ],
      sourceName: db.prepare('SELECT name FROM source WHERE id = ?').pluck(),
      labelText: db.prepare('SELECT text FROM label WHERE id = ?').pluck(),
      longestLabel: db.prepare('SELECT coalesce(max(length(CAST(text AS BLOB))), 0) FROM label').pluck(),
    } as const;
  }

  /** Bytes of the longest stored label (a zone an hour reports, a weather description), as UTF-8. */
  longestLabelBytes(): number {
    return this.stmt.longestLabel.get() as number;
  }

  /** Id of a named row, created when writing and missing; undefined when reading and missing. */
  id(kind: NameKind, name: string): number | undefined {
    const key = `${kind}:${name}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const [find, add] = this.stmt[kind];
    let id = find.get(name) as number | undefined;
    if (id === undefined && !this.readonly) {
      add.run(name);
      id = find.get(name) as number;
    }
    if (id !== undefined) this.ids.set(key, id);
    return id;
  }

  /** The name of a source id. */
  source(id: number): string {
    return this.text('source', id);
  }

  /** The text of a label id (a time zone, a weather description). */
  label(id: number): string {
    return this.text('label', id);
  }

  private text(kind: 'source' | 'label', id: number): string {
    const key = `${kind}:${id}`;
    let name = this.names.get(key);
    if (name === undefined)
      this.names.set(key, (name = (kind === 'source' ? this.stmt.sourceName : this.stmt.labelText).get(id) as string));
    return name;
  }
}
