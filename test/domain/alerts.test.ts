import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ALERT_NAMESPACE, type AlertHour, alertName, alertsFor, nameUuid, topSpecies } from '../../src/domain/alerts.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { ALERT_CATEGORIES } from '../../src/domain/species/risk.js';

const HOUR = 3_600_000;
const CHICAGO = DEFAULT_CITIES.get('austin')!;

/** Hours from `from` (ms), each with the species `at` gives it. */
const hours = (from: number, count: number, at: (i: number) => Partial<AlertHour>): AlertHour[] =>
  Array.from({ length: count }, (_, i) => ({
    hour: from / HOUR + i,
    tree: null,
    grass: null,
    weed: null,
    total: null,
    species: null,
    timezone: 'America/Chicago',
    ...at(i),
  }));

describe('alert ids', () => {
  it("are RFC 9562 version 5 UUIDs, as Python's uuid.uuid5 makes them", () => {
    const names = [
      'austin:2026-03-08:High:tree,grass,weed,ragweed',
      'winston-salem:2026-11-01:Very High:ragweed',
      'san-josé:2026-01-01:Low:tree',
      '',
    ];
    const python = execFileSync(
      'python3',
      [
        '-c',
        'import sys, uuid, json\nns = uuid.UUID(sys.argv[1])\nprint(json.dumps([str(uuid.uuid5(ns, n)) for n in json.loads(sys.argv[2])]))',
        ALERT_NAMESPACE,
        JSON.stringify(names),
      ],
      { encoding: 'utf8' },
    );
    expect(names.map(nameUuid)).toEqual(JSON.parse(python));
  });

  it('are named by city, date, level and categories in one order', () => {
    expect(alertName('austin', '2026-03-08', { min: 'Very High', categories: ['tree', 'ragweed'] })).toBe(
      'austin:2026-03-08:Very High:tree,ragweed',
    );
  });
});

describe('alertsFor', () => {
  it('cuts the autumn change day in Chicago at its local midnights: 25 hours', () => {
    // 2026-11-01 runs from 05:00Z to 06:00Z the next day; grass High (20) in its last hour only.
    const list = hours(Date.parse('2026-11-01T05:00:00Z'), 25, (i) => ({ grass: i === 24 ? 20 : 1 }));
    const {
      dates,
      alerts: [alert, ...rest],
    } = alertsFor(CHICAGO, list, { min: 'High', categories: ALERT_CATEGORIES });
    expect(dates).toEqual(['2026-11-01']);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      date: '2026-11-01',
      tz: '-05:00',
      hours: 25,
      categories: [{ category: 'grass', risk: 'High', peak: 20 }],
    });
  });

  it('grades ragweed on the Weed.Ragweed allergen alone, and a weed group without it gives no ragweed alert', () => {
    const from = Date.parse('2026-09-10T05:00:00Z');
    const withRagweed = hours(from, 24, () => ({ weed: 80, species: { Weed: { Ragweed: 55, Pigweed: 25 } } }));
    const without = hours(from, 24, () => ({ weed: 80, species: { Weed: { Pigweed: 80 } } }));
    const rule = { min: 'High' as const, categories: ['ragweed' as const] };
    expect(alertsFor(CHICAGO, withRagweed, rule).alerts[0]!.categories).toEqual([{ category: 'ragweed', risk: 'High', peak: 55 }]);
    expect(alertsFor(CHICAGO, without, rule).alerts).toEqual([]);
  });

  it('says None days are no alert at any level, and a missing value is never one', () => {
    const list = hours(Date.parse('2026-09-10T05:00:00Z'), 24, (i) => ({ tree: i === 0 ? 0 : null }));
    expect(alertsFor(CHICAGO, list, { min: 'Low', categories: ALERT_CATEGORIES }).alerts).toEqual([]);
  });
});

describe('topSpecies', () => {
  it("names the day's allergens by their highest hour, leaving out plain-number groups and zeros, ties by name", () => {
    const list = hours(0, 3, (i) => ({ species: { Tree: { Oak: [5, 40, 10][i]!, Elm: 12, Ash: 0 }, Weed: { Ragweed: 12 }, Others: 99 } }));
    expect(topSpecies(list)).toEqual([
      { category: 'Tree', name: 'Oak', peak: 40 },
      { category: 'Tree', name: 'Elm', peak: 12 },
      { category: 'Weed', name: 'Ragweed', peak: 12 },
    ]);
  });
});
