import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber, dayString, HOUR_MS } from '../../src/domain/dates.js';
import type { SeasonDay } from '../../src/domain/seasons/year.js';
import { Climatology, Sample, sameDateYearsBefore } from '../../src/domain/verification/climatology.js';
import { medianDay, persistenceOn } from '../../src/domain/verification/references.js';
import {
  coveredEnough,
  type IssuedForecast,
  latestAtLead,
  observedSeries,
  type TargetDay,
  targetDays,
} from '../../src/domain/verification/target-days.js';

const CHICAGO = 'America/Chicago';
const hourAt = (iso: string) => Date.parse(iso) / HOUR_MS;

/** A forecast issued at `iso` whose hours run from that hour for `count` hours, tree = tree(hour). */
function forecast(iso: string, count: number, tree: (hour: number) => number = () => 20): IssuedForecast {
  const first = Math.floor(hourAt(iso));
  return {
    issuedAt: Date.parse(iso),
    hours: Array.from({ length: count }, (_, i) => {
      const hour = first + i;
      return { hour, tree: tree(hour), grass: 1, weed: 0, total: tree(hour) + 1, species: null, timezone: CHICAGO };
    }),
  };
}
const summary = (days: TargetDay[]) => days.map((d) => [dayString(d.day), d.lead, d.hours, d.dayLength]);

describe('the days a forecast forecasts', () => {
  it('gives each UTC day its lead, and keeps a day only when the forecast holds three quarters of its hours', () => {
    // 192 hours from 05:30Z: the issue day holds 19 hours (05-23), the next seven 24, the ninth 5.
    const days = targetDays(forecast('2026-04-10T05:30:00Z', 192), CHICAGO, 'UTC');
    expect(summary(days)).toEqual([
      ['2026-04-10', 0, 19, 24],
      ...[11, 12, 13, 14, 15, 16, 17].map((d, i) => [`2026-04-${d}`, i + 1, 24, 24]),
    ]);
    // From 06:00Z the issue day still holds 18 of 24; from 07:00Z only 17: it is left out.
    expect(targetDays(forecast('2026-04-10T06:00:00Z', 48), CHICAGO, 'UTC')[0]).toMatchObject({ lead: 0, hours: 18 });
    expect(targetDays(forecast('2026-04-10T07:00:00Z', 48), CHICAGO, 'UTC')[0]).toMatchObject({ lead: 1, hours: 24 });
  });

  it("counts leads from the city's local issue day across local midnight", () => {
    // 03:00Z on 10 April is 22:00 on 9 April in Chicago (UTC-5 in summer time).
    const issued = forecast('2026-04-10T03:00:00Z', 48);
    // UTC: 10 April holds 21 hours (03-23) and is the issue day; 11 April is lead 1; 12 April holds 3.
    expect(summary(targetDays(issued, CHICAGO, 'UTC'))).toEqual([
      ['2026-04-10', 0, 21, 24],
      ['2026-04-11', 1, 24, 24],
    ]);
    // Local: the issue day is 9 April (2 hours left, dropped); 10 April runs 05Z-05Z and is lead 1; 11 April holds 22 of 24.
    expect(summary(targetDays(issued, CHICAGO, 'local'))).toEqual([
      ['2026-04-10', 1, 24, 24],
      ['2026-04-11', 2, 22, 24],
    ]);
  });

  it('cuts the 23-hour spring day and the 25-hour autumn day, with three quarters of each', () => {
    // 8 March 2026 in Chicago: 06:00Z to 05:00Z the next day, 23 hours; 18 of them make a day.
    const spring = forecast('2026-03-07T18:00:00Z', 12 + 23);
    expect(summary(targetDays(spring, CHICAGO, 'local'))).toEqual([['2026-03-08', 1, 23, 23]]);
    const short = { ...spring, hours: spring.hours.filter((h) => h.hour < hourAt('2026-03-09T00:00:00Z')) }; // 06Z-23Z: 18 hours
    expect(summary(targetDays(short, CHICAGO, 'local'))).toEqual([['2026-03-08', 1, 18, 23]]);
    const shorter = { ...spring, hours: spring.hours.filter((h) => h.hour < hourAt('2026-03-08T23:00:00Z')) }; // 17 hours
    expect(targetDays(shorter, CHICAGO, 'local')).toEqual([]);
    // 1 November 2026: 05:00Z to 06:00Z the next day, 25 hours; 19 of them make a day (18.75 rounded up).
    const autumn = forecast('2026-11-01T05:00:00Z', 19);
    expect(summary(targetDays(autumn, CHICAGO, 'local'))).toEqual([['2026-11-01', 0, 19, 25]]);
    expect(targetDays(forecast('2026-11-01T05:00:00Z', 18), CHICAGO, 'local')).toEqual([]);
    expect([coveredEnough(18, 24), coveredEnough(17, 24), coveredEnough(18, 23), coveredEnough(19, 25), coveredEnough(18, 25)]).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
  });

  it('gives each day its mean to a thousandth, graded as the daily rows grade it (unrounded)', () => {
    // Tree alternating 10 and 19 over the 24 hours of 11 April UTC: mean 14.5, which the daily rows
    // round to 15 but grade Low (below 15): verification keeps 14.5.
    const days = targetDays(
      forecast('2026-04-11T00:00:00Z', 24, (h) => (h % 2 === 0 ? 10 : 19)),
      CHICAGO,
      'UTC',
    );
    expect(days[0]!.levels).toEqual({
      tree: { value: 14.5, level: 'Low' },
      grass: { value: 1, level: 'Low' },
      weed: { value: 0, level: 'None' },
    });
    // No species, so no Ragweed.
    expect(days[0]!.levels.ragweed).toBeUndefined();
  });
});

