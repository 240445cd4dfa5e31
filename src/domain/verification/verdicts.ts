/**
 * A forecast's verdict against each reference scored on its days: better, no better or worse,
 * from the interval of the difference of their Gerrity scores over the same resampled days
 * (docs/data.md, "Forecast skill").
 */
import type { Verdict } from '../schemas.js';
import { percentileInterval } from './bootstrap.js';
import { tidy } from './scores.js';

/** A table's point scores of levels, unrounded (NaN where withheld), for its verdicts. */
export interface Unrounded {
  heidke: number;
  gerrity: number;
}

/** The references as people say them. */
export const REFERENCE_WORDS = { persistence: "yesterday's level", climatology: 'the usual for the season' } as const;

/** What a verdict says, in words. */
export const verdictWords = (verdict: Verdict['verdict'], reference: Verdict['reference']): string =>
  verdict === null ? `not compared with ${REFERENCE_WORDS[reference]}` : `${verdict} than ${REFERENCE_WORDS[reference]}`;

/** Why Heidke's and Gerrity's differences disagree on the sign: what each counts. */
function disagreement(heidke: number, gerrity: number, reference: Verdict['reference']): string | null {
  if (!(heidke * gerrity < 0) || tidy(heidke) === 0 || tidy(gerrity) === 0) return null;
  const [ahead, behind] = heidke > 0 ? ["Heidke's", "Gerrity's"] : ["Gerrity's", "Heidke's"];
  return `${ahead} score puts the forecast ahead of ${REFERENCE_WORDS[reference]} and ${behind} behind: Heidke's counts every day forecast in the right level alike, Gerrity's rewards a rarer level forecast right more and costs a miss by how many levels it was off, so they part where the forecast and the reference differ on the rarer levels or the size of their misses. The verdict is Gerrity's.`;
}

/**
 * A forecast's verdict against a reference on the same days: the difference of their Gerrity
 * scores, and its interval from the differences over the same resampled days (a paired bootstrap:
 * the days a resample draws are the same for both, so what they share cancels).
 */
export function verdictOf(
  reference: Verdict['reference'],
  forecast: { point: Unrounded; resampled: Float64Array[] | undefined },
  against: { point: Unrounded; resampled: Float64Array[] | undefined },
  why: string | null,
): Verdict {
  const gerrity = forecast.point.gerrity - against.point.gerrity;
  const heidke = forecast.point.heidke - against.point.heidke;
  const base = { reference, difference: null, difference_interval: null, heidke_difference: null, note: null };
  if (Number.isNaN(gerrity) || !forecast.resampled || !against.resampled)
    return { ...base, verdict: null, words: verdictWords(null, reference), reason: why ?? 'no Gerrity score to compare' };
  const [f, r] = [forecast.resampled[1]!, against.resampled[1]!];
  const differences = new Float64Array(f.length);
  for (let i = 0; i < f.length; i++) differences[i] = f[i]! - r[i]!;
  const interval = percentileInterval(differences);
  const scored = { ...base, difference: tidy(gerrity), heidke_difference: tidy(heidke), note: disagreement(heidke, gerrity, reference) };
  if ('reason' in interval) return { ...scored, verdict: null, words: verdictWords(null, reference), reason: interval.reason };
  const [low, high] = [tidy(interval.low), tidy(interval.high)];
  const verdict = low > 0 ? 'better' : high < 0 ? 'worse' : 'no better';
  return { ...scored, difference_interval: [low, high], verdict, words: verdictWords(verdict, reference), reason: null };
}
