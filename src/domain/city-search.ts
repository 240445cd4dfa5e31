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
export function closestSlug(cities: readonly Pick<City, 'slug'>[], text: string, work = { cells: 0 }): string | undefined {
  return closestKey(
    cities.map((c) => c.slug),
    slugify(text),
    work,
  );
}

/** The key nearest `key` by edit distance, within a third of its length (see closestSlug). */
function closestKey(keys: readonly string[], key: string, work: { cells: number }): string | undefined {
  const sorted = [...keys].sort();
  if (sorted.includes(key)) return key;
  if (key === '') return undefined;
  const bound = Math.max(1, Math.floor(key.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of sorted) {
    if (Math.abs(candidate.length - key.length) > bound) continue;
    const distance = editDistance(key, candidate, Math.min(bound, (best?.distance ?? bound + 1) - 1), work);
    if (distance !== undefined) best = { key: candidate, distance };
  }
  return best?.key;
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

/** USPS codes by the folded full name of the state, for "tulsa, oklahoma". */
const STATE_CODES: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'AL alabama|AK alaska|AZ arizona|AR arkansas|CA california|CO colorado|CT connecticut|DE delaware|DC district of columbia|' +
    'FL florida|GA georgia|HI hawaii|ID idaho|IL illinois|IN indiana|IA iowa|KS kansas|KY kentucky|LA louisiana|ME maine|' +
    'MD maryland|MA massachusetts|MI michigan|MN minnesota|MS mississippi|MO missouri|MT montana|NE nebraska|NV nevada|' +
    'NH new hampshire|NJ new jersey|NM new mexico|NY new york|NC north carolina|ND north dakota|OH ohio|OK oklahoma|OR oregon|' +
    'PA pennsylvania|RI rhode island|SC south carolina|SD south dakota|TN tennessee|TX texas|UT utah|VT vermont|VA virginia|' +
    'WA washington|WV west virginia|WI wisconsin|WY wyoming'
  )
    .split('|')
    .map((row) => [row.slice(3), row.slice(0, 2)]),
);

/** What people call a city other than its name: the short names a search box sees. */
const CALLED: ReadonlyMap<string, string> = new Map([
  ['nyc', 'new york'],
  ['philly', 'philadelphia'],
  ['sf', 'san francisco'],
  ['slc', 'salt lake city'],
  ['okc', 'oklahoma city'],
  ['stl', 'st louis'],
  ['vegas', 'las vegas'],
]);

/** Words a name is spelled with either way ("St. Louis", "Saint Louis"). */
const SHORT_WORDS: ReadonlyArray<[string, string]> = [
  ['saint', 'st'],
  ['fort', 'ft'],
  ['mount', 'mt'],
];

/** A trailing state, as a USPS code or a full name, and the name before it ("tulsa ok", "tulsa oklahoma"). */
function trailingState(folded: string): NameQuery | undefined {
  const code = /^(.+) ([a-z]{2})$/.exec(folded);
  if (code && STATE_REGIONS[code[2]!.toUpperCase()]) return { name: code[1]!, state: code[2]!.toUpperCase() };
  for (const [state, usps] of Object.entries(STATE_CODES))
    if (folded.endsWith(` ${state}`) && folded.length > state.length + 1) return { name: folded.slice(0, -state.length - 1), state: usps };
  return undefined;
}

/** The name as spelled otherwise: its other name, without "city", with "st" for "saint" and the like. */
function spellings(name: string): string[] {
  const out = [name];
  const called = CALLED.get(name);
  if (called) out.push(called);
  if (name.endsWith(' city')) out.push(name.slice(0, -' city'.length));
  for (const [long, short] of SHORT_WORDS)
    for (const [from, to] of [
      [long, short],
      [short, long],
    ] as const)
      out.push(name.replace(new RegExp(`\\b${from}\\b`, 'g'), to));
  return out.filter((spelled, i) => i === 0 || spelled !== name);
}

/**
 * The readings of a city as a person types it, likeliest first: the whole text as a name, then a
 * state at its end split off ("Tulsa, OK", "tulsa ok", "tulsa, oklahoma"), each also as spelled
 * otherwise ("New York City", "NYC", "Saint Louis"). None for a text without letters or digits.
 */
export function typedNameQueries(typed: string): NameQuery[] {
  const folded = foldName(typed);
  if (folded === '') return [];
  const split = trailingState(folded);
  const readings: NameQuery[] = [{ name: folded }, ...(split ? [split] : [])];
  const all = readings.flatMap((q) => spellings(q.name).map((name) => ({ ...q, name })));
  return all.filter((q, i) => all.findIndex((r) => r.name === q.name && r.state === q.state) === i);
}

/**
 * The cities a typed text stands for, best first: the first reading (typedNameQueries) that names
 * a city whole, else the first that is part of a name ("wich", "san").
 */
export function citiesTyped<C extends Pick<City, 'name' | 'state'>>(cities: readonly C[], typed: string): C[] {
  const readings = typedNameQueries(typed);
  const found = readings.map((q) => citiesByName(cities, q));
  return (
    found.find((rows, i) => rows[0] !== undefined && foldName(rows[0].name) === readings[i]!.name) ??
    found.find((rows) => rows.length > 0) ??
    []
  );
}

/**
 * The city a mistyped name or slug most likely meant ("tusla", "Tusla, OK", "columbus-oj"): the
 * nearest slug (closestSlug), else for each reading the city of its state (if it names one) whose
 * name is nearest by the same measure, else a city of the name typed in another state than the
 * one typed. Undefined when none is that close.
 */
export function likelyCity<C extends Pick<City, 'name' | 'state' | 'slug'>>(cities: readonly C[], typed: string): C | undefined {
  const work = { cells: 0 };
  const slug = closestSlug(cities, typed, work);
  if (slug !== undefined) return cities.find((c) => c.slug === slug);
  for (const q of typedNameQueries(typed)) {
    const pool = q.state === undefined ? cities : cities.filter((c) => c.state === q.state);
    // The first city of a repeated name (list order) stands for it: the state, if typed, has chosen already.
    const byKey = new Map<string, C>();
    for (const c of pool) if (!byKey.has(slugify(c.name))) byKey.set(slugify(c.name), c);
    const key = closestKey([...byKey.keys()], slugify(q.name), work);
    if (key !== undefined) return byKey.get(key);
  }
  // The name whole, in another state than the one typed ("Tulsa, TX").
  const named = typedNameQueries(typed).filter((q) => q.state !== undefined);
  return cities.find((c) => named.some((q) => foldName(c.name) === q.name));
}
