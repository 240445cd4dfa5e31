import { describe, expect, it } from 'vitest';
import { keptResults } from '../../src/domain/bounded-memo.js';

describe('keptResults', () => {
  it('makes a repeated input once while it is kept, and again once more inputs than it keeps have passed', () => {
    const made: number[] = [];
    const double = keptResults((n: number) => {
      made.push(n);
      return n * 2;
    }, 3);
    expect([1, 2, 1, 3, 2].map(double)).toEqual([2, 4, 2, 6, 4]);
    expect(made).toEqual([1, 2, 3]);
    // A fourth input: the three kept are dropped, so 1 is made again.
    expect([4, 1].map(double)).toEqual([8, 2]);
    expect(made).toEqual([1, 2, 3, 4, 1]);
  });
});
