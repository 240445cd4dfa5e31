/** One row of the bench table. */
export interface Measure {
  id: string;
  what: string;
  value: string;
  baseline: string;
  /** The measured value over its baseline; null where there is no baseline. */
  ratio: number | null;
  target: string;
  /** Whether the target was met; null where the figure is only reported. */
  met: boolean | null;
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const s = (seconds: number) => `${seconds.toFixed(2)} s`;
