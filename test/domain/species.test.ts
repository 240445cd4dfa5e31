import { describe, expect, it } from 'vitest';
import { sanitizeSpecies } from '../../src/domain/species.js';

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
