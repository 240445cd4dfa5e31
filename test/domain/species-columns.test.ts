import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpeciesColumns } from '../../src/domain/species/leaf-arrays.js';
import type { Species } from '../../src/domain/species/payload.js';
import { type Category, gradedValue } from '../../src/domain/species/risk.js';
import { leaves, speciesSum } from '../../src/store/codec.js';
import { oneShapePayloads } from '../helpers/species.js';

const CATEGORIES: readonly Category[] = ['tree', 'grass', 'weed'];
const ragweedOf = (s: Species): number | null => {
  const weed = s.Weed;
  return weed !== null && typeof weed === 'object' && typeof weed.Ragweed === 'number' ? weed.Ragweed : null;
};

describe('SpeciesColumns', () => {
  it('gives each payload of one shape its leaves, graded values, sums and Ragweed as the payload itself does (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 25 }).chain((n) => fc.tuple(oneShapePayloads(n), fc.array(fc.boolean(), { minLength: n, maxLength: n }))),
        fc.option(fc.double({ min: 0, max: 5000, noNaN: true })),
        ([payloads, without], value) => {
          // Hours without a payload in between: a column's rows are the hours with one.
          const hours = payloads.map((species, i) => ({ species: without[i] && i > 0 ? null : species }));
          const columns = SpeciesColumns.of(hours)!;
          const withPayload = hours.map((h) => h.species).filter((s): s is Species => s !== null);
          expect(columns.rows).toBe(withPayload.length);
          withPayload.forEach((s, row) => {
            expect(leaves(s).map((_, slot) => columns.leaf(row, slot))).toEqual(leaves(s));
            for (const c of CATEGORIES) {
              expect(Object.is(columns.graded(row, c, value), gradedValue(c, value, s))).toBe(true);
              expect(Object.is(columns.sum(row, c), speciesSum(c, s))).toBe(true);
            }
            expect(columns.ragweed(row)).toBe(ragweedOf(s));
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('takes the hours of a span across days read before as reading those hours would (property)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 48 })
          .chain((n) =>
            fc.tuple(
              oneShapePayloads(n),
              fc.uniqueArray(fc.integer({ min: 0, max: 47 }), { minLength: n, maxLength: n }),
              fc.array(fc.boolean(), { minLength: n, maxLength: n }),
            ),
          ),
        fc.integer({ min: 0, max: 47 }),
        fc.integer({ min: 1, max: 25 }),
        ([payloads, at, without], from, length) => {
          const hours = [...at].sort((a, b) => a - b).map((hour, i) => ({ hour, species: without[i] ? null : payloads[i]! }));
          const days = [0, 1].map((d) => hours.filter((h) => Math.floor(h.hour / 24) === d));
          const sets = days.map((day) => ({ hours: day, columns: SpeciesColumns.of(day) }));
          const inRange = hours.filter((h) => h.hour >= from && h.hour < from + length);
          const read = SpeciesColumns.of(inRange);
          const taken = SpeciesColumns.within(sets, from, from + length);
          expect(taken?.rows ?? null).toBe(read?.rows ?? null);
          for (let row = 0; row < (read?.rows ?? 0); row++)
            for (let slot = 0; slot < read!.slots; slot++) expect(Object.is(taken!.leaf(row, slot), read!.leaf(row, slot))).toBe(true);
          if (read !== null) expect(taken!.means()).toEqual(read.means());
        },
      ),
      { numRuns: 1000 },
    );
    // A day of another shape, or one not read, in range: its hours must be read.
    const a = { hour: 23, species: { Tree: { Oak: 1 } } };
    const b = { hour: 24, species: { Tree: { Ash: 2 } } };
    expect(
      SpeciesColumns.within(
        [
          { hours: [a], columns: SpeciesColumns.of([a]) },
          { hours: [b], columns: SpeciesColumns.of([b]) },
        ],
        20,
        30,
      ),
    ).toBeUndefined();
    expect(SpeciesColumns.within([{ hours: [a], columns: null }], 20, 30)).toBeUndefined();
    expect(
      SpeciesColumns.within(
        [
          { hours: [a], columns: null },
          { hours: [b], columns: SpeciesColumns.of([b]) },
        ],
        24,
        30,
      )?.rows,
    ).toBe(1);
  });

  it('reads nothing when no hour has a payload, or when two payloads differ in keys, order or form', () => {
    const a = { Tree: { Oak: 3, Ash: 1 }, Others: 2 };
    expect(SpeciesColumns.of([{ species: null }, { species: null }])).toBeNull();
    expect(SpeciesColumns.of([{ species: a }, { species: null }, { species: { Tree: { Oak: 5, Ash: 0 }, Others: null } }])?.rows).toBe(2);
    for (const other of [
      { Tree: { Ash: 1, Oak: 3 }, Others: 2 }, // the same keys in another order
      { Tree: { Oak: 3 }, Others: 2 }, // a key fewer
      { Tree: { Oak: 3, Ash: 1, Elm: 0 }, Others: 2 }, // a key more
      { Tree: 4, Others: 2 }, // a group as a number
      { Tree: { Oak: 3, Ash: 1 }, Others: { x: 2 } }, // a number as a group
      { Tree: { Oak: 3, Ash: 1 } }, // a category fewer
      { Tree: { Oak: 3, Ash: 1 }, Others: 2, Weed: null }, // a category more
    ] as Species[])
      expect(SpeciesColumns.of([{ species: a }, { species: other }])).toBeNull();
  });
});
