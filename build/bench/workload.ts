/**
 * The bench workloads: a city set x 730 days of sample data, ending at a fixed day so runs
 * compare. By default the built-in 40; `--cities-file` gives another set (cities/us-top-200.json).
 * B2 also renders the same cities over a longer history (`withHistory`), ending the same day.
 */
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { dayNumber } from '../../src/domain/dates.js';
import { DEFAULT_SERVE_DAYS } from '../../src/settings.js';

export const BENCH_DAYS = 730;
export const BENCH_SPAN = { from: dayNumber('2024-01-01'), to: dayNumber('2024-01-01') + BENCH_DAYS - 1 };
/** The longer history B2's daily render is compared over: twice the workload's days, to the same last day. */
export const LONG_HISTORY_DAYS = 2 * BENCH_DAYS;

export interface Workload {
  cities: readonly City[];
  span: { from: number; to: number };
  /** Days the render serves (SERVE_DAYS, at its default), and the forecasts and outlooks are kept for, as `npm run ingest` keeps them. */
  serveDays: number;
  /** For the table's title. */
  label: string;
}

export function workloadOf(citiesFile: string | undefined): Workload {
  const cities = citiesFile ? readCityFile(citiesFile) : DEFAULT_CITIES.list;
  return {
    cities,
    span: BENCH_SPAN,
    serveDays: DEFAULT_SERVE_DAYS,
    label: `${cities.length} cities${citiesFile ? ` (${citiesFile})` : ' (built-in)'} x ${BENCH_DAYS} days`,
  };
}

/**
 * The same cities over `days` of history ending on the workload's last day, every day of it served
 * and its forecasts and outlooks kept: so the closed season years and months the render holds are
 * twice the workload's, and what it keeps of them from one render to the next is what is measured.
 */
export function withHistory(workload: Workload, days: number): Workload {
  return {
    ...workload,
    span: { from: workload.span.to - days + 1, to: workload.span.to },
    serveDays: days,
    label: `${workload.cities.length} cities x ${days.toLocaleString('en-US')} days`,
  };
}
