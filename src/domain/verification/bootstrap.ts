/**
 * Confidence intervals for verification scores by the moving-block bootstrap (docs/data.md,
 * "Forecast skill"). A score from n days is an estimate; the JWGFVR's page on confidence
 * intervals for verification scores (https://www.cawcr.gov.au/projects/verification/BootstrapCIs.html)
 * draws the n forecast/observation pairs again with replacement "a large number of times, say
 * 1000", orders the scores so made and reads the interval off their percentiles, and recommends
 * "block bootstrapping, where the data is resampled in blocks which can be considered independent
 * of each other ... for datasets with high spatial or temporal correlation": daily pollen is
 * correlated for weeks (Nowosad et al. 2015, doi:10.1007/s10453-014-9354-2). The blocks are
 * Künsch's moving blocks (Künsch 1989, "The jackknife and the bootstrap for general stationary
 * observations", Ann. Statist. 17(3):1217-1241, doi:10.1214/aos/1176347265), which Wilks brought
 * to atmospheric data ("Resampling hypothesis tests for autocorrelated fields", J. Climate 10, 1997),
 * drawn as the `arch` package's MovingBlockBootstrap draws them (bashtage/arch,
 * arch/bootstrap/base.py): ceil(n / L) blocks of L consecutive days, each starting at a day drawn
 * uniformly from the n - L + 1 that begin a whole block, no wrap-around, the last cut so that a
 * resample has n days. L is a week: the weather that moves pollen changes with each front, a few
 * days apart, and a week keeps a season's rise within a block.
 *
 * The draws are pseudo-random from a seed made of the period's key (its city and period, as
 * lead-scores.ts's skillKey makes it; the FNV-1a hash below), so an interval is the same
 * whichever thread computes it, in whatever order, and a render that keeps a closed period's
 * interval keeps what a fresh render would compute. Every table of a period with as many days
 * (each category, lead and reference) resamples the same days: a forecast's and a reference's
 * resampled scores are paired, and their differences' interval is a paired bootstrap's.
 * Generator: xoshiro128** (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c),
 * seeded by SplitMix32 from the FNV-1a hash of the key's UTF-16 code units; a start below m is
 * floor(u · m / 2^32) of a 32-bit draw u (bias under m / 2^32, below 1e-7 here).
 *
 * Intervals are percentile intervals: the 2.5% and 97.5% quantiles of the resampled scores,
 * interpolated as numpy's default `linear` and R's type 7 do (h = (N - 1) p). A resample whose
 * score is undefined (every observed day in one level) is left out; an interval needs 95% of
 * the resamples to have a score.
 */

/** Seconds this thread has spent resampling, since it started: the render reports the bootstrap's share of its work. */
export const resampling = { seconds: 0 };

/** Days in a block. */
export const BLOCK_DAYS = 7;
/** Resamples per interval. */
export const RESAMPLES = 1000;
/** The interval's coverage. */
export const COVERAGE = 0.95;
/** The share of resamples that must have a score for an interval to be given. */
export const MIN_DEFINED = 0.95;

/** FNV-1a hash of a string's UTF-16 code units, 32 bits. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** xoshiro128**: 32-bit draws from a 128-bit state seeded by SplitMix32. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Seeded from 32 bits by SplitMix32, or given its state (four 32-bit words, not all 0). */
  constructor(seed: number, state?: readonly [number, number, number, number]) {
    if (state) {
      [this.a, this.b, this.c, this.d] = state.map((x) => x >>> 0) as [number, number, number, number];
      return;
    }
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    [this.a, this.b, this.c, this.d] = [next(), next(), next(), next()];
  }

  /** The next 32-bit draw, unsigned. */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A draw below `m` (m at most 2^32). */
  below(m: number): number {
    return Math.floor((this.next() * m) / 4294967296);
  }
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** The blocks of every resample of n days: resample r's block j starts at `starts[r * count + j]` and holds `BLOCK_DAYS` days, the last `last`. */
export interface Resamples {
  n: number;
  /** Days in a block (BLOCK_DAYS, or n when fewer). */
  block: number;
  /** Blocks per resample. */
  count: number;
  /** Days in a resample's last block. */
  last: number;
  starts: Int32Array;
}

