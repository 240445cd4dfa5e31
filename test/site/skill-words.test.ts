/**
 * The city panel's words for a forecast that cannot be judged (src/site/app/skill.ts): what the
 * pollen observed did, read from the answer's contingency table, in the terms a reader checks
 * against the season, rather than the API's reason for developers.
 */
import { describe, expect, it } from 'vitest';
import { tooNarrow } from '../../src/site/app/skill.js';

/** A table of 5 x 5 days: forecast level by row, observed level by column, `cells` as [f, o, days]. */
const tableOf = (cells: Array<[number, number, number]>): number[][] => {
  const table = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
  for (const [f, o, days] of cells) table[f]![o]! += days;
  return table;
};

describe("the panel's words for a forecast that cannot be judged", () => {
  it('names the one level observed, counting the days by what was observed, not forecast', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 80],
          [1, 0, 10],
        ]),
        'grass',
      ),
    ).toBe('the grass pollen was None on all 90 days: with nothing else to tell, a right forecast cannot be told from a lucky one');
  });

  it('names the two levels observed with their days', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 70],
          [1, 0, 13],
          [1, 1, 6],
          [0, 1, 1],
        ]),
        'tree',
      ),
    ).toBe("the tree pollen was only None or Low (None on 83 days, Low on 7 days): too narrow a range to judge the forecast's levels");
  });

  it('counts the days above None when three levels or more were observed', () => {
    expect(
      tooNarrow(
        tableOf([
          [0, 0, 80],
          [1, 1, 4],
          [2, 2, 1],
          [0, 3, 1],
        ]),
        'weed',
      ),
    ).toBe("the weed pollen was above None on only 6 days: too few to judge the forecast's levels");
    // Every day above None, in three levels: none of these reasons.
    expect(
      tooNarrow(
        tableOf([
          [1, 1, 30],
          [2, 2, 20],
          [3, 3, 5],
        ]),
        'weed',
      ),
    ).toBeUndefined();
  });
});
