import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PollenHour } from '../../src/domain/hours.js';
import { type Shape, type Species, shapeKey, shapeOf } from '../../src/domain/species/payload.js';
import type { WeatherValues } from '../../src/domain/weather.js';
import { decodeDay, decodeWeather, encodeDay, encodeWeather } from '../../src/store/codec.js';
import { Reader, Writer } from '../../src/store/varint-codec.js';
import { oneShapePayloads } from '../helpers/species.js';

const D = 20_000;

/** A shape table as the store keeps one: ids for key shapes, shapes by id (through JSON, as stored). */
function shapes() {
  const ids = new Map<string, number>();
  const byId: Shape[] = [];
  return {
    id: (s: Species) => {
      let id = ids.get(shapeKey(s));
      if (id === undefined) ids.set(shapeKey(s), (id = byId.push(JSON.parse(JSON.stringify(shapeOf(s))) as Shape) - 1));
      return id;
    },
    shape: (id: number) => byId[id]!,
  };
}
/** Equal, key order and -0 included. */
const same = (a: unknown, b: unknown) => {
  expect(JSON.stringify(a, (_k, v) => (Object.is(v, -0) ? '-0' : v))).toBe(JSON.stringify(b, (_k, v) => (Object.is(v, -0) ? '-0' : v)));
};
const roundTrip = (hours: PollenHour[]) => {
  const t = shapes();
  const packed = encodeDay(D, hours, t.id);
  return { packed, back: decodeDay(D, packed, t.shape) };
};

const sample = (h: number, over: Partial<PollenHour> = {}): PollenHour => {
  const species: Species = { Grass: { 'Grass / Poaceae': 45 }, Others: 6, Tree: { Ash: 110, Birch: 85, Oak: 1610 }, Weed: { Ragweed: 0 } };
  return { hour: D * 24 + h, tree: 1805, grass: 45, weed: 0, total: 1850, species, ...over };
};