describe('the observed days verification reads', () => {
  const values = (day: number, hours: number, tree: number | null) => ({
    day,
    hours,
    exact: { tree, grass: null, weed: null, ragweed: null },
    means: { risk_tree: tree === null ? null : tree < 15 ? ('Low' as const) : ('Moderate' as const), risk_grass: null, risk_weed: null },
  });

  it('keeps a day of three quarters of its hours or more, with its mean to a thousandth', () => {
    const series = observedSeries(
      [values(10, 24, 14.987) as never, values(11, 17, 30) as never, values(12, 18, 40.5) as never, values(13, 24, null) as never],
      'tree',
    );
    expect([...series]).toEqual([
      [10, { value: 14.987, risk: 'Low' }],
      [12, { value: 40.5, risk: 'Moderate' }],
    ]);
  });

  it('forecasts persistence by the last day observed before the issue day, at most three days back', () => {
    const series = new Map<number, SeasonDay>([
      [10, { value: 5, risk: 'Low' }],
      [11, { value: 50, risk: 'Moderate' }],
    ]);
    expect(persistenceOn(series, 12)).toEqual({ day: 11, value: 50, level: 'Moderate' });
    expect(persistenceOn(series, 14)).toEqual({ day: 11, value: 50, level: 'Moderate' });
    expect(persistenceOn(series, 15)).toBeNull();
    expect(persistenceOn(series, 10)).toBeNull();
  });

  it('takes the last forecast issued on a day for each day it reached at a lead', () => {
    const morning = targetDays(
      forecast('2026-04-10T06:00:00Z', 48, () => 20),
      CHICAGO,
      'UTC',
    );
    const evening = targetDays(
      forecast('2026-04-10T18:00:00Z', 48, () => 200),
      CHICAGO,
      'UTC',
    );
    const atOne = latestAtLead([...evening, ...morning], 1);
    expect(atOne.map((t) => [dayString(t.day), t.issuedAt, t.levels.tree])).toEqual([
      ['2026-04-11', Date.parse('2026-04-10T18:00:00Z'), { value: 200, level: 'High' }],
    ]);
    // Lead 2 (12 April): the evening forecast holds 18 hours of it, the morning one 6.
    expect(latestAtLead([...morning, ...evening], 2).map((t) => t.issuedAt)).toEqual([Date.parse('2026-04-10T18:00:00Z')]);
  });
});

