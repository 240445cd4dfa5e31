/**
 * Which provider each value came from. A store is filled by one provider, but a deployer may
 * replace some days with another's (ingest --replace-provider-days): an answer says where its own
 * values came from, never the store's newest day's provider for all of them. When its values come
 * from one provider the answer names it once; when they come from several, it lists them and each
 * row names its own, so that simulated values are never read under a real provider's name.
 */

/** The bundled sample provider's id: its values are invented. */
export const SIMULATED_PROVIDER = 'sample';

/** Where an answer's values come from, at the top of the answer. */
export type Provenance = { provider: string | null; providers?: string[]; simulated?: true };

/** A row's providers, on the rows of an answer that mixes them. */
export type RowProvenance = { providers: string[]; simulated?: true };

/** The provenance of an answer whose values all come from `provider` (null: nothing stored). */
export const provenanceOf = (provider: string | null): Provenance =>
  provider === SIMULATED_PROVIDER ? { provider, simulated: true } : { provider };

/** The providers of a row: each once, in the order of its values. */
export const rowProvenanceOf = (sources: readonly string[]): RowProvenance => {
  const providers = [...new Set(sources)];
  return providers.includes(SIMULATED_PROVIDER) ? { providers, simulated: true } : { providers };
};

/**
 * An answer's provenance and its rows, from each row and the providers of its values. One
 * provider: named at the top and the rows unchanged. Several: `provider` null, `providers` lists
 * them (in the order rows first name them), `simulated` when any is the sample's, and each row
 * carries its own `providers`. No rows: `fallback`, the store's provider.
 */
export function provenanceOfRows<R extends object>(
  rows: ReadonlyArray<{ row: R; sources: readonly string[] }>,
  fallback: string | null,
): { from: Provenance; rows: Array<R | (R & RowProvenance)> } {
  const from = provenanceOfSources(
    rows.flatMap((r) => r.sources),
    fallback,
  );
  return { from, rows: from.providers ? rows.map((r) => ({ ...r.row, ...rowProvenanceOf(r.sources) })) : rows.map((r) => r.row) };
}

/**
 * A GeoJSON answer's provenance and its features, as `provenanceOfRows` does for rows: with several
 * providers, each feature's properties carry its own `providers`.
 */
export function provenanceOfFeatures<F extends { properties: object }>(
  made: ReadonlyArray<{ feature: F; sources: readonly string[] }>,
  fallback: string | null,
): { from: Provenance; features: F[] } {
  const from = provenanceOfSources(
    made.flatMap((m) => m.sources),
    fallback,
  );
  const features = made.map(({ feature, sources }) =>
    from.providers ? { ...feature, properties: { ...feature.properties, ...rowProvenanceOf(sources) } } : feature,
  );
  return { from, features };
}

/** The provenance of an answer whose values (not rows) come from these providers: a season, a forecast skill. */
export function provenanceOfSources(sources: Iterable<string>, fallback: string | null): Provenance {
  const all = [...new Set(sources)];
  if (all.length <= 1) return provenanceOf(all[0] ?? fallback);
  return { provider: null, providers: all, ...(all.includes(SIMULATED_PROVIDER) ? { simulated: true as const } : {}) };
}
