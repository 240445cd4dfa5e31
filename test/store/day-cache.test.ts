/** The one cache of decoded city-days keys each city-day as a number or, for far dates, a string. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredHour } from '../../src/domain/hours.js';
import { DayCache } from '../../src/store/day-cache.js';

// Days around the numeric keys' ends (1790 and 2149), 1970, today's, and far either side.
const day = fc.oneof(
  fc.integer({ min: -65_540, max: -65_530 }),
  fc.integer({ min: 65_530, max: 65_540 }),
  fc.integer({ min: -5, max: 5 }),
  fc.integer({ min: 20_000, max: 20_500 }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
);
const cityDay = fc.tuple(fc.integer({ min: 0, max: 10_000 }), day);

describe('the day cache', () => {
  it('keeps every city-day apart: what one holds is never another city-day’s (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(cityDay, { selector: ([c, d]) => `${c} ${d}`, maxLength: 20 }), (drawn) => {
        // With each city-day, those a packed number would confuse it with: a city apart, and days a multiple of 2^16 apart.
        const near = drawn.flatMap(([c, d]) =>
          [-2, -1, 1, 2].flatMap((k) => [[c + k, d - k * 65_536] as const, [c + k, d - k * 131_072] as const]),
        );
        const keys = [...new Map([...drawn, ...near].filter(([c]) => c >= 0).map(([c, d]) => [`${c} ${d}`, [c, d] as const])).values()];
        const cache = new DayCache(keys.length + 1);
        const hoursOf = (city: number, d: number): StoredHour[] => [
          { hour: d * 24, tree: city, grass: null, weed: null, total: city, species: null, timezone: null, source: 's' },
        ];
        for (const [c, d] of keys) cache.set(c, d, hoursOf(c, d));
        for (const [c, d] of keys) expect(cache.get(c, d)).toEqual(hoursOf(c, d));
        const [first] = keys;
        if (first) {
          cache.delete(...first);
          expect(cache.get(...first)).toBeUndefined();
          for (const [c, d] of keys.slice(1)) expect(cache.get(c, d)).toEqual(hoursOf(c, d));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('drops the least recently used past its capacity', () => {
    const cache = new DayCache(2);
    const hours: StoredHour[] = [];
    cache.set(1, 20_000, hours);
    cache.set(1, 20_001, hours);
    cache.get(1, 20_000);
    cache.set(2, -70_000, hours);
    expect([cache.get(1, 20_000), cache.get(1, 20_001), cache.get(2, -70_000)]).toEqual([hours, undefined, hours]);
  });
});
