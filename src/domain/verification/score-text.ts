/** A score in a sentence: two decimals, a tiny one three (so that -0.002 is not "-0.00"), never a signed zero. */
export const scoreText = (v: number): string => (Math.abs(v) < 0.005 && v !== 0 ? v.toFixed(3) : v.toFixed(2).replace(/^-0\.00$/, '0.00'));

/**
 * An interval's bound in a sentence: two significant digits, so that a bound just above 0 reads
 * 0.00027, not "0.000", and one of 0.3 reads 0.30; 0 is "0".
 */
export function boundText(v: number): string {
  if (v === 0) return '0';
  const decimals = Math.max(2, 1 - Math.floor(Math.log10(Math.abs(v))));
  return v.toFixed(Math.min(decimals, 20));
}

/** The least lower bound of an RPSS interval that sentences call "beyond doubt": a bound nearer 0 is above it by a hair. */
export const BEYOND_DOUBT = 0.01;
