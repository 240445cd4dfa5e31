import { describe, expect, it } from 'vitest';
import { groupOf, plantName } from '../../src/domain/species/plant-names.js';

describe('plant names', () => {
  it.each([
    ['tree', 'Tree'],
    ['Trees', 'Tree'],
    ['grass', 'Grass'],
    ['Grasses', 'Grass'],
    ['weed', 'Weed'],
    ['weeds', 'Weed'],
    ['mold', 'Others'],
    [undefined, 'Others'],
  ])('puts the category word %s in %s', (word, group) => {
    expect(groupOf(word)).toBe(group);
  });

  it('keeps a grass the table does not name under Grass, by its own name', () => {
    expect(plantName('sorghum', 'grass', 'Johnson Grass')).toEqual({ group: 'Grass', name: 'Johnson Grass' });
  });

  it.each([
    ['timothy', 'phleum', 'Timothy Grass'],
    ['lolium', 'ryegrass', 'Ryegrass'],
    ['betulaceae', 'Birch family', 'Birch family'],
    ['spruce', 'picea', 'Spruce'],
  ])('names %s and %s as one plant', (a, b, name) => {
    expect(plantName(a).name).toBe(name);
    expect(plantName(b).name).toBe(name);
  });
});
