import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import type { StoredStatus } from '../../src/domain/day-status.js';
import { decide, type KindPlan, plan } from '../../src/ingest/plan.js';
import type { Coverage } from '../../src/providers/provider.js';

const D = 20_000; // a day number; "today" in these tables
const ambee: Coverage = { oldestHour: (D - 2) * 24 + 7, newestHour: D * 24 + 6, retryFromHour: (D - 2) * 24 + 7 };
const sample: Coverage = { oldestHour: null, newestHour: D * 24 + 6, retryFromHour: D * 24 + 6 - 72 };

describe('decide', () => {
  it.each<[string, number, StoredStatus | undefined, 'pollen' | 'weather', Coverage, ReturnType<typeof decide>]>([
    ['a day never asked, inside the window, is asked whole', D - 1, undefined, 'pollen', ambee, { from: (D - 1) * 24, to: D * 24 }],
    [
      'a day straddling the window is asked for its hours inside',
      D - 2,
      undefined,
      'pollen',
      ambee,
      { from: (D - 2) * 24 + 7, to: (D - 1) * 24 },
    ],
    ['a day before the window is outside it, and not asked', D - 3, undefined, 'pollen', ambee, 'outside_window'],
    ['a complete day is not asked again', D - 1, 'complete', 'pollen', ambee, 'complete'],
    ['a partial day inside the window is asked again', D - 2, 'partial', 'pollen', ambee, { from: (D - 2) * 24 + 7, to: (D - 1) * 24 }],
    ['a partial day that left the window is final', D - 3, 'partial', 'pollen', ambee, 'partial'],
    ['an empty day inside the window is asked again', D - 1, 'empty', 'pollen', ambee, { from: (D - 1) * 24, to: D * 24 }],
    ['an empty day that left the window is final', D - 5, 'empty', 'pollen', ambee, 'empty'],
    [
      'without a window, a partial day is asked again for 3 days',
      D - 3,
      'partial',
      'pollen',
      sample,
      { from: (D - 3) * 24, to: (D - 2) * 24 },
    ],
    ['without a window, a partial day older than 3 days is final', D - 4, 'partial', 'pollen', sample, 'partial'],
    [
      'without a window, an old day never asked is asked',
      D - 400,
      undefined,
      'pollen',
      sample,
      { from: (D - 400) * 24, to: (D - 399) * 24 },
    ],
    ['weather is asked only for whole days inside', D - 2, undefined, 'weather', ambee, 'outside_window'],
    ['today is not over: its weather is outside', D, undefined, 'weather', sample, 'outside_window'],
  ])('%s', (_what, day, stored, kind, coverage, expected) => {
    expect(decide(day, stored, kind, coverage, false)).toEqual(expected);
  });

  it('asks again for complete days inside the window with refresh, and never outside it', () => {
    expect(decide(D - 1, 'complete', 'pollen', ambee, true)).toEqual({ from: (D - 1) * 24, to: D * 24 });
    expect(decide(D - 3, 'complete', 'pollen', ambee, true)).toBe('complete');
    expect(decide(D - 3, undefined, 'pollen', ambee, true)).toBe('outside_window');
  });
});

describe('plan', () => {
  const cities = ['austin', 'boise', 'miami'].map((s) => DEFAULT_CITIES.get(s)!);
  const kind = (coverage: Coverage, maxDaysPerCall: number, stored: Record<string, Record<number, StoredStatus>> = {}): KindPlan => ({
    kind: 'pollen',
    coverage,
    maxDaysPerCall,
    stored: (c) => new Map(Object.entries(stored[c.slug] ?? {}).map(([d, s]) => [Number(d), s])),
  });

  it("orders requests newest first across cities: every city's newest days before any older day", () => {
    const { tasks } = plan({ from: D - 9, to: D - 1 }, cities, [kind(sample, 3)], false);
    expect(tasks.map((t) => `${t.city.slug} ${t.days[0]! - D}..${t.days.at(-1)! - D}`)).toEqual([
      'austin -3..-1',
      'boise -3..-1',
      'miami -3..-1',
      'austin -6..-4',
      'boise -6..-4',
      'miami -6..-4',
      'austin -9..-7',
      'boise -9..-7',
      'miami -9..-7',
    ]);
  });

  it('splits requests at settled days and clips them to the window', () => {
    const { tasks, settled } = plan(
      { from: D - 4, to: D - 1 },
      cities.slice(0, 1),
      [kind(ambee, 2, { austin: { [D - 1]: 'complete' } })],
      false,
    );
    expect(tasks).toEqual([{ kind: 'pollen', city: cities[0], days: [D - 2], hours: { from: (D - 2) * 24 + 7, to: (D - 1) * 24 } }]);
    expect([...settled]).toEqual([
      [`pollen|austin|${D - 1}`, 'complete'],
      [`pollen|austin|${D - 3}`, 'outside_window'],
      [`pollen|austin|${D - 4}`, 'outside_window'],
    ]);
  });
});
