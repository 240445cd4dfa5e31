import fc from 'fast-check';
import type { Species } from '../../src/domain/species/payload.js';

/** A leaf as providers send them, and as the store must keep them: numbers (-0 too) and nulls. */
export const leafValue = fc.oneof(fc.nat({ max: 3000 }), fc.double({ min: 0, max: 5000, noNaN: true }), fc.constant(null), fc.constant(-0));

/**
 * Payloads that all have one key shape, drawn at random (groups as objects or plain numbers, keys
 * such as Ragweed and __proto__), in JSON's form: parsed, as a provider's body is.
 */
export const oneShapePayloads = (count: number) =>
  fc
    .uniqueArray(
      fc.record({
        category: fc.constantFrom('Tree', 'Grass', 'Weed', 'Others', '__proto__'),
        keys: fc.option(fc.uniqueArray(fc.constantFrom('Oak', 'Ash', 'Ragweed', 'Grass / Poaceae', '__proto__', '7'), { maxLength: 4 })),
      }),
      { selector: (g) => g.category, minLength: 1, maxLength: 5 },
    )
    .chain((shape) =>
      fc
        .array(fc.array(leafValue, { minLength: shape.reduce((n, g) => n + (g.keys === null ? 1 : g.keys.length), 0), maxLength: 64 }), {
          minLength: count,
          maxLength: count,
        })
        .map((rows) =>
          rows.map((leaves) => {
            let next = 0;
            const text = (v: number | null) => (Object.is(v, -0) ? '-0' : JSON.stringify(v));
            const groups = shape.map(
              (g) =>
                `${JSON.stringify(g.category)}:${g.keys === null ? text(leaves[next++]!) : `{${g.keys.map((k) => `${JSON.stringify(k)}:${text(leaves[next++]!)}`).join(',')}}`}`,
            );
            return JSON.parse(`{${groups.join(',')}}`) as Species;
          }),
        ),
    );
