import { describe, expect, it } from 'vitest';
import { dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import type { RawPollenHour } from '../../src/domain/hours.js';
import { daysByDate, hoursByDay } from '../../src/ingest/normalize.js';
import { type DailyPollenBatch, type PollenBatch, ProviderError } from '../../src/providers/provider.js';

const D = 20_000;
const raw = (hour: number, tree: number): RawPollenHour => ({ time: hour * HOUR_MS, tree, grass: 1, weed: 0, species: null });
const batch = (hours: RawPollenHour[]): PollenBatch => ({ hours, timezone: 'America/Chicago' }) as PollenBatch;
/** Each day's hours as [hour, tree]. */
const shown = (days: ReturnType<typeof hoursByDay>) => [...days].map(([day, hours]) => [day, hours.map((h) => [h.hour, h.tree])]);

describe('hoursByDay', () => {
  it('groups hours sent in order by UTC day, in order', () => {
    const hours = [22, 23, 24, 25].map((h) => raw(D * 24 + h, h));
    expect(shown(hoursByDay('sample', batch(hours)))).toEqual([
      [
        D,
        [
          [D * 24 + 22, 22],
          [D * 24 + 23, 23],
        ],
      ],
      [
        D + 1,
        [
          [D * 24 + 24, 24],
          [D * 24 + 25, 25],
        ],
      ],
    ]);
  });

  it('sorts hours sent out of order, and keeps the later of an hour sent twice, as an upsert would', () => {
    const h = (n: number) => D * 24 + n;
    const hours = [raw(h(25), 1), raw(h(3), 2), raw(h(1), 3), raw(h(3), 4), raw(h(24), 5)];
    expect(shown(hoursByDay('sample', batch(hours)))).toEqual([
      [
        D + 1,
        [
          [h(24), 5],
          [h(25), 1],
        ],
      ],
      [
        D,
        [
          [h(1), 3],
          [h(3), 4],
        ],
      ],
    ]);
  });

  it('refuses a batch with an hour without a usable time', () => {
    expect(() => hoursByDay('sample', batch([raw(D * 24, 1), { ...raw(D * 24 + 1, 1), time: Number.NaN }]))).toThrow(/no valid time/);
  });
});

describe('daysByDate', () => {
  const day = (date: unknown) => ({
    date,
    tree: 12.5,
    grass: -1,
    weed: null,
    species: { Tree: { Oak: 12.5 } },
    providerLevels: { overall: 'low' },
  });
  const daily = (days: unknown[]) => ({ timezone: null, days }) as unknown as DailyPollenBatch;

  it("keys each day by its date's day number, its values checked and its own levels kept", () => {
    const days = daysByDate('atmospore', daily([day('2025-04-01'), day('2025-04-02')]));
    expect([...days.keys()]).toEqual([dayNumber('2025-04-01'), dayNumber('2025-04-02')]);
    expect(days.get(dayNumber('2025-04-01'))).toEqual({
      value: { tree: 12.5, grass: null, weed: null, total: 12.5, species: { Tree: { Oak: 12.5 } } },
      levels: { overall: 'low' },
    });
  });

  it.each([['2025-02-30'], ['2025-4-01'], [20_000], [undefined]])('makes a batch with the date %j a bad payload, not a crash', (date) => {
    let error: unknown;
    try {
      daysByDate('atmospore', daily([day('2025-04-01'), day(date)]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('bad_payload');
  });
});
