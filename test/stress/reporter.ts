import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { COUNTERS_FILE, type Counts } from './counters.js';

/** Prints the stress suite's closing line: requests sent, faults injected, kills survived, failures. */
export default class StressSummary implements Reporter {
  onInit(): void {
    rmSync(COUNTERS_FILE, { force: true });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    const totals = { requests: 0, faults: 0, kills: 0 };
    if (existsSync(COUNTERS_FILE)) {
      for (const line of readFileSync(COUNTERS_FILE, 'utf8').split('\n').filter(Boolean)) {
        const c = JSON.parse(line) as Counts;
        totals.requests += c.requests ?? 0;
        totals.faults += c.faults ?? 0;
        totals.kills += c.kills ?? 0;
      }
    }
    let passed = 0;
    let failed = errors.length;
    for (const m of modules) {
      passed += [...m.children.allTests('passed')].length;
      failed += [...m.children.allTests('failed')].length;
    }
    process.stdout.write(
      `\nstress: ${totals.requests} requests sent, ${totals.faults} faults injected, ${totals.kills} kills survived, ${failed} failures\n`,
    );
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
  }
}