/** Resamples made lately, by key and days: every table of a period resamples the same blocks. */
const RECENT = new Map<string, Resamples>();
const RECENT_KEPT = 32;

/**
 * The moving blocks of `resamples` resamples of n days (n at least 1), drawn from the key's seed.
 * The key names a period (its city, category and span), not a table: every table of the period
 * with the same number of days resamples the same blocks, which keeps a lead's scores comparable
 * with the next's, and draws each set once.
 */
export function resamplesOf(n: number, key: string, resamples = RESAMPLES): Resamples {
  const memo = `${key}\n${n}\n${resamples}`;
  const made = RECENT.get(memo);
  if (made) return made;
  const started = performance.now();
  const block = Math.min(BLOCK_DAYS, n);
  const count = Math.ceil(n / block);
  const last = n - (count - 1) * block;
  // A block may start at any day that begins a whole block; the last block reads its first `last` days.
  const m = n - block + 1;
  const random = new Random(hashString(key));
  const starts = new Int32Array(resamples * count);
  for (let i = 0; i < starts.length; i++) starts[i] = random.below(m);
  const r = { n, block, count, last, starts };
  if (RECENT.size === RECENT_KEPT) RECENT.delete(RECENT.keys().next().value!);
  RECENT.set(memo, r);
  resampling.seconds += (performance.now() - started) / 1000;
  return r;
}

/** The type-7 quantile `p` of values sorted ascending. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const j = Math.floor(h);
  const g = h - j;
  const low = sorted[j]!;
  return g === 0 ? low : low + g * (sorted[j + 1]! - low);
}

/** An interval, or why there is none. */
export type Interval = { low: number; high: number } | { reason: string };

/** Where percentileInterval sorts the defined scores. */
let defined = new Float64Array(RESAMPLES);

/** The percentile interval of resampled scores (NaN where undefined). */
export function percentileInterval(values: Float64Array): Interval {
  const started = performance.now();
  try {
    return interval(values);
  } finally {
    resampling.seconds += (performance.now() - started) / 1000;
  }
}

function interval(values: Float64Array): Interval {
  if (defined.length < values.length) defined = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) defined[n++] = values[i]!;
  if (n < MIN_DEFINED * values.length) return { reason: `the score is undefined in ${values.length - n} of ${values.length} resamples` };
  const tail = (1 - COVERAGE) / 2;
  return { low: selectedQuantile(defined, n, tail), high: selectedQuantile(defined, n, 1 - tail) };
}

/**
 * The type-7 quantile `p` of the first n values, found by selection rather than a sort (the
 * values are left in another order): the two order statistics it interpolates between.
 */
function selectedQuantile(values: Float64Array, n: number, p: number): number {
  const h = (n - 1) * p;
  const j = Math.floor(h);
  const low = select(values, n, j);
  if (h === j) return low;
  // The next order statistic is the least of those after j, which selection left above it.
  let next = Number.POSITIVE_INFINITY;
  for (let i = j + 1; i < n; i++) if (values[i]! < next) next = values[i]!;
  return low + (h - j) * (next - low);
}

