import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { dailyRow } from '../../src/domain/day-values.js';
import type { StoredHour } from '../../src/domain/hours.js';
import { hourlyRow, summarize } from '../../src/domain/pollen-rows.js';
import type { Species } from '../../src/domain/species/payload.js';
import { type Category, categoryRisk, RISK_LABELS, type Risk } from '../../src/domain/species/risk.js';
import { hour } from '../helpers/hours.js';
import { oneShapePayloads } from '../helpers/species.js';

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

describe('the species means', () => {
  const speciesMean = (...payloads: Array<Species | null>) =>
    summarize(payloads.map((species, h) => hour(D, h, { species }))).means.species;

  it('keep the first form of a category seen as both a number and an object', () => {
    expect(speciesMean({ Others: 2 }, { Others: { x: 5 } }, { Others: 4 }, null)).toEqual({ Others: 3 });
  });

  it('are null when no hour has a payload', () => {
    expect(speciesMean(null, null)).toBeNull();
  });

  it('keep a key such as __proto__ as data', () => {
    const odd = JSON.parse('{"__proto__":{"constructor":4},"Tree":{"__proto__":5}}') as Species;
    const mean = speciesMean(odd, odd)!;
    expect(Object.getPrototypeOf(mean)).toBe(Object.prototype);
    expect(JSON.stringify(mean)).toBe('{"__proto__":{"constructor":4},"Tree":{"__proto__":5}}');
  });
});

/** The same figures as summarize gives, computed the plain way: a pass per figure, plain objects for the species. */
function plainSummary(hours: readonly StoredHour[]) {
  const numbers = (pick: (h: StoredHour) => number | null) => hours.map(pick).filter((v): v is number => v !== null);
  const mean = (vs: number[]) => (vs.length === 0 ? null : vs.reduce((s, v) => s + v, 0) / vs.length);
  const max = (vs: number[]) => (vs.length === 0 ? null : Math.max(...vs));
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  // Per allergen: first-seen keys, each category keeping the form it was first seen in.
  const payloads = hours.map((h) => h.species).filter((s): s is Species => s !== null);
  const forms = new Map<string, 'number' | Map<string, number[]>>();
  const plain = new Map<string, number[]>();
  for (const s of payloads)
    for (const [category, group] of Object.entries(s)) {
      const isObject = group !== null && typeof group === 'object';
      if (!forms.has(category)) forms.set(category, isObject ? new Map() : 'number');
      const form = forms.get(category)!;
      if (form === 'number') {
        if (isObject) continue;
        if (!plain.has(category)) plain.set(category, []);
        if (typeof group === 'number') plain.get(category)!.push(group);
      } else if (isObject)
        for (const [k, v] of Object.entries(group)) {
          if (!form.has(k)) form.set(k, []);
          if (typeof v === 'number') form.get(k)!.push(v);
        }
    }
  const species =
    payloads.length === 0
      ? null
      : Object.fromEntries(
          [...forms].map(([c, form]) => [
            c,
            form === 'number' ? mean(plain.get(c)!) : Object.fromEntries([...form].map(([k, vs]) => [k, mean(vs)])),
          ]),
        );
  const peak = (c: Category) => {
    const levels = hours.map((h) => categoryRisk(c, h[c], h.species)).filter((r): r is Risk => r !== null);
    return levels.length === 0 ? null : RISK_LABELS[Math.max(...levels.map((r) => RISK_LABELS.indexOf(r)))]!;
  };
  const weed = (h: StoredHour) => {
    const g = h.species?.Weed;
    return g !== null && typeof g === 'object' && typeof g.Ragweed === 'number' ? g.Ragweed : null;
  };
  const m = { tree: mean(numbers((h) => h.tree)), grass: mean(numbers((h) => h.grass)), weed: mean(numbers((h) => h.weed)) };
  const thousandths = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000 + 0);
  return {
    exact: { tree: thousandths(m.tree), grass: thousandths(m.grass), weed: thousandths(m.weed), ragweed: thousandths(mean(numbers(weed))) },
    means: {
      tree: round(m.tree),
      grass: round(m.grass),
      weed: round(m.weed),
      total: round(mean(numbers((h) => h.total))),
      species:
        species === null
          ? null
          : Object.fromEntries(
              Object.entries(species).map(([c, g]) => [
                c,
                g !== null && typeof g === 'object' ? Object.fromEntries(Object.entries(g).map(([k, v]) => [k, round(v)])) : round(g),
              ]),
            ),
      risk_tree: categoryRisk('tree', m.tree, species as Species | null),
      risk_grass: categoryRisk('grass', m.grass, species as Species | null),
      risk_weed: categoryRisk('weed', m.weed, species as Species | null),
      timezone: hours.find((h) => h.timezone !== null)?.timezone ?? null,
    },
    maxima: {
      tree: max(numbers((h) => h.tree)),
      grass: max(numbers((h) => h.grass)),
      weed: max(numbers((h) => h.weed)),
      total: max(numbers((h) => h.total)),
      ragweed: max(numbers(weed)),
    },
    peakRisks: { tree: peak('tree'), grass: peak('grass'), weed: peak('weed') },
  };
}

