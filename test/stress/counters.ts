import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

export const COUNTERS_FILE = join(ROOT, 'test-artifacts', 'stress-counters.jsonl');

export interface Counts {
  requests?: number;
  faults?: number;
  kills?: number;
}

/** Adds to the suite's totals, which the reporter prints as the closing line. */
export function count(counts: Counts): void {
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  appendFileSync(COUNTERS_FILE, `${JSON.stringify(counts)}\n`);
}
