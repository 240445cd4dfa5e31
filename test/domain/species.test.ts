import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSpecies, encodeValues, sanitizeSpecies, shapeOf, type Species } from '../../src/domain/species.js';

const roundTrip = (s: Species): Species => decodeSpecies(JSON.parse(JSON.stringify(shapeOf(s))), encodeValues(s));

describe('species codec', () => {
  it('returns a provider payload with its key order and plain-number categories', () => {
    const sent = {
      Grass: { 'Grass / Poaceae': 17 },
      Others: 2,
      Tree: { Alder: 0, Birch: 1500, 'Cypress / Juniper / Cedar': 3, Oak: 0.25, Pine: 0 },
      Weed: { Ragweed: 1e15, Nettle: null },
    };
    const back = roundTrip(sent);
    expect(JSON.stringify(back)).toBe(JSON.stringify(sent));
  });

  it('keeps keys such as __proto__ as ordinary data', () => {
    const sent = JSON.parse('{"__proto__":{"constructor":4},"Tree":{"__proto__":5}}') as Species;
    const back = roundTrip(sent);
    expect(JSON.stringify(back)).toBe(JSON.stringify(sent));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it('packs a winter hour of zeros into the bitmap alone', () => {
    const zeros = { Grass: { G: 0 }, Others: 0, Tree: Object.fromEntries([...'abcdefghij'].map((k) => [k, 0])) };
    expect(encodeValues(zeros).length).toBe(2); // 12 slots, 2 bitmap bytes, no values
  });

  it('round-trips any payload of numbers, nulls and objects (property)', () => {
    const leaf = fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(null), fc.integer({ min: 2 ** 50, max: Number.MAX_SAFE_INTEGER }));
    const group = fc.oneof(leaf, fc.dictionary(fc.string(), leaf));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), group), (payload) => {
        expect(JSON.stringify(roundTrip(payload))).toBe(JSON.stringify(payload));
      }),
      { numRuns: 2000 },
    );
  });
});

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