describe('the packed city-day', () => {
  it('returns every hour exactly as written: species key order, plain numbers, nulls, decimals', () => {
    const hours = [
      sample(0),
      sample(1, {
        grass: 38.5,
        species: { Grass: { 'Grass / Poaceae': 38.5 }, Others: 2.25, Tree: { Ash: null, Birch: 0, Oak: 1e300 }, Weed: { Ragweed: 0.1 } },
      }),
      sample(5, { species: null, tree: null, total: 45 }),
      sample(23, { tree: 2472, total: 0.1 + 0.2, weed: -0 }),
    ];
    const { back } = roundTrip(hours);
    same(back, hours);
  });

  it('writes nothing for category values that equal their species sum, and a zero day in a few bytes', () => {
    const day = Array.from({ length: 24 }, (_, h) => sample(h));
    const { packed } = roundTrip(day);
    expect(packed.mask).toBe(0xffffff);
    // 5 non-zero species slots of 1 or 2 bytes an hour, and no category value or total at all
    expect(packed.data!.length).toBeLessThanOrEqual(24 * 9 + 40);
    // tree off its species sum: each hour carries tree (2 bytes, and a byte for the column);
    // total still equals tree + grass + weed
    const i = (h: PollenHour) => h.hour - D * 24;
    const offBySome = roundTrip(day.map((h) => ({ ...h, tree: 1806 + i(h), total: 1851 + i(h) }))).packed;
    expect(offBySome.data!.length).toBe(packed.data!.length + 24 * 2 + 1);
    const totalOff = roundTrip(day.map((h) => ({ ...h, total: 1851 + i(h) }))).packed;
    expect(totalOff.data!.length).toBe(packed.data!.length + 24 * 2 + 1);
    // the same value in every hour is written once
    expect(roundTrip(day.map((h) => ({ ...h, total: 1851 }))).packed.data!.length).toBe(packed.data!.length + 1 + 2);
    const zeros = Array.from({ length: 24 }, (_, h) =>
      sample(h, { tree: 0, grass: 0, weed: 0, total: 0, species: { Grass: { G: 0 }, Others: 0, Tree: { A: 0, B: 0 } } }),
    );
    expect(roundTrip(zeros).packed.data!.length).toBeLessThanOrEqual(20);
  });

  it('keeps hours of different shapes in one day, and keys such as __proto__ as data', () => {
    const odd = JSON.parse('{"__proto__":{"constructor":4},"Tree":{"__proto__":5}}') as Species;
    const hours = [sample(2), sample(3, { species: odd, tree: 5, grass: null, weed: null, total: 5 })];
    const { back } = roundTrip(hours);
    same(back, hours);
    expect(Object.getPrototypeOf(back[1]!.species)).toBe(Object.prototype);
  });

  it('is an empty day with no hours', () => {
    expect(roundTrip([])).toEqual({ packed: { mask: 0, data: null }, back: [] });
  });

  it('refuses hours outside the day or out of order', () => {
    expect(() => encodeDay(D, [sample(3), sample(2)], shapes().id)).toThrow(RangeError);
    expect(() => encodeDay(D, [{ ...sample(0), hour: D * 24 + 24 }], shapes().id)).toThrow(RangeError);
  });

  it('round-trips any day of any hours, values and payloads (property)', () => {
    const value = fc.oneof(
      fc.nat(),
      fc.double({ min: 0, max: 1e12, noNaN: true }),
      fc.constant(null),
      fc.integer({ min: 2 ** 50, max: Number.MAX_SAFE_INTEGER }),
      fc.constantFrom(0.5, 38.5, 12.25, 0.001, -0),
    );
    const group = fc.oneof(value, fc.dictionary(fc.string(), value));
    const species = fc.oneof(
      fc.constant(null),
      fc.dictionary(fc.string(), group),
      fc.constant({ Tree: { Oak: 3, Ash: 4 }, Grass: { G: 1 } }),
    );
    const hour = fc.record({
      tree: value,
      grass: value,
      weed: value,
      total: fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e9, noNaN: true })),
      species,
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { maxLength: 24 }),
        fc.array(hour, { minLength: 24, maxLength: 24 }),
        (which, values) => {
          const hours = [...which].sort((a, b) => a - b).map((h): PollenHour => ({ hour: D * 24 + h, ...values[h]! }) as PollenHour);
          same(roundTrip(hours).back, hours);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('round-trips any day whose payloads all have one shape, -0 and nulls included (property)', () => {
    const value = fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constant(null), fc.constant(-0));
    const hourOf = fc.record({ tree: value, grass: value, weed: value, total: fc.nat(), without: fc.boolean() });
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 24 })
          .chain((n) =>
            fc.tuple(
              oneShapePayloads(n),
              fc.array(hourOf, { minLength: n, maxLength: n }),
              fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: n, maxLength: n }),
            ),
          ),
        ([payloads, drawn, which]) => {
          const at = [...which].sort((a, b) => a - b);
          const hours = drawn.map(
            ({ without, ...d }, i): PollenHour => ({ hour: D * 24 + at[i]!, ...d, species: without ? null : payloads[i]! }),
          );
          same(roundTrip(hours).back, hours);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('the packed weather day', () => {
  it('returns the fields present, texts through their labels', () => {
    const labels: string[] = [];
    const id = (t: string) => (labels.includes(t) ? labels.indexOf(t) : labels.push(t) - 1);
    const values: WeatherValues = {
      tz: '-05:00',
      timezone: 'America/Chicago',
      temp_day_c: -3.4,
      humidity: 42,
      weather_main: 'Clear',
      aqi: 3,
      aqi_co: 206.01,
    };
    same(
      decodeWeather(encodeWeather(values, id), (i) => labels[i]!),
      values,
    );
    expect(encodeWeather({}, id).length).toBe(3);
  });
});

describe('tokens', () => {
  it.each([
    [0, 1],
    [38.5, 2],
    [12.25, 2],
    [1500, 2],
    [null, 1],
    [0.1 + 0.2, 9],
    [-0, 9],
    [-4, 9],
  ])('write %s in %i bytes and read it back', (v, bytes) => {
    const w = new Writer();
    w.token(v);
    const out = w.done();
    expect(out.length).toBe(bytes);
    expect(Object.is(new Reader(out).token(), v)).toBe(true);
  });
});

describe('bitmaps', () => {
  it('write a mask of up to 24 flags as the same bytes as the flags, and read either back as the other (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 24 }), (flags) => {
        const mask = flags.reduce((m, f, i) => (f ? m | (1 << i) : m), 0);
        const [asFlags, asMask] = [new Writer(), new Writer()];
        asFlags.bits(flags);
        asMask.mask(mask, flags.length);
        const bytes = asFlags.done();
        expect(asMask.done()).toEqual(bytes);
        expect(new Reader(bytes).mask(flags.length)).toBe(mask);
        expect(new Reader(bytes).bits(flags.length)).toEqual(flags);
      }),
      { numRuns: 500 },
    );
  });

  it('refuse more flags than a day has hours, and a mask the data ends before', () => {
    expect(() => new Writer().mask(0, 25)).toThrow(RangeError);
    expect(() => new Reader(Uint8Array.of(0xff)).mask(16)).toThrow(/ends early/);
  });
});
