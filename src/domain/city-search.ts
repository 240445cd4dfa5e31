/** Cities by name, as people type them: any case, with or without accents, "Columbus, OH". */
import { STATE_REGIONS, type City } from './cities.js';

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
