/**
 * B15: the forecast skill's cost in the render, its 'skills' step (every city's forecasts scored
 * against its served days, the pairs file written; render/forecast-skills.ts), against a raw read
 * of the rows it scores: better-sqlite3 selecting every kept forecast of the store, at its fastest.
 */
import Database from 'better-sqlite3';
import { type Measure, s } from './measure.js';
import { median, type RenderRun } from './render-run.js';

/** Seconds to read every kept forecast's row (its issue time, source, origin and packed days), best of 3. */
function rawReadSeconds(db: string): { seconds: number; rows: number } {
  const sqlite = new Database(db, { readonly: true });
  try {
    const select = sqlite.prepare('SELECT city_id, issued_at, source_id, origin, days FROM forecast_issued').raw();
    let [best, rows] = [Number.POSITIVE_INFINITY, 0];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      rows = 0;
      for (const _ of select.iterate()) rows++;
      best = Math.min(best, (performance.now() - t0) / 1000);
    }
    return { seconds: best, rows };
  } finally {
    sqlite.close();
  }
}

export function skillsBenchmark(db: string, renders: readonly RenderRun[], cities: number): Measure[] {
  const seconds = median(renders.map((r) => r.steps.skills ?? Number.NaN));
  const raw = rawReadSeconds(db);
  return [
    {
      id: 'B15',
      what: `forecast skill in the render: the 'skills' step scoring ${raw.rows} kept forecasts of ${cities} cities (every category and lead, window and season years, the outlooks of past days) and writing the pairs file (median of B1's 3 renders)`,
      value: s(seconds),
      baseline: `${s(raw.seconds)} (better-sqlite3 SELECT of every kept forecast's row, best of 3)`,
      ratio: seconds / raw.seconds,
      target: 'reported',
      met: null,
    },
  ];
}
