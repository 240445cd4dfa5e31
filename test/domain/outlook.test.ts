import { describe, expect, it } from 'vitest';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import type { LevelProbabilities } from '../../src/domain/schemas.js';
import type { SeasonDay } from '../../src/domain/seasons/year.js';
import { grade } from '../../src/domain/species/risk.js';
import { Outlooks, outlook } from '../../src/domain/verification/outlook.js';
import { outlookSkill, rankedProbabilityScore, rpsOfCounts } from '../../src/domain/verification/outlook-skill.js';

const d = dayNumber;
/** Grass days (NAB grass thresholds 5, 20, 200) from `from` to `to`, each `value`. */
function days(from: string, to: string, value: number, series = new Map<number, SeasonDay>()): Map<number, SeasonDay> {
  for (let day = d(from); day <= d(to); day++) series.set(day, { value, risk: grade('grass', value) });
  return series;
}
const only = (level: keyof LevelProbabilities): LevelProbabilities => ({
  None: 0,
  Low: 0,
  Moderate: 0,
  High: 0,
  'Very High': 0,
  [level]: 1,
});
const ISSUE = d('2026-06-10');

describe('the outlook', () => {
  // 2025: Moderate (10) to 13 June, High (100) from 14 June.
  const rising = () => days('2025-06-14', '2025-06-24', 100, days('2025-06-03', '2025-06-13', 10));

  it("counts the levels of the earlier years' days within a week of each date", () => {
    const o = outlook(rising(), 'grass', ISSUE);
    expect(o).toMatchObject({
      category: 'grass',
      issued: '2026-06-10',
      basis: 'climatology',
      window_days: 7,
      earlier_years: [2025],
      anomaly_log10: null,
    });
    // Lead 0, 10 June: 3 to 17 June 2025, 11 days Moderate (3-13) and 4 High (14-17).
    expect(o.days[0]).toMatchObject({ date: '2026-06-10', lead: 0, members: 15, anomaly_weight: 0, reason: null });
    expect(o.days[0]!.probabilities).toEqual({ None: 0, Low: 0, Moderate: 11 / 15, High: 4 / 15, 'Very High': 0 });
    // Lead 7, 17 June: 10 to 24 June 2025, 4 Moderate (10-13) and 11 High.
    expect(o.days[7]).toMatchObject({ date: '2026-06-17', lead: 7, members: 15 });
    expect(o.days[7]!.probabilities).toEqual({ None: 0, Low: 0, Moderate: 4 / 15, High: 11 / 15, 'Very High': 0 });
    expect(o.days).toHaveLength(8);
  });

  it("moves each earlier year's window by this year's season timing against it", () => {
    // This year's season 3 days later than 2025's: 10 June reads 2025 around 7 June, 31 May to 14 June,
    // of which 3-13 June are held Moderate and 14 June High: 12 days.
    const o = outlook(rising(), 'grass', ISSUE, { shiftDays: new Map([[2025, 3]]) });
    expect(o).toMatchObject({ basis: 'shifted climatology', shift_days: { '2025': 3 } });
    expect(o.days[0]!.members).toBe(12);
    expect(o.days[0]!.probabilities).toEqual({ None: 0, Low: 0, Moderate: 11 / 12, High: 1 / 12, 'Very High': 0 });
    expect(() => outlook(rising(), 'grass', ISSUE, { shiftDays: new Map([[2025, 120]]) })).toThrow(RangeError);
  });

  it('scales the members by the current anomaly, with the weight its persistence earned', () => {
    // 2025 at 9 grains (log10(1 + 9) = 1) through the spring; 2026's last 67 days at 99 (log10(100) = 2):
    // every z is 1, every A is 1, so each lead's weight is Σ 1·1 / Σ 1² = 1 (53 to 60 fitting days, above 30).
    const series = days('2025-03-01', '2025-06-30', 9);
    days('2026-04-04', '2026-06-09', 99, series);
    const o = outlook(series, 'grass', ISSUE);
    expect(o.basis).toBe('climatology with anomaly');
    expect(o.anomaly_log10).toBeCloseTo(1, 12);
    expect(o.days.map((x) => x.anomaly_weight)).toEqual(new Array(8).fill(1));
    // Each member, 9 grains (Moderate), becomes (1 + 9) · 10^1 - 1 = 99 grains: High.
    for (const day of o.days) expect(day.probabilities).toEqual(only('High'));
    // Without the anomaly, the same members say Moderate.
    for (const day of outlook(series, 'grass', ISSUE, { anomaly: false }).days) expect(day.probabilities).toEqual(only('Moderate'));
  });

  it('never lets the weight rise with the lead, on a series whose leads fitted alone would', () => {
    // 2025 at 9 grains (log10 10 = 1) all spring; 2026 alternating weeks at 10^1.5 - 1 and 10^0.5 - 1 grains, so
    // z = +0.5 for a week, then -0.5: A(s), the last week's mean, is opposite to z(s) at lead 0 and equal to
    // z(s + 7) at lead 7. Fitted alone, the weights would rise from 0 (negative, clipped) at lead 0 to about 1
    // at lead 7; the fit that never rises pools them into one weight.
    const series = days('2025-03-01', '2025-06-30', 9);
    for (let day = ISSUE - 70; day < ISSUE; day++) {
      const high = Math.floor((day - (ISSUE - 70)) / 7) % 2 === 0;
      series.set(day, { value: 10 ** (high ? 1.5 : 0.5) - 1, risk: grade('grass', 10 ** (high ? 1.5 : 0.5) - 1) });
    }
    const weights = outlook(series, 'grass', ISSUE).days.map((x) => x.anomaly_weight);
    for (let lead = 1; lead < weights.length; lead++) expect(weights[lead]).toBeLessThanOrEqual(weights[lead - 1]!);
    expect(new Set(weights).size).toBe(1);
    expect(weights[7]).toBeLessThan(0.5);
  });

  it('gives the anomaly no weight from fewer than 30 fitting days', () => {
    // Only 20 recent days: the anomaly is known (1) but no lead has 30 issue days to fit its weight on.
    const series = days('2025-03-01', '2025-06-30', 9);
    days(dayString(ISSUE - 20), '2026-06-09', 99, series);
    const o = outlook(series, 'grass', ISSUE);
    expect(o.anomaly_log10).toBeCloseTo(1, 12);
    expect(o.basis).toBe('climatology');
    expect(o.days[3]!.probabilities).toEqual(only('Moderate'));
  });

  it('keeps a day without pollen without: an anomaly scales a season, it does not start one', () => {
    const series = days('2025-03-01', '2025-06-30', 0);
    days('2026-04-04', '2026-06-09', 99, series);
    for (const day of outlook(series, 'grass', ISSUE).days) expect(day.probabilities).toEqual(only('None'));
  });

  it('reads only the days before its issue day', () => {
    const series = rising();
    const before = outlook(series, 'grass', ISSUE);
    days('2026-06-10', '2026-06-20', 5000, series);
    expect(outlook(series, 'grass', ISSUE)).toEqual(before);
  });

  it('says why a day has no probabilities: no earlier year around its date', () => {
    const o = outlook(days('2026-05-01', '2026-06-09', 10), 'grass', ISSUE);
    expect(o.days[0]).toMatchObject({ probabilities: null, members: 0, reason: 'no earlier year holds a day around this date' });
    expect(o.earlier_years).toEqual([]);
  });
});

