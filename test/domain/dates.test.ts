import { describe, expect, it } from 'vitest';
import { civilDate, DAY_MS, dayOfDate, HOUR_MS, isLeapYear, isoHour } from '../../src/domain/dates.js';

describe('isoHour', () => {
  it('writes every hour as toISOString does, the same hour again and past the hours it keeps', () => {
    const first = Date.UTC(2024, 0, 1) / HOUR_MS;
    // Three passes over more hours than it keeps (8,192), the second in reverse.
    const hours = Array.from({ length: 10_000 }, (_, i) => first + i);
    for (const pass of [hours, [...hours].reverse(), hours])
      for (const hour of pass) expect(isoHour(hour)).toBe(new Date(hour * HOUR_MS).toISOString());
  });
});

describe('civilDate and dayOfDate', () => {
  it("agree with Date on every day from 1899 to 2101, and are each other's inverse", () => {
    // Across 1900 and 2100 (not leap years), 2000 (one), and days before 1970 (negative numbers).
    for (let day = Math.floor(Date.UTC(1899, 0, 1) / DAY_MS); day <= Math.floor(Date.UTC(2101, 11, 31) / DAY_MS); day++) {
      const d = new Date(day * DAY_MS);
      const expected: [number, number, number] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
      const civil = civilDate(day);
      if (civil.some((x, i) => x !== expected[i])) expect(civil).toEqual(expected);
      if (dayOfDate(...civil) !== day) expect(dayOfDate(...civil)).toBe(day);
    }
  });

  it('knows the leap years', () => {
    expect([1900, 2000, 2024, 2025, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
  });
});
