import { describe, expect, it } from 'vitest';
import { nonIncreasing } from '../../src/domain/verification/antitonic.js';

describe('weighted least squares that never increases', () => {
  it("pools adjacent violators as scikit-learn's isotonic regression does", () => {
    // scikit-learn's example: isotonic_regression([5, 3, 1, 2, 8, 10, 7, 9, 6, 4]) is 2.75 four times, then 44/6 six
    // times; the same values reversed, fitted never increasing, are that fit reversed.
    const fit = nonIncreasing([4, 6, 9, 7, 10, 8, 2, 1, 3, 5], new Array(10).fill(1));
    expect(fit.slice(0, 6).every((v) => Math.abs(v - 44 / 6) < 1e-12)).toBe(true);
    expect(fit.slice(6)).toEqual([2.75, 2.75, 2.75, 2.75]);
  });

  it('leaves values already in order, and pools by weight', () => {
    expect(nonIncreasing([0.9, 0.5, 0.5, 0.1], [1, 1, 1, 1])).toEqual([0.9, 0.5, 0.5, 0.1]);
    // 0.2 (weight 3) then 0.6 (weight 1) pool to (0.6 + 0.6) / 4 = 0.3.
    expect(nonIncreasing([0.2, 0.6], [3, 1])[0]).toBeCloseTo(0.3, 12);
    expect(nonIncreasing([0.2, 0.6], [3, 1])[1]).toBeCloseTo(0.3, 12);
  });

  it('keeps the fit within its bounds', () => {
    expect(nonIncreasing([1.4, 1.2, -0.3], [1, 1, 1], 0, 1)).toEqual([1, 1, 0]);
  });
});
