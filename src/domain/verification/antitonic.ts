/**
 * Weighted least squares under the order "never increasing": the values w_0 >= w_1 >= ... closest
 * to `values` in Σ weights_i (w_i - values_i)², by the pool-adjacent-violators algorithm (Barlow,
 * Bartholomew, Bremner & Brunk 1972, "Statistical Inference under Order Restrictions"; as
 * scikit-learn's `isotonic_regression(y, sample_weight=..., increasing=False)` solves it,
 * https://scikit-learn.org/stable/modules/generated/sklearn.isotonic.isotonic_regression.html),
 * then kept in [low, high], which keeps the order and is the bounded problem's solution (the same
 * library's y_min and y_max clip the fit). Weights are positive.
 */
export function nonIncreasing(
  values: readonly number[],
  weights: readonly number[],
  low = Number.NEGATIVE_INFINITY,
  high = Number.POSITIVE_INFINITY,
): number[] {
  // Blocks of pooled values, left to right: each its weighted mean, weight and length.
  const means: number[] = [];
  const sums: number[] = [];
  const lengths: number[] = [];
  for (let i = 0; i < values.length; i++) {
    let [mean, weight, length] = [values[i]!, weights[i]!, 1];
    // A block whose mean rises above the block before it violates the order: pool them.
    while (means.length > 0 && means.at(-1)! < mean) {
      const [m, w, l] = [means.pop()!, sums.pop()!, lengths.pop()!];
      const total = w + weight;
      mean = total === 0 ? (m + mean) / 2 : (m * w + mean * weight) / total;
      weight = total;
      length += l;
    }
    means.push(mean);
    sums.push(weight);
    lengths.push(length);
  }
  return means.flatMap((m, b) => new Array<number>(lengths[b]!).fill(Math.min(high, Math.max(low, m))));
}
