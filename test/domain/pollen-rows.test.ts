import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { dailyRow } from '../../src/domain/day-values.js';
import { byDay, hourlyRow, meanSpecies } from '../../src/domain/pollen-rows.js';
import { hour } from '../helpers/hours.js';

const D = dayNumber('2025-04-10');

// Three hours with a gap (02-04 missing), nulls, a missing species payload and a missing category.
const hours = [
  hour(D, 0, {
    tree: 10,
    grass: 2,
    weed: null,
    species: { Tree: { Oak: 6, Elm: 4 }, Grass: { 'Grass / Poaceae': 2 }, Others: 1, Weed: { Ragweed: null } },
  }),
  hour(D, 1, { tree: 20, grass: null, weed: 12, species: { Tree: { Oak: 15, Elm: 5 }, Others: 3, Weed: { Ragweed: 12 } } }),
  hour(D, 5, { tree: 31, grass: 4, weed: 0, species: null }),
];

describe('hourlyRow', () => {
  it('shows a stored hour with its time, risks and zone', () => {
    expect(hourlyRow(hours[1]!)).toEqual({
      ts: '2025-04-10T01:00:00.000Z',
      tree: 20,
      grass: null,
      weed: 12,
      total: 32,
      species: { Tree: { Oak: 15, Elm: 5 }, Others: 3, Weed: { Ragweed: 12 } },
      risk_tree: 'Moderate',
      risk_grass: null,
      risk_weed: 'Moderate',
      timezone: 'America/Chicago',
    });
  });
});

describe('dailyRow', () => {
  it('averages hours skipping nulls, grades the unrounded species means and keeps the peaks', () => {
    expect(dailyRow(D, hours)).toEqual({
      date: '2025-04-10',
      tree: 20, // (10 + 20 + 31) / 3 = 20.33
      grass: 3, // (2 + 4) / 2
      weed: 6, // (12 + 0) / 2
      total: 26, // (12 + 32 + 35) / 3 = 26.33
      species: { Tree: { Oak: 11, Elm: 5 }, Grass: { 'Grass / Poaceae': 2 }, Others: 2, Weed: { Ragweed: 12 } },
      risk_tree: 'Low', // highest species mean Oak 10.5, although the tree mean 20.33 would be Moderate
      risk_grass: 'Low',
      risk_weed: 'Moderate', // Ragweed mean 12
      timezone: 'America/Chicago',
      peak_tree: 31,
      peak_grass: 4,
      peak_weed: 12,
      peak_total: 35,
      peak_risk_tree: 'Moderate', // Oak 15 at 01:00
      peak_risk_grass: 'Low',
      peak_risk_weed: 'Moderate',
    });
  });

  it('grades the mean before rounding it', () => {
    const row = dailyRow(D, [hour(D, 0, { grass: 4 }), hour(D, 1, { grass: 5 })]);
    expect(row.grass).toBe(5); // 4.5 rounds up ...
    expect(row.risk_grass).toBe('Low'); // ... but 4.5 is below the Moderate threshold of 5
    expect(row.peak_risk_grass).toBe('Moderate');
  });

  it('gives null values and risks for a day whose hours carry no value', () => {
    const row = dailyRow(D, [hour(D, 3, {})]);
    expect(row).toMatchObject({
      tree: null,
      grass: null,
      weed: null,
      total: 0,
      species: null,
      risk_tree: null,
      peak_tree: null,
      peak_risk_weed: null,
    });
  });
});

describe('meanSpecies', () => {
  it('keeps the first form of a category seen as both a number and an object', () => {
    expect(meanSpecies([{ Others: 2 }, { Others: { x: 5 } }, { Others: 4 }, null])).toEqual({ Others: 3 });
  });

  it('is null when no hour has a payload', () => {
    expect(meanSpecies([null, null])).toBeNull();
  });
});

describe('byDay', () => {
  it('groups ascending hours by UTC day', () => {
    const grouped = byDay([hour(D - 1, 23, {}), hour(D, 0, {}), hour(D, 7, {})]);
    expect([...grouped.keys()]).toEqual([D - 1, D]);
    expect(grouped.get(D)!.map((h) => h.hour % 24)).toEqual([0, 7]);
  });
});
