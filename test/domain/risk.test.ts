import { describe, expect, it } from 'vitest';
import { measurement } from '../../src/domain/species/measurement.js';
import { categoryRisk, type Graded, grade, gradedValue, severity, THRESHOLDS } from '../../src/domain/species/risk.js';

const cases = (category: Graded) => {
  const [t1, t2, t3] = THRESHOLDS[category];
  return [
    [0, 'None'],
    [t1 / 2, 'Low'],
    [t1 - 0.001, 'Low'],
    [t1, 'Moderate'],
    [t1 + 0.001, 'Moderate'],
    [t2 - 0.001, 'Moderate'],
    [t2, 'High'],
    [t2 + 0.001, 'High'],
    [t3 - 0.001, 'High'],
    [t3, 'Very High'],
    [t3 + 0.001, 'Very High'],
    [t3 * 10, 'Very High'],
  ] as const;
};

describe('grade', () => {
  it('uses the NAB thresholds of decisions.md', () => {
    expect(THRESHOLDS).toEqual({ tree: [15, 90, 1500], grass: [5, 20, 200], weed: [10, 50, 500], ragweed: [10, 50, 500] });
  });

  for (const category of ['tree', 'grass', 'weed', 'ragweed'] as const) {
    it.each(cases(category))(`grades ${category} %s as %s`, (value, label) => {
      expect(grade(category, value)).toBe(label);
    });
    it(`keeps a missing ${category} value null`, () => {
      expect(grade(category, null)).toBeNull();
    });
  }
});

describe('the highest-allergen rule', () => {
  const species = {
    Grass: { 'Grass / Poaceae': 4 },
    Others: 7,
    Tree: { Oak: 120, Birch: 14, Pine: 0 },
    Weed: { Ragweed: 9, Nettle: 9 },
  };

  it('grades a category by its highest single allergen, not the category sum', () => {
    // Tree sum 134 and its highest allergen 120 are both High; Weed sum 18 would be Moderate, its highest (9) is Low.
    expect(gradedValue('tree', 134, species)).toBe(120);
    expect(categoryRisk('weed', 18, species)).toBe('Low');
    expect(categoryRisk('grass', 4, species)).toBe('Low');
  });

  it('grades the category value when the species object has no number for it', () => {
    expect(categoryRisk('tree', 95, { Tree: { Oak: null }, Others: 3 })).toBe('High');
    expect(categoryRisk('tree', 95, { Others: 3 })).toBe('High');
    expect(categoryRisk('tree', 95, null)).toBe('High');
    expect(categoryRisk('tree', null, null)).toBeNull();
  });

  it('grades a plain-number category as the category value', () => {
    expect(categoryRisk('grass', 25, { Grass: 3 })).toBe('High');
  });
});

describe('measurement', () => {
  it.each([
    [0, 0],
    [12.5, 12.5],
    [-1, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['12', null],
    [null, null],
    [undefined, null],
    [true, null],
  ])('accepts %s at ingest as %s', (raw, stored) => {
    expect(measurement(raw)).toBe(stored);
  });
});

describe('severity', () => {
  it.each([
    [null, 0],
    ['None', 0],
    ['Low', 1],
    ['Moderate', 2],
    ['High', 3],
    ['Very High', 4],
  ] as const)('maps %s to %s', (risk, sev) => {
    expect(severity(risk)).toBe(sev);
  });
});
