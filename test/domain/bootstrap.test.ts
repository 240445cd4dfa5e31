import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hashString,
  percentileInterval,
  quantile,
  Random,
  resampledSkill,
  resampledTables,
  resamplesOf,
} from '../../src/domain/verification/bootstrap.js';
import { levelScores } from '../../src/domain/verification/scores.js';

/**
 * An independent reading of the generator, in BigInt arithmetic: FNV-1a over UTF-16 code units,
 * SplitMix32's expansion of the seed, xoshiro128** (Blackman & Vigna's xoshiro128starstar.c) and
 * a start below m as floor(u * m / 2^32).
 */
function draws(key: string, m: number, count: number): number[] {
  const M = (1n << 32n) - 1n;
  let h = 0x811c9dc5n;
  for (let i = 0; i < key.length; i++) h = ((h ^ BigInt(key.charCodeAt(i))) * 0x01000193n) & M;
  let s = h;
  const mix = () => {
    s = (s + 0x9e3779b9n) & M;
    let z = s;
    z = ((z ^ (z >> 16n)) * 0x85ebca6bn) & M;
    z = ((z ^ (z >> 13n)) * 0xc2b2ae35n) & M;
    return z ^ (z >> 16n);
  };
  const st = [mix(), mix(), mix(), mix()];
  const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (32n - k))) & M;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const result = (rotl((st[1]! * 5n) & M, 7n) * 9n) & M;
    const t = (st[1]! << 9n) & M;
    st[2]! ^= st[0]!;
    st[3]! ^= st[1]!;
    st[1]! ^= st[2]!;
    st[0]! ^= st[3]!;
    st[2]! ^= t;
    st[3] = rotl(st[3]!, 11n);
    out.push(Number((result * BigInt(m)) >> 32n));
  }
  return out;
}

describe('the moving-block bootstrap', () => {
  it("draws xoshiro128**'s reference outputs", () => {
    // From state {1, 2, 3, 4}: the reference implementation's first outputs, as rust-random's
    // rand_xoshiro tests them (xoshiro128starstar.rs, "produced with the reference implementation (v1.1)").
    const random = new Random(0, [1, 2, 3, 4]);
    expect(Array.from({ length: 10 }, () => random.next())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804,
    ]);
    // FNV-1a's published value for "a" (32 bits: 0xe40c292c).
    expect(hashString('a')).toBe(0xe40c292c);
  });

  it('seeds from the key: the same key draws the same blocks, another key others', () => {
    const a = resamplesOf(90, 'austin grass window 2026-11-26');
    expect([...a.starts]).toEqual(draws('austin grass window 2026-11-26', 84, a.starts.length));
    expect(resamplesOf(90, 'austin grass window 2026-11-26', 1000)).toBe(a);
    expect([...resamplesOf(90, 'austin grass year 2026').starts]).not.toEqual([...a.starts]);
    expect(a).toMatchObject({ n: 90, block: 7, count: 13, last: 6 });
    expect(a.starts.length).toBe(13_000);
    expect(Math.max(...a.starts)).toBeLessThanOrEqual(83);
  });

  it('resamples blocks of 7 days from the n - 6 starts, the last cut to make n days (hand-worked)', () => {
    // 10 days: 2 blocks a resample, starts 0 to 3 (4 whole blocks), the second block cut to 3 days.
    const r = resamplesOf(10, 'hand-worked', 3);
    expect(r).toMatchObject({ n: 10, block: 7, count: 2, last: 3 });
    // The seed of "hand-worked" draws these starts, resample by resample.
    expect([...r.starts]).toEqual([0, 3, 1, 0, 3, 1]);
    expect([...r.starts]).toEqual(draws('hand-worked', 4, 6));
    // An outlook's daily scores a (0.1, 0.1, 0.2, 0.2, ... 0.5) against climatology's b (0.25 each day): 1 - Σa / Σb.
    const a = [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5];
    const b = new Array<number>(10).fill(0.25);
    //   resample 0: days 0-6 (Σa 1.6) and 3-5 (0.8): 1 - 2.4 / 2.5 = 0.04
    //   resample 1: days 1-7 (1.9) and 0-2 (0.4): 1 - 2.3 / 2.5 = 0.08
    //   resample 2: days 3-9 (2.6) and 1-3 (0.5): 1 - 3.1 / 2.5 = -0.24
    const skill = resampledSkill(a, b, r);
    expect([...skill].map((v) => Math.round(v * 1e12) / 1e12)).toEqual([0.04, 0.08, -0.24]);
    // Their interval: type-7 quantiles 2.5% and 97.5% of -0.24, 0.04, 0.08:
    //   h = 2 · 0.025 = 0.05: -0.24 + 0.05 · 0.28 = -0.226; h = 1.95: 0.04 + 0.95 · 0.04 = 0.078.
    const interval = percentileInterval(skill);
    expect(interval).toEqual({ low: expect.closeTo(-0.226, 12), high: expect.closeTo(0.078, 12) });
  });

  it('reads percentile intervals as type-7 quantiles, as numpy and R do by default', () => {
    // numpy.quantile([1, 2, 3, 4], 0.25) is 1.75.
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    const values = Float64Array.from({ length: 1000 }, (_, i) => 999 - i);
    expect(percentileInterval(values)).toEqual({ low: expect.closeTo(24.975, 9), high: expect.closeTo(974.025, 9) });
  });

  it('gives no interval when more than 5% of the resamples have no score', () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => (i < 51 ? Number.NaN : i));
    expect(percentileInterval(values)).toEqual({ reason: 'the score is undefined in 51 of 1000 resamples' });
    values[50] = 50;
    expect(percentileInterval(values)).toMatchObject({ low: expect.any(Number) });
  });

  it("counts a resample's tables from its blocks as from its days, one by one (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 24 }), { minLength: 180, maxLength: 180 }),
        fc.string(),
        (n, cellsPool, key) => {
          const cells = [Uint8Array.from(cellsPool.slice(0, n)), Uint8Array.from(cellsPool.slice(90, 90 + n))];
          const r = resamplesOf(n, key, 20);
          const every = Uint8Array.from({ length: 25 }, (_, i) => i);
          const got = resampledTables(
            cells,
            cells.map(() => 25),
            r,
            2,
            (counts, at, _t, out) => levelScores(counts, at, every, out),
          );
          // Each table counted in the cells its days use alone, as scoreSample counts them: the same scores.
          const supports = cells.map((cell) => Uint8Array.from(new Set(cell)).sort((a, b) => a - b));
          const slots = cells.map((cell, t) => cell.map((c) => supports[t]!.indexOf(c)));
          const compact = resampledTables(
            slots,
            supports.map((s) => s.length),
            r,
            2,
            (counts, at, t, out) => levelScores(counts, at, supports[t]!, out),
          );
          expect(compact).toEqual(got);
          for (let s = 0; s < 20; s++) {
            for (const [t, cell] of cells.entries()) {
              const counts = new Int32Array(25);
              for (let j = 0; j < r.count; j++) {
                const from = r.starts[s * r.count + j]!;
                for (let d = from; d < from + (j === r.count - 1 ? r.last : r.block); d++) counts[cell[d]!]!++;
              }
              const want = new Float64Array(2);
              levelScores(counts, 0, every, want);
              expect([got[t]![0]![s], got[t]![1]![s]]).toEqual([want[0], want[1]]);
            }
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
