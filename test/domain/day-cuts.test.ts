import { describe, expect, it } from 'vitest';
import { dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { dayHours, dayOffset, dayOfHour, groupByDay, hasLocalMidnights, hoursByDay, localMidnight } from '../../src/domain/day-cuts.js';

const hourAt = (iso: string) => Date.parse(iso) / HOUR_MS;

describe("days cut in UTC or in a city's zone", () => {
  it.each([
    ['Pacific/Honolulu', '2026-03-08', '2026-03-08T10:00:00Z', '2026-03-09T10:00:00Z', 24],
    ['America/Chicago', '2026-03-08', '2026-03-08T06:00:00Z', '2026-03-09T05:00:00Z', 23],
    ['America/Chicago', '2026-11-01', '2026-11-01T05:00:00Z', '2026-11-02T06:00:00Z', 25],
    ['America/Chicago', '2026-07-04', '2026-07-04T05:00:00Z', '2026-07-05T05:00:00Z', 24],
    ['America/Phoenix', '2026-03-08', '2026-03-08T07:00:00Z', '2026-03-09T07:00:00Z', 24],
    ['America/Anchorage', '2026-11-01', '2026-11-01T08:00:00Z', '2026-11-02T09:00:00Z', 25],
    ['America/New_York', '2026-03-08', '2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z', 23],
  ])('cuts %s on %s from %s to %s (%i hours)', (zone, date, from, to, length) => {
    const day = dayNumber(date);
    expect(dayHours('local', zone, day)).toEqual({ from: hourAt(from), to: hourAt(to) });
    expect(hourAt(to) - hourAt(from)).toBe(length);
    expect(localMidnight(zone, day)).toBe(hourAt(from));
    expect(dayOfHour('local', zone, hourAt(from))).toBe(day);
    expect(dayOfHour('local', zone, hourAt(to) - 1)).toBe(day);
    expect(dayOfHour('local', zone, hourAt(to))).toBe(day + 1);
    expect(dayOfHour('local', zone, hourAt(from) - 1)).toBe(day - 1);
  });

  it('cuts UTC days at UTC midnight, whatever the zone', () => {
    const day = dayNumber('2026-03-08');
    expect(dayHours('UTC', 'America/Chicago', day)).toEqual({ from: day * 24, to: day * 24 + 24 });
    expect(dayOfHour('UTC', 'Pacific/Honolulu', day * 24 + 23)).toBe(day);
    expect(dayOffset('UTC', 'America/Chicago', day)).toBe('+00:00');
  });

  it('gives the offset at the start of a local day', () => {
    expect(dayOffset('local', 'America/Chicago', dayNumber('2026-03-08'))).toBe('-06:00');
    expect(dayOffset('local', 'America/Chicago', dayNumber('2026-03-09'))).toBe('-05:00');
    expect(dayOffset('local', 'Pacific/Honolulu', dayNumber('2026-07-01'))).toBe('-10:00');
  });

  it('groups ascending hours by local day across a daylight-saving change, skipping days without hours', () => {
    const from = hourAt('2026-10-31T05:00:00Z');
    const hours = Array.from({ length: 24 + 25 + 24 }, (_, i) => ({ hour: from + i })).filter(
      (h) => h.hour < from + 30 || h.hour >= from + 49,
    );
    const days = groupByDay('local', 'America/Chicago', hours);
    expect([...days.keys()]).toEqual([dayNumber('2026-10-31'), dayNumber('2026-11-01'), dayNumber('2026-11-02')]);
    expect([...days.values()].map((d) => d.length)).toEqual([24, 6, 24]);
    expect(days.get(dayNumber('2026-11-02'))![0]!.hour).toBe(hourAt('2026-11-02T06:00:00Z'));
  });

  it('streams a day as soon as the next one begins, starting each at its local midnight', () => {
    const from = hourAt('2026-03-07T06:00:00Z');
    let read = 0;
    const hours = (function* () {
      for (let i = 0; i < 24 + 23 + 24; i++) {
        read = i + 1;
        yield { hour: from + i };
      }
    })();
    const days = hoursByDay('local', 'America/Chicago', hours);
    const first = days.next().value!;
    expect(first).toMatchObject({ day: dayNumber('2026-03-07'), from });
    expect(first.hours).toHaveLength(24);
    expect(read).toBe(25); // one hour past the day, not the whole range
    const second = days.next().value!;
    expect([second.day, second.from, second.hours.length]).toEqual([dayNumber('2026-03-08'), hourAt('2026-03-08T06:00:00Z'), 23]);
  });

  it.each([
    ['America/Chicago', true],
    ['Pacific/Honolulu', true],
    ['America/St_Johns', false],
    ['Asia/Kolkata', false],
    ['Australia/Eucla', false],
    ['America/Havana', false], // whole hours, but its clocks change at midnight
    ['America/Santiago', false],
  ])('knows whether every local day of %s begins at a whole UTC hour: %s', (zone, whole) => {
    expect(hasLocalMidnights(zone, 2025)).toBe(whole);
  });

  it('starts a day of local mean time (Honolulu before 1947, 10:30 behind UTC) at the first whole UTC hour in it', () => {
    const day = dayNumber('1946-01-01');
    const from = localMidnight('Pacific/Honolulu', day);
    expect(from).toBe(hourAt('1946-01-01T11:00:00Z'));
    expect(dayOfHour('local', 'Pacific/Honolulu', from)).toBe(day);
    expect(dayOfHour('local', 'Pacific/Honolulu', from - 1)).toBe(day - 1);
    expect(dayHours('local', 'Pacific/Honolulu', day)).toEqual({ from, to: from + 24 });
  });
});
