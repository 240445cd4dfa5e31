/** The bench workload: every city x 730 days of sample data, ending at a fixed day so runs compare. */
import { dayNumber } from '../../src/domain/dates.js';

export const BENCH_DAYS = 730;
export const BENCH_SPAN = { from: dayNumber('2024-01-01'), to: dayNumber('2024-01-01') + BENCH_DAYS - 1 };
