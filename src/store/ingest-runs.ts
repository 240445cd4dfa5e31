/** The log of ingest runs, as `/api/health` reports the last one. */
import type { Db, Row } from './database.js';

/** What one ingest run did. */
export interface IngestRun {
  startedAt: number;
  finishedAt: number;
  pollen: string;
  weather: string | null;
  counts: Record<string, number>;
}

export class IngestRuns {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      add: db.prepare('INSERT INTO ingest_run (started_at, finished_at, pollen, weather, counts) VALUES (?, ?, ?, ?, ?)'),
      last: db.prepare('SELECT * FROM ingest_run ORDER BY finished_at DESC, id DESC LIMIT 1'),
    };
  }

  /** Logs a finished run. */
  record(run: IngestRun): void {
    this.stmt.add.run(run.startedAt, run.finishedAt, run.pollen, run.weather, JSON.stringify(run.counts));
  }

  /** The most recent run, if any. */
  last(): IngestRun | undefined {
    const r = this.stmt.last.get() as Row | undefined;
    return (
      r && {
        startedAt: r.started_at as number,
        finishedAt: r.finished_at as number,
        pollen: r.pollen as string,
        weather: r.weather as string | null,
        counts: JSON.parse(r.counts as string) as Record<string, number>,
      }
    );
  }
}