describe('the outlook scored against climatology', () => {
  it('computes the ranked probability score over the cumulative probabilities', () => {
    const half: LevelProbabilities = { None: 0, Low: 0.5, Moderate: 0.5, High: 0, 'Very High': 0 };
    // Observed Moderate: CDFs 0, .5, 1, 1, 1 against 0, 0, 1, 1, 1: (0 + .25 + 0 + 0 + 0) / 4.
    expect(rankedProbabilityScore(half, 'Moderate')).toBeCloseTo(0.0625, 12);
    // Observed High: against 0, 0, 0, 1, 1: (0 + .25 + 1 + 0 + 0) / 4.
    expect(rankedProbabilityScore(half, 'High')).toBeCloseTo(0.3125, 12);
    expect(rankedProbabilityScore(only('Moderate'), 'Moderate')).toBe(0);
    expect(rankedProbabilityScore(only('None'), 'Very High')).toBe(1);
  });

  it('scores level counts as their probabilities', () => {
    // 3 of 4 members Low, 1 Moderate; observed Moderate: CDFs 0, .75, 1, 1, 1 against 0, 0, 1, 1, 1.
    expect(rpsOfCounts({ members: 4, counts: [0, 3, 1, 0, 0] }, 2)).toBeCloseTo(0.5625 / 4, 12);
    expect(rpsOfCounts({ members: 0, counts: [0, 0, 0, 0, 0] }, 2)).toBeNaN();
  });

  it('gives the skill score against climatology with its interval, and none from fewer than 30 days', () => {
    // Climatology uniform: CDFs .2, .4, .6, .8, 1 against 0, 0, 1, 1, 1: (.04 + .16 + .16 + .04 + 0) / 4 = 0.1; the outlook 0.
    const uniform = rankedProbabilityScore({ None: 0.2, Low: 0.2, Moderate: 0.2, High: 0.2, 'Very High': 0.2 }, 'Moderate');
    expect(uniform).toBeCloseTo(0.1, 12);
    const perfect = outlookSkill(new Array(30).fill(0), new Array(30).fill(uniform), 'k');
    // Every resample scores 1: the interval is [1, 1], above 0.
    expect(perfect).toEqual({
      days: 30,
      rps: 0,
      rps_climatology: 0.1,
      rpss: 1,
      rpss_interval: [1, 1],
      beats_climatology: true,
      verdict: 'better',
      reason: null,
    });
    const worse = outlookSkill(new Array(30).fill(0.25), new Array(30).fill(uniform), 'k'); // RPSS = 1 - 0.25 / 0.1
    expect(worse).toMatchObject({ rps: 0.25, rpss: -1.5, rpss_interval: [-1.5, -1.5], beats_climatology: false, verdict: 'worse' });
    expect(outlookSkill(new Array(29).fill(0), new Array(29).fill(uniform), 'k')).toMatchObject({
      rpss: null,
      rpss_interval: null,
      beats_climatology: null,
      reason: '29 paired days, fewer than the 30 a score needs',
    });
  });

  it('beats climatology only when its interval lies above 0, not its score alone', () => {
    // Better than climatology (0.1) on 23 days in 30 (0.05), worse on a week of them (0.15): RPSS 1 - 2.2 / 3 = 0.27,
    // but a resample that draws that week three times of five is worse than climatology.
    const rps = Array.from({ length: 30 }, (_, i) => (Math.floor(i / 7) % 3 === 2 ? 0.15 : 0.05));
    const skill = outlookSkill(rps, new Array(30).fill(0.1), 'runs');
    expect(skill.rpss).toBe(0.266667);
    expect(skill.rpss_interval![0]).toBeLessThan(0);
    expect(skill.beats_climatology).toBe(false);
  });

  it('gives no skill score where the outlook was climatology on every day, or every observed day None, and says why', () => {
    const climatology = Array.from({ length: 30 }, (_, i) => 0.05 + (i % 5) / 50);
    expect(outlookSkill(climatology, climatology, 'same')).toMatchObject({
      rpss: null,
      rpss_interval: null,
      verdict: null,
      reason: 'the outlook was the usual for the season on every day (it carried no anomaly to this lead): there is nothing to compare',
    });
    const quiet = outlookSkill(new Array(30).fill(0.01), climatology, 'quiet', new Array(30).fill(0));
    expect(quiet).toMatchObject({ rpss: null, rpss_interval: null, verdict: null });
    expect(quiet.reason).toMatch(/^every observed day was None/);
    // One day above None: scored.
    expect(outlookSkill(new Array(30).fill(0.01), climatology, 'quiet', [1, ...new Array(29).fill(0)]).rpss).not.toBeNull();
  });

  it('calls it no better than climatology where its interval holds 0', () => {
    const rps = Array.from({ length: 30 }, (_, i) => (Math.floor(i / 7) % 3 === 2 ? 0.15 : 0.05));
    expect(outlookSkill(rps, new Array(30).fill(0.1), 'runs').verdict).toBe('no better');
  });

  it('keeps what it issued as level counts, with what it read', () => {
    const series = days('2025-06-01', '2025-06-30', 10);
    days('2026-06-01', '2026-06-30', 100, series);
    const issued = new Outlooks(series, 'grass').issue(ISSUE);
    expect(issued).toMatchObject({ issued: ISSUE, earlierYears: [2025], shiftDays: { '2025': 0 } });
    // 2025's June days around 10 June: 15 members, all Moderate.
    expect(issued.leads[0]).toEqual({ members: 15, counts: [0, 0, 15, 0, 0] });
    expect(new Outlooks(series, 'grass').climatology(ISSUE)).toEqual({
      members: 15,
      counts: [0, 0, 15, 0, 0],
      median: { value: 10, level: 'Moderate' },
    });
  });
});