describe('summarize', () => {
  it('gives in one pass what a pass per figure gives, whatever the payloads and their key orders (property)', () => {
    const value = fc.oneof(fc.nat({ max: 3000 }), fc.double({ min: 0, max: 5000, noNaN: true }), fc.constant(null));
    // Payloads of a few shapes, in changing key orders and forms, so that hours alike and hours not alike follow each other.
    const leafKeys = fc.constantFrom('Oak', 'Ash', 'Ragweed', 'Grass / Poaceae', '__proto__');
    const group = fc.oneof(value, fc.dictionary(leafKeys, value, { maxKeys: 4 }));
    // A provider's usual payload, and payloads that differ from it by a key, a form or an order.
    const usual = fc.constantFrom(
      { Tree: { Oak: 30, Ash: 4 }, Grass: { G: 6 }, Others: 2, Weed: { Ragweed: 11 } },
      { Tree: { Oak: 31 }, Grass: { G: 7 }, Others: 3, Weed: { Ragweed: 12 } },
      { Tree: { Oak: 32, Ash: 5, Elm: 1 }, Grass: { G: 8 }, Others: 4, Weed: { Ragweed: 13 } },
      { Tree: { Ash: 6, Oak: 33 }, Grass: { G: 9 }, Others: 5, Weed: { Ragweed: 14 } },
      { Tree: { Oak: 34, Ash: 7 }, Grass: { G: 10 }, Others: { x: 1 }, Weed: { Ragweed: 15 } },
      { Tree: { Oak: 35, Ash: 8 }, Grass: { G: 11 } },
      { Tree: { Oak: 36, Ash: 9 }, Grass: { G: 12 }, Others: 6, Weed: { Ragweed: 16 }, Extra: 2 },
      { Grass: { G: 13 }, Tree: { Oak: 37, Ash: 10 }, Others: null, Weed: null },
    );
    const payload = fc.oneof(
      fc.constant(null),
      fc.dictionary(fc.constantFrom('Tree', 'Grass', 'Weed', 'Others'), group, { maxKeys: 4 }),
      usual,
      usual,
    );
    const hourOf = fc.record({ tree: value, grass: value, weed: value, total: value, species: payload, zone: fc.boolean() });
    fc.assert(
      fc.property(fc.array(hourOf, { minLength: 1, maxLength: 25 }), (drawn) => {
        const hours = drawn.map((d, i) => ({
          ...hour(D, i % 24, {
            tree: d.tree,
            grass: d.grass,
            weed: d.weed,
            species: JSON.parse(JSON.stringify(d.species)) as Species | null,
          }),
          total: d.total as number,
          timezone: d.zone ? 'America/Chicago' : null,
        }));
        expect(summarize(hours)).toEqual(plainSummary(hours));
      }),
      { numRuns: 2000 },
    );
  });

  it("takes a day's maxima as Math.max does, +0 above -0, whichever zero comes first (a case the property found)", () => {
    const hours = [-0, 0, -0].map((ragweed, i) => ({
      ...hour(D, i, { tree: 1, grass: 0, weed: 0, species: { Weed: { Ragweed: ragweed } } }),
      timezone: null,
    }));
    expect(Object.is(summarize(hours).maxima.ragweed, 0)).toBe(true);
    expect(summarize(hours)).toEqual(plainSummary(hours));
  });

  it('gives what a pass per figure gives when every payload has one shape, as a provider sends them (property)', () => {
    const value = fc.oneof(fc.nat({ max: 3000 }), fc.double({ min: 0, max: 5000, noNaN: true }), fc.constant(null));
    const hourOf = fc.record({ tree: value, grass: value, weed: value, total: value, without: fc.boolean(), zone: fc.boolean() });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 25 }).chain((n) => fc.tuple(oneShapePayloads(n), fc.array(hourOf, { minLength: n, maxLength: n }))),
        ([payloads, drawn]) => {
          const hours = drawn.map((d, i) => ({
            ...hour(D, i % 24, { tree: d.tree, grass: d.grass, weed: d.weed, species: d.without ? null : payloads[i]! }),
            total: d.total as number,
            timezone: d.zone ? 'America/Chicago' : null,
          }));
          expect(summarize(hours)).toEqual(plainSummary(hours));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
