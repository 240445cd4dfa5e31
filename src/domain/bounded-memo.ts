/** Results kept for inputs that repeat, within a bound. */

/**
 * `make` with its results kept by input, up to `kept` of them: past that the kept results are
 * dropped and kept again as they come, so memory stays bounded however many inputs pass.
 */
export function keptResults<K, V>(make: (input: K) => V, kept: number): (input: K) => V {
  const results = new Map<K, V>();
  return (input) => {
    let result = results.get(input);
    if (result === undefined) {
      if (results.size === kept) results.clear();
      result = make(input);
      results.set(input, result);
    }
    return result;
  };
}
