import { describe, expect, it } from 'vitest';
import { RISK_LABELS, type Risk } from '../../src/domain/species/risk.js';
import { midRanks, rmseLog, spearman } from '../../src/domain/verification/continuous-scores.js';
import { levelsReason, skill } from '../../src/domain/verification/score-sample.js';
import { contingencyTable, gerrityOf, heidkeOf, MIN_PAIRS, type Pair, podFar, tidy } from '../../src/domain/verification/scores.js';

const [N, L, M, H, V] = RISK_LABELS;
/** A tree value inside each level (NAB tree thresholds 15, 90, 1500). */
const VALUE: Record<Risk, number> = { None: 0, Low: 5, Moderate: 40, High: 300, 'Very High': 2000 };

/** The pairs a contingency table counts: table[f][o] days forecast at level f and observed at level o. */
function pairsOf(table: number[][]): Pair[] {
  const pairs: Pair[] = [];
  for (const [f, row] of table.entries()) {
    for (const [o, count] of row.entries()) {
      const [forecast, observed] = [RISK_LABELS[f]!, RISK_LABELS[o]!];
      for (let k = 0; k < count; k++)
        pairs.push({
          day: pairs.length,
          forecast: { value: VALUE[forecast], level: forecast },
          observed: { value: VALUE[observed], level: observed },
        });
    }
  }
  return pairs;
}

/*
 * Every table below but the edge cases observes each of the five levels on 8 of 40 days, so the
 * Gerrity scoring matrix is the same for all (Gerrity 1992; JWGFVR "Methods for multi-category
 * forecasts"), worked out once here. K = 5, 1/(K-1) = 1/4.
 *   D_r (share observed at or below r) = 0.2, 0.4, 0.6, 0.8
 *   a_r = (1 - D_r) / D_r              = 4, 3/2, 2/3, 1/4     and 1/a_r = 1/4, 2/3, 3/2, 4
 *   s_11 = (4 + 3/2 + 2/3 + 1/4) / 4         = 77/48    s_55 = (1/4 + 2/3 + 3/2 + 4) / 4 = 77/48
 *   s_22 = (1/4 + 3/2 + 2/3 + 1/4) / 4       = 32/48    s_44 = (1/4 + 2/3 + 3/2 + 1/4) / 4 = 32/48
 *   s_33 = (1/4 + 2/3 + 2/3 + 1/4) / 4       = 22/48
 *   s_12 = (-1 + 3/2 + 2/3 + 1/4) / 4        = 17/48    s_45 = (1/4 + 2/3 + 3/2 - 1) / 4 = 17/48
 *   s_13 = (-2 + 2/3 + 1/4) / 4              = -13/48   s_35 = (1/4 + 2/3 - 2) / 4 = -13/48
 *   s_14 = (-3 + 1/4) / 4                    = -33/48   s_25 = (1/4 - 3) / 4 = -33/48
 *   s_15 = -4 / 4                            = -48/48
 *   s_23 = (1/4 - 1 + 2/3 + 1/4) / 4         = 2/48     s_34 = (1/4 + 2/3 - 1 + 1/4) / 4 = 2/48
 *   s_24 = (1/4 - 2 + 1/4) / 4               = -18/48
 * Heidke's chance share is Σ N(F_i) N(O_i) / N² = (40 · 8) / 40² = 0.2 whatever the forecasts.
 */
const S: number[][] = [
  [77, 17, -13, -33, -48],
  [17, 32, 2, -18, -33],
  [-13, 2, 22, 2, -13],
  [-33, -18, 2, 32, 17],
  [-48, -33, -13, 17, 77],
].map((row) => row.map((x) => x / 48));

