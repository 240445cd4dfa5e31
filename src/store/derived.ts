/**
 * Derived data: what the store makes from the rows it holds with today's code (each city-day's
 * day values), kept beside them as a cache. A migration is frozen (schema.ts), a derivation
 * follows the code: each kind records the version of the derivation that made it (table
 * `derived`); a writer that opens a store made with another version, or with none, makes that
 * kind again in one transaction; a reader refuses such a store, as it refuses an older schema,
 * since what it served would disagree with the rows it holds.
 */
import { type Db, type Row, StoreVersionError } from './database.js';

export interface Derivation {
  /** The kind of derived data. */
  name: string;
  /** The version of the code's derivation: bumped whenever the code derives it otherwise. */
  version: number;
  /** Makes it again from the rows (inside the caller's transaction). */
  renew: () => void;
}

/** The derivations whose data another version made, or none did. */
function stale(db: Db, derivations: readonly Derivation[]): Derivation[] {
  const made = new Map((db.prepare('SELECT name, version FROM derived').all() as Row[]).map((r) => [r.name, r.version]));
  return derivations.filter((d) => made.get(d.name) !== d.version);
}

/** Makes again, each in a transaction of its own, what another version of the code derived. */
export function renewDerived(db: Db, derivations: readonly Derivation[]): void {
  const record = db.prepare(
    'INSERT INTO derived (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version',
  );
  for (const d of stale(db, derivations)) {
    db.transaction(() => {
      d.renew();
      record.run(d.name, d.version);
    })();
  }
}

/** Refuses (closing it) a store opened for reading whose derived data another version of the code made. */
export function checkDerived(db: Db, path: string, derivations: readonly Derivation[]): void {
  const old = stale(db, derivations).map((d) => d.name);
  if (old.length === 0) return;
  db.close();
  throw new StoreVersionError(
    `store ${path} holds ${old.join(', ')} made by another version of this code; run \`npm run ingest\` once to make them again`,
  );
}
