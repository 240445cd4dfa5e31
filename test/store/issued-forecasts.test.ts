import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import type { KeptDay } from '../../src/domain/verification/target-days.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const ISSUED = Date.parse('2026-04-10T06:30:00Z');
const day = dayNumber('2026-04-10');
const days: KeptDay[] = [
  {
    day,
    lead: 0,
    issuedAt: ISSUED,
    hours: 18,
    levels: { tree: { value: 412, level: 'High' }, grass: { value: 0, level: 'None' }, weed: { value: 3.5, level: 'Low' } },
  },
  {
    day: day + 1,
    lead: 1,
    issuedAt: ISSUED,
    hours: 24,
    levels: {
      tree: { value: 1600, level: 'Very High' },
      grass: { value: 21, level: 'High' },
      weed: { value: 12, level: 'Moderate' },
      ragweed: { value: 9, level: 'Low' },
    },
  },
];

describe('forecasts kept as issued', () => {
  it('keep what each day was forecast, and keep the first forecast of an instant', () => {
    const store = openStore(join(tempDir(), 'pollen.db'));
    store.replaceCities([DEFAULT_CITIES.get('tulsa')!]);
    expect(store.issued.keep('tulsa', { issuedAt: ISSUED, source: 'sample', origin: 'build', days })).toBe(true);
    expect(store.issued.keep('tulsa', { issuedAt: ISSUED, source: 'sample', origin: 'function', days: [] })).toBe(false);
    expect(store.issued.since('tulsa', 0)).toEqual([{ issuedAt: ISSUED, source: 'sample', origin: 'build', days }]);
    expect(store.issued.has('tulsa', ISSUED)).toBe(true);
    expect(store.issued.latestIssued('tulsa')).toBe(ISSUED);
    expect(store.issued.latestIssued('austin')).toBeNull();
    // A day that is not the issue day plus its lead is refused.
    expect(() => store.issued.keep('tulsa', { issuedAt: ISSUED + DAY_MS, source: 'sample', origin: 'build', days })).toThrow(RangeError);
    store.close();
  });

  it('forget those issued before a day, and never reach the served store', () => {
    const dir = tempDir();
    const store = openStore(join(dir, 'pollen.db'));
    store.replaceCities([DEFAULT_CITIES.get('tulsa')!]);
    for (let k = 0; k < 3; k++) {
      const issuedAt = ISSUED + k * DAY_MS;
      store.issued.keep('tulsa', {
        issuedAt,
        source: 'sample',
        origin: 'made again',
        days: days.map((d) => ({ ...d, day: d.day + k, issuedAt })),
      });
    }
    expect(store.issued.dropBefore(ISSUED + DAY_MS - HOUR_MS)).toBe(1);
    expect(store.issued.since('tulsa', 0).map((f) => f.issuedAt)).toEqual([ISSUED + DAY_MS, ISSUED + 2 * DAY_MS]);
    store.copyTo(join(dir, 'serve.db'));
    const served = openStore(join(dir, 'serve.db'));
    served.keepServedDays(0);
    expect(served.issued.count()).toBe(0);
    expect(store.issued.count()).toBe(2);
    served.close();
    store.close();
  });
});
