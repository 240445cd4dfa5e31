import { describe, expect, it } from 'vitest';
import { hasShape, type Species, sanitizeSpecies, shapeKey, shapeOf } from '../../src/domain/species/payload.js';

describe('sanitizeSpecies', () => {
  it('stores invalid leaves as null and keeps everything else as sent', () => {
    expect(sanitizeSpecies({ Tree: { Oak: -1, Elm: '3', Ash: 4 }, Others: Number.NaN, Weed: { Deep: { x: 1 } } })).toEqual({
      Tree: { Oak: null, Elm: null, Ash: 4 },
      Others: null,
      Weed: { Deep: null },
    });
  });

  it.each([[null], [undefined], ['text'], [[1, 2]], [42]])('treats %j as no payload', (raw) => {
    expect(sanitizeSpecies(raw)).toBeNull();
  });
});

describe('hasShape', () => {
  const shape = shapeOf({ Tree: { Oak: 1, Ash: 2 }, Others: 3 });
  it.each([
    [{ Tree: { Oak: 9, Ash: null }, Others: 0 }, true],
    [{ Tree: { Ash: 2, Oak: 1 }, Others: 3 }, false],
    [{ Tree: { Oak: 1 }, Others: 3 }, false],
    [{ Tree: { Oak: 1, Ash: 2, Elm: 1 }, Others: 3 }, false],
    [{ Tree: 4, Others: 3 }, false],
    [{ Tree: { Oak: 1, Ash: 2 }, Others: { x: 1 } }, false],
    [{ Tree: { Oak: 1, Ash: 2 } }, false],
    [{ Tree: { Oak: 1, Ash: 2 }, Others: 3, Grass: 1 }, false],
  ])('%j has the shape of {Tree: {Oak, Ash}, Others}: %s', (species, expected) => {
    expect(hasShape(species as Species, shape)).toBe(expected);
    expect(hasShape(species as Species, shape)).toBe(shapeKey(species as Species) === shapeKey({ Tree: { Oak: 1, Ash: 2 }, Others: 3 }));
  });
});

describe('sanitizeSpecies on a clean payload', () => {
  it('keeps a clean payload as it is, and copies one with a leaf to change', () => {
    const clean = { Tree: { Oak: 1, Ash: null }, Others: 2 };
    expect(sanitizeSpecies(clean)).toBe(clean);
    const dirty = { Tree: { Oak: -1, Ash: 'x' }, Others: 2 };
    expect(sanitizeSpecies(dirty)).toEqual({ Tree: { Oak: null, Ash: null }, Others: 2 });
    expect(dirty.Tree.Oak).toBe(-1);
  });
});
