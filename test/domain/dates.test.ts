import { describe, expect, it } from 'vitest';
import { civilDate, DAY_MS, dayOfDate, dayOfYear, dayString, HOUR_MS, isLeapYear, isoHour } from '../../src/domain/dates.js';
import { seasonYearOf } from '../../src/domain/seasons/year.js';

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

  it('give dayString, dayOfYear and seasonYearOf as Date does, on every day from 1899 to 2101', () => {
    for (let day = Math.floor(Date.UTC(1899, 0, 1) / DAY_MS); day <= Math.floor(Date.UTC(2101, 11, 31) / DAY_MS); day++) {
      const d = new Date(day * DAY_MS);
      const iso = d.toISOString().slice(0, 10);
      if (dayString(day) !== iso) expect(dayString(day)).toBe(iso);
      const ofYear = day - Date.UTC(d.getUTCFullYear(), 0, 1) / DAY_MS + 1;
      if (dayOfYear(day) !== ofYear) expect(dayOfYear(day)).toBe(ofYear);
      const treeYear = d.getUTCFullYear() + (d.getUTCMonth() >= 9 ? 1 : 0);
      if (seasonYearOf('tree', day) !== treeYear) expect(seasonYearOf('tree', day)).toBe(treeYear);
      if (seasonYearOf('grass', day) !== d.getUTCFullYear()) expect(seasonYearOf('grass', day)).toBe(d.getUTCFullYear());
    }
  });

  it('write the days of years beyond four digits, and days between days, as toISOString does', () => {
    // Years 0 to 999, -1 and 10000 (which toISOString writes with a sign and six digits), a fraction of a day.
    const days = [dayOfDate(0, 1, 1), dayOfDate(999, 12, 31), dayOfDate(-1, 6, 15), dayOfDate(10_000, 1, 1), 20_000.5, -0.25];
    for (const day of days) expect(dayString(day)).toBe(new Date(day * DAY_MS).toISOString().slice(0, 10));
  });

  it('knows the leap years', () => {
    expect([1900, 2000, 2024, 2025, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
  });
});