describe('skill scores of hand-worked contingency tables', () => {
  it('scores a perfect forecast 1', () => {
    const table = [0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map((o) => (f === o ? 8 : 0)));
    const s = skill(pairsOf(table));
    expect(s.table).toEqual(table);
    // HSS = (40/40 - 0.2) / (1 - 0.2) = 1. GS = Σ p_i s_ii = (77 + 32 + 22 + 32 + 77) / 48 / 5 = 240/240 = 1.
    expect(s.heidke).toBeCloseTo(1, 6);
    expect(s.gerrity).toBeCloseTo((77 + 32 + 22 + 32 + 77) / 48 / 5, 6);
    expect(s.gerrity).toBeCloseTo(1, 6);
    // High or above: 16 observed, all forecast: POD 16/16, FAR 0/16.
    expect(s.high).toEqual({ hits: 16, misses: 0, false_alarms: 0 });
    expect([s.pod, s.far, s.rmse_log, s.reason]).toEqual([1, 0, 0, null]);
    expect(s.spearman).toBeCloseTo(1, 12);
  });

  it('scores a constant forecast 0: always Moderate', () => {
    const table = [0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map(() => (f === 2 ? 8 : 0)));
    const s = skill(pairsOf(table));
    // HSS = (8/40 - 0.2) / 0.8 = 0. GS = (8 s_31 + 8 s_32 + 8 s_33 + 8 s_34 + 8 s_35) / 40 = (-13 + 2 + 22 + 2 - 13) / 48 / 5 = 0.
    expect(s.heidke).toBeCloseTo(0, 6);
    expect(s.gerrity).toBeCloseTo(0, 6);
    expect(s.high).toEqual({ hits: 0, misses: 16, false_alarms: 0 });
    expect(s.pod).toBe(0);
    expect(s.far).toBeNull();
    expect(s.score_reasons).toEqual({
      far: 'no day forecast at High or above',
      spearman: 'every forecast daily mean was the same: no ranks to correlate',
    });
  });

  it('scores a random forecast near 0', () => {
    // Forecasts drawn with no regard to the observations (columns: observed None .. Very High, 8 each).
    const table = [
      [2, 1, 2, 1, 2],
      [1, 2, 1, 2, 2],
      [2, 2, 1, 1, 1],
      [1, 1, 2, 2, 1],
      [2, 2, 2, 2, 2],
    ];
    const s = skill(pairsOf(table));
    // HSS: 9 of 40 on the diagonal: (9/40 - 0.2) / 0.8 = 0.03125.
    expect(s.heidke).toBeCloseTo(0.03125, 6);
    // GS = Σ n_ij s_ij / 40, row by row in 48ths:
    //   None      2·77 + 1·17 + 2·(-13) + 1·(-33) + 2·(-48) = 16
    //   Low       1·17 + 2·32 + 1·2 + 2·(-18) + 2·(-33)     = -19
    //   Moderate  2·(-13) + 2·2 + 1·22 + 1·2 + 1·(-13)      = -11
    //   High      1·(-33) + 1·(-18) + 2·2 + 2·32 + 1·17     = 34
    //   Very High 2·(-48) + 2·(-33) + 2·(-13) + 2·17 + 2·77 = 0
    // (16 - 19 - 11 + 34 + 0) / 48 / 40 = 20/1920.
    expect(s.gerrity).toBeCloseTo(20 / 1920, 6);
    // The table's cells are the products of its S with the counts: the same sum from the matrix above.
    expect(s.gerrity).toBeCloseTo(table.flatMap((row, f) => row.map((n, o) => n * S[f]![o]!)).reduce((a, b) => a + b) / 40, 6);
    // Unrounded, as the bootstrap computes them on each resample: the same to 12 decimals.
    const counts = table.flat();
    expect(gerrityOf(counts)).toBeCloseTo(20 / 1920, 12);
    expect(heidkeOf(counts)).toBeCloseTo(0.03125, 12);
    // High or above: hits 2+1+2+2 = 7, misses 1+2+2+1+1+2 = 9, false alarms 1+1+2+2+2+2 = 10.
    expect(s.high).toEqual({ hits: 7, misses: 9, false_alarms: 10 });
    expect(s.pod).toBeCloseTo(7 / 16, 6);
    expect(s.far).toBeCloseTo(10 / 17, 6);
  });

  it('scores persistence: right except on the four days the level changes', () => {
    // A season rising a level every 8 days, from a None day before the first pair.
    const levels = [N, ...[N, L, M, H, V].flatMap((level) => Array<Risk>(8).fill(level!))] as Risk[];
    const at = (day: number) => ({ value: VALUE[levels[day]!] + day, level: levels[day]! });
    // Persistence: each day forecast by the day before it.
    const pairs = Array.from({ length: 40 }, (_, i) => ({ day: i + 1, forecast: at(i), observed: at(i + 1) }));
    const s = skill(pairs);
    expect(s.table).toEqual([
      [8, 1, 0, 0, 0],
      [0, 7, 1, 0, 0],
      [0, 0, 7, 1, 0],
      [0, 0, 0, 7, 1],
      [0, 0, 0, 0, 7],
    ]);
    // HSS = (36/40 - 0.2) / 0.8 = 0.875.
    expect(s.heidke).toBeCloseTo(0.875, 6);
    // GS = (8·77 + 17 + 7·32 + 2 + 7·22 + 2 + 7·32 + 17 + 7·77) / 48 / 40 = 1795/1920.
    expect(s.gerrity).toBeCloseTo(1795 / 1920, 6);
    // High or above: hits 7 + 1 + 7, one miss (the first High day, forecast Moderate), no false alarm.
    expect([s.pod, s.far]).toEqual([15 / 16, 0]);
  });
});

