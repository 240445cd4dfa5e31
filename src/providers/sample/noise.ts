/** Deterministic pseudo-randomness: the same inputs always give the same numbers. */

/** FNV-1a hash of a string, 32 bits. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A uniform number in [0, 1) determined by the inputs (murmur3's finaliser over each one). */
export function unit(...inputs: number[]): number {
  let h = 0x9e3779b9;
  for (const n of inputs) {
    h = Math.imul(h ^ (n | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 4294967296;
}

/** A standard normal number determined by the inputs (Box-Muller). */
export function normal(...inputs: number[]): number {
  const u = Math.max(unit(...inputs, 1), 1e-12);
  const v = unit(...inputs, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A seasonal bell around `peak` (day of year) with a spread of `width` days, wrapping at year end. */
export function bump(dayOfYear: number, peak: number, width: number): number {
  let d = Math.abs(dayOfYear - peak) % 365;
  if (d > 182.5) d = 365 - d;
  return Math.exp(-0.5 * (d / width) ** 2);
}
