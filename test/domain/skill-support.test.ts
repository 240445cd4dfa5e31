/**
 * What a skill table is allowed to say, on tables worked by hand: a score of levels only where
 * every observed level has MIN_LEVEL_DAYS days, no error or correlation on quiet days, and a
 * verdict against a reference from the interval of their paired differences.
 */
import { describe, expect, it } from 'vitest';
import { RISK_LABELS } from '../../src/domain/species/risk.js';
import { scoreSample } from '../../src/domain/verification/score-sample.js';
import { type Levels, MIN_LEVEL_DAYS } from '../../src/domain/verification/scores.js';

/** Tree values inside each level (NAB tree thresholds 15, 90, 1500), by level index. */
const VALUE = [0, 5, 40, 300, 2000];
const levels = (l: readonly number[], values: readonly number[] = l.map((x) => VALUE[x]!)): Levels => ({
  values: Float64Array.from(values),
  levels: Uint8Array.from(l),
});

/** The observed and forecast levels a contingency table counts: table[f][o] days forecast at f, observed at o. */
function columns(table: number[][]): { observed: number[]; forecast: number[] } {
  const observed: number[] = [];
  const forecast: number[] = [];
  for (const [f, row] of table.entries())
    for (const [o, count] of row.entries())
      for (let k = 0; k < count; k++) {
        observed.push(o);
        forecast.push(f);
      }
  return { observed, forecast };
}

describe('the days each observed level needs', () => {
  // Observed None 20, Low 10, Moderate 10 and High 5 (45 days); 35 of them forecast right.
  const five = [
    [18, 2, 0, 0, 0],
    [2, 6, 2, 0, 0],
    [0, 2, 7, 1, 0],
    [0, 0, 1, 4, 0],
    [0, 0, 0, 0, 0],
  ];

  it('scores a table whose rarest observed level has 5 days', () => {
    expect(MIN_LEVEL_DAYS).toBe(5);
    const { observed, forecast } = columns(five);
    const t = scoreSample(levels(observed), [levels(forecast)], 'five').tables[0]!;
    // Row and column totals 20, 10, 10, 5: chance (400 + 100 + 100 + 25) / 45² = 625/2025;
    // HSS = (35/45 - 625/2025) / (1 - 625/2025) = (1575 - 625) / (2025 - 625) = 950/1400.
    expect(t.heidke).toBeCloseTo(950 / 1400, 6);
    expect(t.gerrity).not.toBeNull();
    expect(t.heidke_interval).not.toBeNull();
    expect(t.score_reasons).toEqual({});
  });

  it('withholds it with 4, naming the level and its count', () => {
    const four = five.map((row) => [...row]);
    four[3]![3] = 3; // one High day fewer: observed High on 4 days
    const { observed, forecast } = columns(four);
    const t = scoreSample(levels(observed), [levels(forecast)], 'four').tables[0]!;
    const reason =
      'observed High on 4 days (None 20, Low 10, Moderate 10, High 4 days): each observed level needs 5 days, or a score of levels rests on those few';
    expect(t).toMatchObject({ heidke: null, gerrity: null, heidke_interval: null, gerrity_interval: null });
    expect(t.score_reasons).toMatchObject({ heidke: reason, gerrity: reason });
    // The table and the scores that do not read levels are still given.
    expect(t.table[3]![3]).toBe(3);
    expect(t.spearman).not.toBeNull();
  });
});

describe('a table of quiet days', () => {
  it('gives no RMSE or Spearman where every observed day was None, and says why', () => {
    // 30 days observed None (tree below 15 grains) at 0 to 14 grains, forecast at varied values too.
    const observedValues = Array.from({ length: 30 }, (_, i) => i % 15);
    const forecastValues = Array.from({ length: 30 }, (_, i) => (i * 7) % 15);
    const t = scoreSample(levels(new Array(30).fill(0), observedValues), [levels(new Array(30).fill(0), forecastValues)], 'quiet')
      .tables[0]!;
    const why = 'every observed day was None: errors on days without pollen to speak of say nothing of the forecast';
    expect(t).toMatchObject({ rmse_log: null, spearman: null, heidke: null, gerrity: null });
    expect(t.score_reasons).toMatchObject({ rmse_log: why, spearman: why });
    expect(t.score_reasons.heidke).toMatch(/^every observed day was None/);
  });
});

describe('a verdict from the paired differences', () => {
  // A season rising and falling through the levels, 60 days; persistence is the day before's level.
  const observed = [
    0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 3, 3, 2, 2, 1,
    1, 0, 0, 0, 1, 2, 2, 3, 3, 3, 2, 2, 1, 1, 0,
  ];
  const persistence = observed.map((o, i) => (i === 0 ? o : observed[i - 1]!));
  // The forecast is persistence, but right on every other day the level changed.
  let changes = 0;
  const forecast = observed.map((o, i) => (persistence[i] !== o && changes++ % 2 === 0 ? o : persistence[i]!));

  it("calls the forecast better where its interval and persistence's overlap but their difference's lies above 0", () => {
    const [f, p] = scoreSample(levels(observed), [levels(forecast), levels(persistence)], 'verdict', { persistence: 1 }).tables;
    // Each one's Gerrity interval holds the other's score: read side by side, no verdict.
    expect(f!.gerrity_interval![0]).toBeLessThan(p!.gerrity_interval![1]!);
    // The forecast never misses where persistence is right, so on every resample it scores at least as well.
    const [verdict] = f!.verdicts!;
    expect(verdict).toMatchObject({ reference: 'persistence', verdict: 'better', words: "better than yesterday's level", reason: null });
    expect(verdict!.difference!).toBeCloseTo(f!.gerrity! - p!.gerrity!, 5);
    expect(verdict!.difference_interval![0]).toBeGreaterThan(0);
    // A reference's own table carries no verdict.
    expect(p!.verdicts).toBeUndefined();
  });

  it('calls it worse the other way round, and no better against itself', () => {
    const [p] = scoreSample(levels(observed), [levels(persistence), levels(forecast)], 'verdict', { persistence: 1 }).tables;
    expect(p!.verdicts![0]).toMatchObject({ verdict: 'worse', words: "worse than yesterday's level" });
    expect(p!.verdicts![0]!.difference_interval![1]).toBeLessThan(0);
    const [same] = scoreSample(levels(observed), [levels(persistence), levels(persistence)], 'verdict', { persistence: 1 }).tables;
    expect(same!.verdicts![0]).toMatchObject({ verdict: 'no better', difference: 0, difference_interval: [0, 0] });
  });

  it('gives no verdict where the levels cannot be scored, with the reason', () => {
    const quiet = new Array(40).fill(0).map((_, i) => (i < 36 ? 0 : 1));
    const [f] = scoreSample(levels(quiet), [levels(quiet), levels(quiet)], 'quiet verdict', { climatology: 1 }).tables;
    expect(f!.verdicts![0]).toMatchObject({ reference: 'climatology', verdict: null, words: 'not compared with the usual for the season' });
    expect(f!.verdicts![0]!.reason).toMatch(/^only 2 observed levels/);
    expect(RISK_LABELS[quiet[39] ?? 0]).toBe('Low');
  });
});
