/** Cities by name, as people type them: any case, with or without accents, "Columbus, OH". */
import { type City, STATE_REGIONS, slugify } from './cities.js';

/** Most rows a name search gives. */
export const MAX_NAME_MATCHES = 10;

/** `Cañon City` and `canon  city` alike: lower case ASCII words, punctuation as spaces. */
export const foldName = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export interface NameQuery {
  /** Folded, without a trailing state. */
  name: string;
  /** USPS code, upper case. */
  state?: string;
}

/** Why a name query cannot be answered: the argument at fault, and what it should be. */
export class NameQueryError extends Error {
  constructor(
    readonly argument: 'name' | 'state',
    message: string,
  ) {
    super(message);
  }
}

/** The query in a name and an optional state: "Columbus, OH" carries its state. */
export function parseNameQuery(name: string, state?: string): NameQuery {
  const m = /^(.*),\s*([A-Za-z]{2})\s*$/.exec(name);
  const [text, inName] = m ? [m[1]!, m[2]!.toUpperCase()] : [name, undefined];
  const given = state?.trim().toUpperCase();
  if (given !== undefined && !STATE_REGIONS[given]) throw new NameQueryError('state', 'the USPS code of a state or DC, such as "OH"');
  if (inName !== undefined && !STATE_REGIONS[inName])
    throw new NameQueryError('name', 'a city name, with the USPS code of a state or DC after a comma if any, such as "Columbus, OH"');
  if (given !== undefined && inName !== undefined && given !== inName)
    throw new NameQueryError('state', `the state named in argument 'name' (${inName}), or none`);
  const folded = foldName(text);
  if (folded === '') throw new NameQueryError('name', 'a city name, such as "Columbus" or "Columbus, OH"');
  return { name: folded, state: given ?? inName };
}

/**
 * Cities whose name is the query, then those it starts, then those containing it, each group in
 * the set's order (name, then state), at most MAX_NAME_MATCHES.
 */
export function citiesByName(cities: readonly City[], query: NameQuery): City[] {
  const inState = query.state === undefined ? cities : cities.filter((c) => c.state === query.state);
  const tiers: City[][] = [[], [], []];
  for (const city of inState) {
    const name = foldName(city.name);
    const tier = name === query.name ? 0 : name.startsWith(query.name) ? 1 : name.includes(query.name) ? 2 : -1;
    if (tier >= 0) tiers[tier]!.push(city);
  }
  return tiers.flat().slice(0, MAX_NAME_MATCHES);
}

/**
 * The slug a mistyped one most likely meant: the slug its text makes (`Austin`, `St. Louis`), else
 * the nearest by edit distance (a swap of two letters counts one) when within a third of its
 * length; undefined when none is that close. Ties go to the first slug in byte order.
 */
export function closestSlug(cities: readonly City[], text: string): string | undefined {
  const asSlug = slugify(text);
  const slugs = cities.map((c) => c.slug).sort();
  if (slugs.includes(asSlug)) return asSlug;
  if (asSlug === '') return undefined;
  let best: { slug: string; distance: number } | undefined;
  for (const slug of slugs) {
    const distance = editDistance(asSlug, slug);
    if (!best || distance < best.distance) best = { slug, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(asSlug.length / 3)) ? best.slug : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours, each one. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
