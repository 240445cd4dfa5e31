/** The call ledger: upstream calls per provider, UTC day and purpose, for daily budgets. */
import type { Db, Row } from './database.js';

export type CallPurpose = 'ingest' | 'forecast';

export class Ledger {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      add: db.prepare(
        `INSERT INTO upstream_call (provider, day, purpose, calls) VALUES (?, ?, ?, ?)
         ON CONFLICT (provider, day, purpose) DO UPDATE SET calls = calls + excluded.calls`,
      ),
      on: db.prepare('SELECT purpose, calls FROM upstream_call WHERE provider = ? AND day = ?'),
    };
  }

  /** Counts calls (or their weight) against a provider's UTC day (`YYYY-MM-DD`). */
  record(provider: string, day: string, purpose: CallPurpose, calls = 1): void {
    this.stmt.add.run(provider, day, purpose, calls);
  }

  /** Calls made to a provider on a UTC day, per purpose. */
  callsOn(provider: string, day: string): Record<CallPurpose, number> {
    const out: Record<CallPurpose, number> = { ingest: 0, forecast: 0 };
    for (const r of this.stmt.on.all(provider, day) as Row[]) out[r.purpose as CallPurpose] = r.calls as number;
    return out;
  }
}