/** The k-th least of the first n values (0-based), with the values before it no greater and those after no less (Hoare's selection). */
function select(a: Float64Array, n: number, k: number): number {
  let [lo, hi] = [0, n - 1];
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1]!;
    let [i, j] = [lo, hi];
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * The skill score 1 - Σa / Σb of every resample of paired daily values a (a forecast's) and b
 * (its reference's), such as the ranked probability skill score: NaN where Σb is 0. Block sums
 * come from prefix sums, so a resample costs its blocks, not its days.
 */
export function resampledSkill(a: ArrayLike<number>, b: ArrayLike<number>, r: Resamples): Float64Array {
  const started = performance.now();
  const { n, block, count, last, starts } = r;
  const [pa, pb] = [new Float64Array(n + 1), new Float64Array(n + 1)];
  for (let i = 0; i < n; i++) {
    pa[i + 1] = pa[i]! + a[i]!;
    pb[i + 1] = pb[i]! + b[i]!;
  }
  const out = new Float64Array(starts.length / count);
  for (let s = 0, at = 0; s < out.length; s++) {
    let [sa, sb] = [0, 0];
    for (let j = 0; j < count; j++, at++) {
      const from = starts[at]!;
      const to = from + (j === count - 1 ? last : block);
      sa += pa[to]! - pa[from]!;
      sb += pb[to]! - pb[from]!;
    }
    out[s] = sb === 0 ? Number.NaN : 1 - sa / sb;
  }
  resampling.seconds += (performance.now() - started) / 1000;
  return out;
}

/**
 * What each possible block adds to a resample's tables, as (slot, count) entries: a week of days
 * spans few cells, so a resample adds a block's few entries rather than its days one by one.
 * `slots[t][i]` is day i's slot in table t, counted from `at[t]`.
 */
class BlockCells {
  readonly offsets: Int32Array;
  readonly slots: Uint16Array;
  readonly counts: Uint8Array;

  constructor(slots: readonly Uint8Array[], at: Int32Array, total: number, starts: number, length: number) {
    const scratch = new Uint8Array(total);
    const touched: number[] = [];
    const outSlots: number[] = [];
    const outCounts: number[] = [];
    this.offsets = new Int32Array(starts + 1);
    for (let s = 0; s < starts; s++) {
      for (let t = 0; t < slots.length; t++) {
        const days = slots[t]!;
        const base = at[t]!;
        for (let i = s; i < s + length; i++) {
          const slot = base + days[i]!;
          if (scratch[slot]!++ === 0) touched.push(slot);
        }
      }
      for (const slot of touched) {
        outSlots.push(slot);
        outCounts.push(scratch[slot]!);
        scratch[slot] = 0;
      }
      touched.length = 0;
      this.offsets[s + 1] = outSlots.length;
    }
    this.slots = Uint16Array.from(outSlots);
    this.counts = Uint8Array.from(outCounts);
  }
}

/**
 * Each resample's tables, scored. Table t counts its days in `sizes[t]` slots (a contingency
 * table's cells, or only those its sample uses), day i in slot `slots[t][i]`; a resample's counts
 * of table t are at `counts[at ..< at + sizes[t]]`, and `score(counts, at, t, out)` scores them
 * into out[0..k). Returns each table's k scores, by resample.
 */
export function resampledTables(
  slots: readonly Uint8Array[],
  sizes: readonly number[],
  r: Resamples,
  k: number,
  score: (counts: Int32Array, at: number, table: number, out: Float64Array) => void,
): Float64Array[][] {
  const started = performance.now();
  const { n, block, count, last, starts } = r;
  const tables = slots.length;
  const at = new Int32Array(tables);
  let total = 0;
  for (let t = 0; t < tables; t++) {
    at[t] = total;
    total += sizes[t]!;
  }
  const m = n - block + 1;
  const whole = new BlockCells(slots, at, total, m, block);
  const end = last === block ? whole : new BlockCells(slots, at, total, m, last);
  const counts = new Int32Array(total);
  const resamples = starts.length / count;
  const out = slots.map(() => Array.from({ length: k }, () => new Float64Array(resamples)));
  const scored = new Float64Array(k);
  const [wholeSlots, wholeCounts, wholeOffsets] = [whole.slots, whole.counts, whole.offsets];
  for (let s = 0, j0 = 0; s < resamples; s++, j0 += count) {
    counts.fill(0);
    // Every block but the last is whole.
    for (let j = j0, stop = j0 + count - 1; j < stop; j++) {
      const start = starts[j]!;
      for (let e = wholeOffsets[start]!, to = wholeOffsets[start + 1]!; e < to; e++) counts[wholeSlots[e]!]! += wholeCounts[e]!;
    }
    const start = starts[j0 + count - 1]!;
    for (let e = end.offsets[start]!, to = end.offsets[start + 1]!; e < to; e++) counts[end.slots[e]!]! += end.counts[e]!;
    for (let t = 0; t < tables; t++) {
      score(counts, at[t]!, t, scored);
      const table = out[t]!;
      for (let x = 0; x < k; x++) table[x]![s] = scored[x]!;
    }
  }
  resampling.seconds += (performance.now() - started) / 1000;
  return out;
}
