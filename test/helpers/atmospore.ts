/**
 * What Atmospore's recorded answers (test/fixtures/atmospore-*.json) say of a day, computed here
 * apart from the client, for tests to compare what the service made of them with.
 */

/** What a category's sum reads of an Atmospore day's species entry. */
export interface AtmosporeEntry {
  value: number;
  category: string;
}

/** The families Atmospore names beside their members (betulaceae beside birch, alder and hazel). */
const FAMILY_SLUGS: ReadonlySet<string> = new Set(['betulaceae', 'pinaceae']);

/** A category's grains over an Atmospore day's taxa, the families left out, as the client sums them (to a millionth). */
export function atmosporeCategory(item: { species: Record<string, AtmosporeEntry> }, category: string): number {
  let sum = 0;
  for (const [slug, e] of Object.entries(item.species)) if (e.category === category && !FAMILY_SLUGS.has(slug)) sum += e.value;
  return Math.round(sum * 1e6) / 1e6;
}