describe('skill scores at the edges', () => {
  it('gives no score from fewer than 30 pairs, and says why, with the table still counted', () => {
    const pairs = pairsOf([0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map((o) => (f === o ? 6 : 0)))).slice(0, 29);
    expect(MIN_PAIRS).toBe(30);
    const s = skill(pairs);
    expect(s).toMatchObject({ days: 29, heidke: null, gerrity: null, pod: null, far: null, spearman: null, rmse_log: null });
    expect(s.reason).toBe('29 paired days, fewer than the 30 a score needs');
    expect(s.table[0]![0]).toBe(6);
    expect(skill(pairsOf([0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map((o) => (f === o ? 6 : 0))))).reason).toBeNull();
  });

  it('scores over the observed levels when an end level is never observed', () => {
    // 10 days each of None, Low, Moderate and High; never Very High. Over those K' = 4 levels:
    //   D = 1/4, 1/2, 3/4; a = 3, 1, 1/3; 1/a = 1/3, 1, 3; 1/(K'-1) = 1/3
    //   s_11 = (3 + 1 + 1/3)/3 = 13/9, s_22 = (1/3 + 1 + 1/3)/3 = 5/9, s_33 = 5/9, s_44 = (1/3 + 1 + 3)/3 = 13/9
    const perfect = [0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map((o): number => (f === o && o < 4 ? 10 : 0)));
    // GS = (10·13/9 + 10·5/9 + 10·5/9 + 10·13/9) / 40 = 1; HSS = (1 - 1/4) / (1 - 1/4) = 1.
    expect(skill(pairsOf(perfect))).toMatchObject({ heidke: 1, gerrity: 1 });
    // One High day forecast Very High, a level beyond the observed ones: scored as High less one level's 1/(K'-1):
    //   13/9 - 1/3 = 10/9, so GS = (130 + 50 + 50 + 9·13 + 10) / 9 / 40 = 357/360.
    const over = perfect.map((row) => [...row]);
    over[3]![3] = 9;
    over[4]![3] = 1;
    const s = skill(pairsOf(over));
    expect(s.gerrity).toBeCloseTo(357 / 360, 6);
    // HSS: 39/40 right; chance share (10·10 + 10·10 + 10·10 + 9·10 + 1·0) / 1600 = 0.24375.
    expect(s.heidke).toBeCloseTo((39 / 40 - 0.24375) / (1 - 0.24375), 6);
    // A constant forecast of a level inside the observed span still scores 0.
    const constant = [0, 1, 2, 3, 4].map((f) => [0, 1, 2, 3, 4].map((o) => (f === 1 && o < 4 ? 10 : 0)));
    // Row Low: (10·s_21 + 10·s_22 + 10·s_23 + 10·s_24)/40 with s_21 = (-1 + 1 + 1/3)/3 = 1/9, s_23 = (1/3 - 1 + 1/3)/3 = -1/9,
    // s_24 = (1/3 - 2)/3 = -5/9: (1 + 5 - 1 - 5)/9/4 = 0.
    expect(skill(pairsOf(constant)).gerrity).toBeCloseTo(0, 6);
  });

  it('gives no Heidke or Gerrity score when every observed day is in one level', () => {
    // 30 Low days; forecast Low on 20, Moderate on 10.
    const table = [
      [0, 0, 0, 0, 0],
      [0, 20, 0, 0, 0],
      [0, 10, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ];
    const s = skill(pairsOf(table));
    expect([s.heidke, s.gerrity, s.pod]).toEqual([null, null, null]);
    expect(s.score_reasons).toMatchObject({
      heidke: 'every observed day was Low: with one observed level, skill cannot be told from chance',
      gerrity: 'every observed day was Low: with one observed level, skill cannot be told from chance',
      pod: 'no observed days at High or above, fewer than the 5 POD and FAR need',
    });
    expect(s.reason).toBeNull();
  });

  it('names a table of two observed levels for what it is, and scores no levels from one', () => {
    // Anchorage's ragweed at leads 0 to 2: 76 None and 14 Low days, forecast right on all but 2.
    const table = [
      [75, 1, 0, 0, 0],
      [1, 13, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ];
    const s = skill(pairsOf(table));
    expect([s.heidke, s.gerrity, s.heidke_interval, s.gerrity_interval]).toEqual([null, null, null, null]);
    expect(s.score_reasons.gerrity).toBe(
      "only 2 observed levels (None 76, Low 14 days): a yes/no forecast, on which Gerrity's score is the Peirce skill score, not a score of 3 or more levels",
    );
    // Spearman and the error of the means are still given: they do not read levels.
    expect(s.spearman).not.toBeNull();
  });

  it('scores no levels from fewer than 10 observed days above None', () => {
    const table = [
      [30, 0, 0, 0, 0],
      [0, 5, 0, 0, 0],
      [0, 0, 2, 0, 0],
      [0, 0, 0, 2, 0],
      [0, 0, 0, 0, 0],
    ];
    expect(levelsReason(Uint8Array.from(pairsOf(table).map((p) => RISK_LABELS.indexOf(p.observed.level))))).toBe(
      'only 9 observed days above None, fewer than the 10 a score of levels needs',
    );
    expect(skill(pairsOf(table)).heidke).toBeNull();
  });

  it('gives POD and FAR from 5 observed High days or more, and says why not below', () => {
    expect(podFar({ hits: 1, misses: 0, false_alarms: 3 })).toEqual({
      pod: { value: null, reason: 'only 1 observed day at High or above, fewer than the 5 POD and FAR need' },
      far: { value: null, reason: 'only 1 observed day at High or above, fewer than the 5 POD and FAR need' },
    });
    expect(podFar({ hits: 4, misses: 1, false_alarms: 1 })).toEqual({
      pod: { value: 0.8, reason: null },
      far: { value: 0.2, reason: null },
    });
  });

  it('tidies scores in answers: six decimals, float noise and signed zero away', () => {
    expect(tidy(-5.9e-17)).toBe(0);
    expect(Object.is(tidy(-0), 0)).toBe(true);
    expect(tidy(0.1 + 0.2)).toBe(0.3);
    expect(tidy(0.9537064)).toBe(0.953706);
  });
});

describe('continuous scores', () => {
  it('ranks ties by the mean of the ranks they span', () => {
    // SciPy's documented example: rankdata([0, 2, 3, 2]) is [1, 2.5, 4, 2.5].
    expect([...midRanks([0, 2, 3, 2])]).toEqual([1, 2.5, 4, 2.5]);
  });

  it('ranks as the definition does: below it, plus the middle of its ties', () => {
    // Daily means repeat (days without pollen, rounded values): many ties, at both ends too.
    const values = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 23) * 0.5 + (i % 5 === 0 ? 0 : 0.25));
    const definition = values.map((v) => values.filter((w) => w < v).length + (values.filter((w) => w === v).length + 1) / 2);
    expect([...midRanks(values)]).toEqual(definition);
    expect([...midRanks([])]).toEqual([]);
    expect([...midRanks([5, 5, 5])]).toEqual([2, 2, 2]);
  });

  it('correlates the mid-ranks', () => {
    // Ranks of x: [1, 2.5, 4, 2.5]; of y = [1, 2, 4, 3]: [1, 2, 4, 3]. Means 2.5 and 2.5.
    // Σ dx·dy = (-1.5)(-1.5) + 0·(-0.5) + 1.5·1.5 + 0·0.5 = 4.5; Σ dx² = 4.5; Σ dy² = 5: ρ = 4.5 / sqrt(4.5 · 5).
    expect(spearman([0, 2, 3, 2], [1, 2, 4, 3]).value).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
    expect(spearman([1, 2, 3], [3, 2, 1]).value).toBeCloseTo(-1, 12);
  });

  it('measures errors of log10(1 + daily mean)', () => {
    // 9 for 99: log10(10) - log10(100) = -1; 0 for 0: 0. RMSE = sqrt((1 + 0) / 2).
    expect(rmseLog([9, 0], [99, 0]).value).toBeCloseTo(Math.sqrt(0.5), 12);
  });

  it('counts the contingency table with forecasts in rows and observations in columns', () => {
    const t = contingencyTable([{ day: 1, forecast: { value: 300, level: H }, observed: { value: 40, level: M } }]);
    expect(t[3]![2]).toBe(1);
    expect(t.flat().reduce((a, b) => a + b)).toBe(1);
  });
});
