/**
 * B15: the forecast skill's cost in the render, its 'skills' step (every city's forecasts scored
 * against its served days, the pairs file written; scoring/score-cities.ts), against a raw read
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
  const scoring = median(renders.map((r) => r.skillScoring.seconds));
  const resampled = median(renders.map((r) => r.skillScoring.resampling));
  return [
    {
      id: 'B15',
      what: `forecast skill in the render: the 'skills' step scoring ${raw.rows} kept forecasts and the kept outlooks of ${cities} cities (every category and lead, the window, its days in season and each season year, with their intervals) and writing the monthly pairs files (median of B1's 3 renders)`,
      value: s(seconds),
      baseline: `${s(raw.seconds)} (better-sqlite3 SELECT of every kept forecast's row, best of 3)`,
      ratio: seconds / raw.seconds,
      target: 'reported',
      met: null,
    },
    {
      id: 'B15',
      what: `the bootstrap's share of the step's scoring: resampling every window and season year's tables and skill scores, 1,000 times each (thread-seconds summed over the step's threads, median of B1's 3)`,
      value: s(resampled),
      baseline: `${s(scoring)} (scoring every city, pairs and scores)`,
      ratio: resampled / scoring,
      target: 'reported',
      met: null,
    },
  ];
}