describe("climatology's days", () => {
  it('takes the median day of the earlier years around the same date: the lower middle one', () => {
    const target = dayNumber('2026-05-20');
    const series = new Map<number, SeasonDay>([[target, { value: 30, risk: 'Moderate' }]]);
    // 2025: 13 to 27 May (a week either side of the 20th) at 1, 2, ... 15 grains; 2024: 20 May alone at 100.
    const may20th2025 = sameDateYearsBefore(target, 1);
    expect(may20th2025).toBe(dayNumber('2025-05-20'));
    for (let i = 0; i < 15; i++) series.set(may20th2025 - 7 + i, { value: i + 1, risk: i + 1 < 15 ? 'Low' : 'Moderate' });
    series.set(dayNumber('2024-05-20'), { value: 100, risk: 'High' });
    series.set(dayNumber('2025-05-28'), { value: 900, risk: 'High' }); // a day outside the window: not counted
    // 16 days: 1..15 and 100. Sorted, the lower middle one is the 8th: 8 grains, Low.
    expect(medianDay(Climatology.of(series).sample(target))).toEqual({ value: 8, level: 'Low' });
    // This year's season 3 days later than 2025's: 2025's window is read 3 days earlier, 10 to 24 May: days 1..12 held, and 100.
    // 13 days: the 7th is 7 grains.
    expect(medianDay(Climatology.of(series, { shiftDays: new Map([[2025, 3]]) }).sample(target))).toEqual({ value: 7, level: 'Low' });
    expect(medianDay(new Climatology(new Map()).sample(target))).toBeUndefined();
  });

  it('takes the median day as a sort by daily mean, then day, would: the lower middle one', () => {
    // Members with few distinct means, so that ties (broken by the day) are the rule.
    const member = fc.record({ value: fc.integer({ min: 0, max: 6 }), level: fc.integer({ min: 0, max: 4 }) });
    fc.assert(
      fc.property(fc.array(member, { maxLength: 70 }), fc.integer({ min: 0, max: 1000 }), (members, shift) => {
        // Distinct days, not in order: a sample holds each day once.
        const days = members.map((_, i) => 20_000 + ((i * 37 + shift) % 997));
        fc.pre(new Set(days).size === days.length);
        const packed = new Float64Array(members.flatMap((m, i) => [days[i]!, 2025, m.value, m.level]));
        const sorted = members.map((m, i) => ({ ...m, day: days[i]! })).sort((a, b) => a.value - b.value || a.day - b.day);
        const middle = sorted[(sorted.length - 1) >> 1];
        expect(medianDay(new Sample(members.length, packed))).toEqual(
          middle && { value: middle.value, level: ['None', 'Low', 'Moderate', 'High', 'Very High'][middle.level] },
        );
      }),
      { numRuns: 300 },
    );
  });

  it('makes one climatology of a series for the same options, and another for other ones', () => {
    const series = new Map<number, SeasonDay>([[dayNumber('2025-05-20'), { value: 3, risk: 'Low' }]]);
    const plain = Climatology.of(series);
    expect(Climatology.of(series, { windowDays: 7, shiftDays: new Map() })).toBe(plain);
    const shifted = Climatology.of(series, {
      shiftDays: new Map([
        [2025, 3],
        [2024, -2],
      ]),
    });
    expect(shifted).not.toBe(plain);
    expect(
      Climatology.of(series, {
        shiftDays: new Map([
          [2024, -2],
          [2025, 3],
        ]),
      }),
    ).toBe(shifted);
    expect(Climatology.of(series, { windowDays: 3 })).not.toBe(plain);
    expect(Climatology.of(new Map(series))).not.toBe(plain);
  });

  it('reads 29 February of a leap year as 28 February of the years before', () => {
    expect(sameDateYearsBefore(dayNumber('2028-02-29'), 1)).toBe(dayNumber('2027-02-28'));
    expect(sameDateYearsBefore(dayNumber('2028-02-29'), 4)).toBe(dayNumber('2024-02-29'));
  });
});
