/**
 * How close forecast daily means came to the observed ones, past their levels: Spearman's rank
 * correlation and the RMSE of log10(1 + mean) (docs/data.md, "Forecast skill").
 */
import { none, type Score, value } from './scores.js';

/**
 * Ranks 1..n of finite values, a tie sharing the mean of the ranks it spans (SciPy's rankdata,
 * method 'average'); `sorted` is the values sorted, where the caller has them.
 */
export function midRanks(values: ArrayLike<number>, sorted: Float64Array = new Float64Array(values).sort()): Float64Array {
  // A value's ties span from the first sorted value not below it to the last not above it, found by
  // binary search in the values sorted as numbers: no object per value, no comparator called.
  const n = values.length;
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let [lo, hi] = [0, n];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! >= v) hi = mid;
      else lo = mid + 1;
    }
    const first = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! > v) hi = mid;
      else lo = mid + 1;
    }
    ranks[i] = (first + lo - 1) / 2 + 1;
  }
  return ranks;
}

/**
 * Spearman rank correlation: the Pearson correlation of the mid-ranks of the forecast and of the
 * observed daily means (scipy.stats.spearmanr, https://docs.scipy.org/doc/scipy/reference/generated/scipy.stats.spearmanr.html).
 */
export function spearman(forecast: ArrayLike<number>, observed: ArrayLike<number>): Score {
  const [byForecast, byObserved] = [new Float64Array(forecast).sort(), new Float64Array(observed).sort()];
  const same = (sorted: Float64Array) => sorted.length < 2 || sorted[0] === sorted[sorted.length - 1];
  if (same(byForecast)) return none('every forecast daily mean was the same: no ranks to correlate');
  if (same(byObserved)) return none('every observed daily mean was the same: no ranks to correlate');
  const x = midRanks(forecast, byForecast);
  const y = midRanks(observed, byObserved);
  // Mid-ranks of n values always sum to n(n + 1) / 2.
  const mean = (x.length + 1) / 2;
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mean) * (y[i]! - mean);
    sxx += (x[i]! - mean) ** 2;
    syy += (y[i]! - mean) ** 2;
  }
  return value(sxy / Math.sqrt(sxx * syy));
}

/**
 * Root mean square error of log10(1 + daily mean): errors as ratios, so that a forecast of 200 for
 * an observed 100 costs as much in a heavy season as 2 for 1 in a light one (the "factor of 2" of
 * pollen model evaluations: Ritenberga et al. 2017, Sci. Total Environ. 615,
 * doi:10.1016/j.scitotenv.2017.09.061, scores the fraction of predictions within a factor of 2);
 * the 1 keeps days without pollen.
 */
export function rmseLog(forecast: ArrayLike<number>, observed: ArrayLike<number>): Score {
  if (forecast.length === 0) return none('no pairs');
  let squares = 0;
  for (let i = 0; i < forecast.length; i++) squares += (Math.log10(1 + forecast[i]!) - Math.log10(1 + observed[i]!)) ** 2;
  return value(Math.sqrt(squares / forecast.length));
}
