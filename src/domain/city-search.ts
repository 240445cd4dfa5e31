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
export function citiesByName<C extends Pick<City, 'name' | 'state'>>(cities: readonly C[], query: NameQuery): C[] {
  const inState = query.state === undefined ? cities : cities.filter((c) => c.state === query.state);
  const tiers: C[][] = [[], [], []];
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
 * length; undefined when none is that close. Ties go to the first slug in byte order. Slugs whose
 * length differs by more than that bound are never measured (their distance is at least the
 * difference), and each measure stops at the bound: `work.cells` counts the cells it filled.
 */
export function closestSlug(cities: readonly City[], text: string, work = { cells: 0 }): string | undefined {
  const asSlug = slugify(text);
  const slugs = cities.map((c) => c.slug).sort();
  if (slugs.includes(asSlug)) return asSlug;
  if (asSlug === '') return undefined;
  const bound = Math.max(1, Math.floor(asSlug.length / 3));
  let best: { slug: string; distance: number } | undefined;
  for (const slug of slugs) {
    if (Math.abs(slug.length - asSlug.length) > bound) continue;
    const distance = editDistance(asSlug, slug, Math.min(bound, (best?.distance ?? bound + 1) - 1), work);
    if (distance !== undefined) best = { slug, distance };
  }
  return best?.slug;
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions and swaps of neighbours,
 * each one) when at most `most`, else undefined: three rows of b's length, and a row whose every
 * cell is over `most` ends the measure, since no later row can come back under it.
 */
function editDistance(a: string, b: string, most: number, work: { cells: number }): number | undefined {
  if (most < 0) return undefined;
  let [before, previous, row] = [
    new Array<number>(b.length + 1),
    Array.from({ length: b.length + 1 }, (_, j) => j),
    new Array<number>(b.length + 1),
  ];
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      if (d < least) least = d;
    }
    work.cells += b.length;
    if (least > most) return undefined;
    [before, previous, row] = [previous, row, before];
  }
  const distance = previous[b.length]!;
  return distance <= most ? distance : undefined;
}
