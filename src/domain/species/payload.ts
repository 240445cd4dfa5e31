/**
 * Species payloads as providers send them. A payload maps category names to either a number
 * (`Others`) or an object of allergen numbers. The store keeps a payload's key structure (its
 * shape) once, and its values packed (store/codec.ts).
 */
import { slugify } from '../cities.js';
import { measurement } from './measurement.js';

export type SpeciesLeaf = number | null;
export type SpeciesGroup = SpeciesLeaf | { [allergen: string]: SpeciesLeaf };
export type Species = { [category: string]: SpeciesGroup };

/** Key names in payload order: `[category]` for a plain number, `[category, allergens]` for an object. */
export type Shape = ReadonlyArray<readonly [string] | readonly [string, readonly string[]]>;

/** How many leaves a payload of a shape has: one per plain number, one per allergen. */
export const leafCount = (shape: Shape): number => shape.reduce((n, e) => n + (e.length === 2 ? e[1].length : 1), 0);

/** A mean as daily rows publish it: rounded, null kept. */
export const roundOrNull = (v: number | null): number | null => (v === null ? null : Math.round(v));

/** Sets a payload's key as data, so that a key such as `__proto__` stays an ordinary key. */
export function setKey<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A provider payload made safe to store: key order kept, leaves that are not valid
 * measurements (negative, non-numeric, nested deeper) become null; a non-object payload is null.
 */
export function sanitizeSpecies(raw: unknown): Species | null {
  if (!isPlainObject(raw)) return null;
  // Most payloads are clean: they are kept as they are, and copied only when a leaf must change.
  if (isClean(raw)) return raw as Species;
  return Object.fromEntries(
    Object.entries(raw).map(([category, group]): [string, SpeciesGroup] => [
      category,
      isPlainObject(group) ? Object.fromEntries(Object.entries(group).map(([k, v]) => [k, measurement(v)])) : measurement(group),
    ]),
  );
}

/** Whether every leaf of a payload is already a valid measurement or null, one level deep. */
function isClean(raw: Record<string, unknown>): boolean {
  for (const group of Object.values(raw)) {
    if (isPlainObject(group)) {
      for (const leaf of Object.values(group)) if (!isLeaf(leaf)) return false;
    } else if (!isLeaf(group)) return false;
  }
  return true;
}

const isLeaf = (v: unknown): boolean => v === null || measurement(v) !== null;

/** The key structure of a payload. */
export function shapeOf(species: Species): Shape {
  return Object.entries(species).map(([category, group]) =>
    group !== null && typeof group === 'object' ? ([category, Object.keys(group)] as const) : ([category] as const),
  );
}

/** Whether a payload has this shape: its keys, in order (cheaper than its key, for the hour after an hour of the same shape). */
export function hasShape(species: Species, shape: Shape): boolean {
  let i = 0;
  for (const category in species) {
    const entry = shape[i++];
    if (entry === undefined || entry[0] !== category) return false;
    const group = species[category];
    const allergens = entry[1];
    if (group !== null && typeof group === 'object') {
      if (allergens === undefined) return false;
      let j = 0;
      for (const allergen in group) if (allergens[j++] !== allergen) return false;
      if (j !== allergens.length) return false;
    } else if (allergens !== undefined) return false;
  }
  return i === shape.length;
}

/** A cheap identity for a payload's shape, to find its stored id without serialising the shape. */
export function shapeKey(species: Species): string {
  let key = '';
  for (const category in species) {
    const group = species[category];
    key += category;
    if (group !== null && typeof group === 'object') {
      key += '\u0001';
      for (const allergen in group) key += `${allergen}\u0002`;
    }
    key += '\u0000';
  }
  return key;
}

/**
 * A species' name as a column and a season category: its category and name in snake case
 * (`tree_cypress_juniper_cedar`), or the category alone for a plain number (`others`).
 */
export const speciesColumn = (category: string, name?: string): string =>
  slugify(name === undefined ? category : `${category}_${name}`).replaceAll('-', '_');
