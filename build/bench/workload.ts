/**
 * The bench workloads: a city set x 730 days of sample data, ending at a fixed day so runs
 * compare. By default the built-in 40; `--cities-file` gives another set (cities/us-top-200.json).
 */
import { DEFAULT_CITIES, type City } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { dayNumber } from '../../src/domain/dates.js';

export const BENCH_DAYS = 730;
export const BENCH_SPAN = { from: dayNumber('2024-01-01'), to: dayNumber('2024-01-01') + BENCH_DAYS - 1 };

export interface Workload {
  cities: readonly City[];
  span: { from: number; to: number };
  /** For the table's title. */
  label: string;
}

export function workloadOf(citiesFile: string | undefined): Workload {
  const cities = citiesFile ? readCityFile(citiesFile) : DEFAULT_CITIES.list;
  return {
    cities,
    span: BENCH_SPAN,
    label: `${cities.length} cities${citiesFile ? ` (${citiesFile})` : ' (built-in)'} x ${BENCH_DAYS} days`,
  };
}
