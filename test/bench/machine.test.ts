import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuTicks, machineLine, stolenShare } from '../../build/bench/machine.js';
import { tempDir } from '../helpers/tmp.js';

/** A /proc/stat as Linux writes it: the aggregate line, then one per core. */
const stat = (user: number, idle: number, steal: number) =>
  `cpu  ${user} 0 100 ${idle} 10 0 5 ${steal} 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\nintr 12345\n`;

describe("the bench's machine line", () => {
  it('says what share of the cores the host took between two readings of /proc/stat', () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    writeFileSync(a, stat(1000, 5000, 200));
    // 1,000 more ticks in all, 250 of them stolen.
    writeFileSync(b, stat(1500, 5250, 450));
    expect(cpuTicks(a)).toEqual({ steal: 200, total: 1000 + 100 + 5000 + 10 + 5 + 200 });
    expect(stolenShare(cpuTicks(a), cpuTicks(b))).toBeCloseTo(0.25, 12);
    expect(machineLine(0.25)).toMatch(/; the host took 25\.0% of the cores' time while the bench ran \(steal\)$/);
  });

  it('says nothing of it where there is no /proc/stat, or no time passed', () => {
    expect(cpuTicks(join(tempDir(), 'none'))).toBeUndefined();
    expect(stolenShare(undefined, { steal: 1, total: 2 })).toBeUndefined();
    expect(stolenShare({ steal: 1, total: 2 }, { steal: 1, total: 2 })).toBeUndefined();
    expect(machineLine(undefined)).not.toMatch(/steal/);
  });
});
