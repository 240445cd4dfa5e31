/** A score in a sentence: two decimals, a tiny one three (so that -0.002 is not "-0.00"), never a signed zero. */
export const scoreText = (v: number): string => (Math.abs(v) < 0.005 && v !== 0 ? v.toFixed(3) : v.toFixed(2).replace(/^-0\.00$/, '0.00'));
