import { describe, expect, it } from 'vitest';
import { allergenPeak, allergenRisk, allergensOf, outlookCategory } from '../../src/domain/species/allergens.js';
import type { Species } from '../../src/domain/species/payload.js';
import { grade } from '../../src/domain/species/risk.js';

describe('allergensOf', () => {
  it('lists each allergen once, tree then grass then weed, leaving out plain-number groups and unknown categories', () => {
    const list = allergensOf([
      [['Weed', ['Ragweed']], ['Others'], ['Tree', ['Oak', 'Cypress / Juniper / Cedar']]],
      [
        ['Grass', ['Grass / Poaceae']],
        ['Tree', ['Birch', 'Oak']],
        ['Mold', ['Alternaria']],
      ],
    ]);
    expect(list.map((a) => `${a.category}:${a.slug}:${a.name}`)).toEqual([
      'tree:oak:Oak',
      'tree:cypress-juniper-cedar:Cypress / Juniper / Cedar',
      'tree:birch:Birch',
      'grass:grass-poaceae:Grass / Poaceae',
      'weed:ragweed:Ragweed',
    ]);
  });
});

describe('an allergen', () => {
  const [oak, ragweed] = allergensOf([
    [
      ['Tree', ['Oak']],
      ['Weed', ['Ragweed']],
    ],
  ]);

  it('peaks at its highest hourly value, null where no hour holds it', () => {
    const hours: Array<{ species: Species | null }> = [
      { species: { Tree: { Oak: 12 } } },
      { species: null },
      { species: { Tree: { Oak: 95, Elm: 400 } } },
    ];
    expect(allergenPeak(oak!, hours)).toBe(95);
    expect(allergenPeak(ragweed!, hours)).toBeNull();
  });

  it("is graded on its category's NAB range, and forecast as its category's outlook (ragweed as ragweed)", () => {
    for (const v of [0, 14, 15, 89, 90, 1499, 1500]) expect(allergenRisk(oak!, v)).toBe(grade('tree', v));
    expect(allergenRisk(oak!, 95)).toBe('High');
    expect([outlookCategory(oak!), outlookCategory(ragweed!)]).toEqual(['tree', 'ragweed']);
  });
});
