import { describe, expect, it } from 'vitest';
import { HOUR_MS, isoHour } from '../../src/domain/dates.js';

describe('isoHour', () => {
  it('writes every hour as toISOString does, the same hour again and past the hours it keeps', () => {
    const first = Date.UTC(2024, 0, 1) / HOUR_MS;
    // Three passes over more hours than it keeps (8,192), the second in reverse.
    const hours = Array.from({ length: 10_000 }, (_, i) => first + i);
    for (const pass of [hours, [...hours].reverse(), hours])
      for (const hour of pass) expect(isoHour(hour)).toBe(new Date(hour * HOUR_MS).toISOString());
  });
});
