/**
 * The species leaves of a set of hours whose payloads all have one key shape (a provider's hours
 * nearly always do), read once, hour after hour, into numbers. A city-day's packing, its means, its
 * Ragweed peak and each hour's graded values are then arithmetic on these arrays, where each of
 * them walked the payload's keys again (the ingest packs and summarizes every hour it writes).
 */

import { hasShape, roundOrNull, type Shape, type Species, type SpeciesLeaf, setKey, shapeOf } from './payload.js';
import { type Category, SPECIES_KEY } from './risk.js';

/**
 * A payload of species means, key by key in a shape's order, from each leaf's mean (`mean(slot)`,
 * slots in that order): unrounded, what a day's risks are graded on, and rounded, as daily rows
 * publish them.
 */
export function meansByShape(shape: Shape, mean: (slot: number) => number | null): { exact: Species; rounded: Species } {
  const exact: Species = {};
  const rounded: Species = {};
  let slot = 0;
  for (const [category, names] of shape) {
    if (names === undefined) {
      const v = mean(slot++);
      setKey(exact, category, v);
      setKey(rounded, category, roundOrNull(v));
      continue;
    }
    const e: Record<string, SpeciesLeaf> = {};
    const r: Record<string, SpeciesLeaf> = {};
    for (const k of names) {
      const v = mean(slot++);
      setKey(e, k, v);
      setKey(r, k, roundOrNull(v));
    }
    setKey(exact, category, e);
    setKey(rounded, category, r);
  }
  return { exact, rounded };
}

/** The entry of a shape's top-level key, or -1. */
function indexOf(shape: Shape, key: string): number {
  for (let c = 0; c < shape.length; c++) if (shape[c]![0] === key) return c;
  return -1;
}

/** A graded category's leaves [from, to) within a row, when its group is an object (`starts`: each entry's first leaf). */
function rangeOf(shape: Shape, starts: readonly number[], category: Category): readonly [number, number] | null {
  const c = indexOf(shape, SPECIES_KEY[category]);
  const names = shape[c]?.[1];
  return names === undefined ? null : [starts[c]!, starts[c]! + names.length];
}

export class SpeciesColumns {
  private constructor(
    /** The payloads' key shape. */
    readonly shape: Shape,
    /** A payload of that shape (the first read), for its id. */
    readonly first: Species,
    /** Leaves per row, and rows (the hours with a payload, in order). */
    readonly slots: number,
    readonly rows: number,
    /** Row r's leaves at r * slots: the number, or 0 where `numeric` says the leaf is not one (null). */
    private readonly values: Float64Array,
    private readonly numeric: Uint8Array,
    /** Each graded category's leaves [from, to) within a row, when its group is an object. */
    private readonly ranges: Readonly<Record<Category, readonly [number, number] | null>>,
    /** The Weed.Ragweed leaf within a row, or -1. */
    private readonly ragweedAt: number,
  ) {}

  /** The hours' leaves; null when no hour has a payload, or two payloads differ in keys, their order or a group's form. */
  static of(hours: ReadonlyArray<{ species: Species | null }>): SpeciesColumns | null {
    let first: Species | null = null;
    let rows = 0;
    for (const h of hours) {
      if (h.species === null) continue;
      first ??= h.species;
      rows++;
    }
    if (first === null) return null;
    const shape = shapeOf(first);
    const starts: number[] = [];
    let slots = 0;
    for (const entry of shape) {
      starts.push(slots);
      slots += entry.length === 2 ? entry[1].length : 1;
    }
    const values = new Float64Array(rows * slots);
    const numeric = new Uint8Array(rows * slots);
    let j = 0;
    // As hasShape (domain/species/payload.ts) compares, and leaf by leaf as the codec packs: for...in, in key order.
    for (const h of hours) {
      const s = h.species;
      if (s === null) continue;
      let c = 0;
      for (const category in s) {
        const entry = shape[c++];
        if (entry === undefined || entry[0] !== category) return null;
        const names = entry[1];
        const group = s[category];
        if (group !== null && typeof group === 'object') {
          if (names === undefined) return null;
          let k = 0;
          for (const key in group) {
            if (names[k++] !== key) return null;
            const v = group[key];
            if (typeof v === 'number') {
              values[j] = v;
              numeric[j] = 1;
            }
            j++;
          }
          if (k !== names.length) return null;
        } else {
          if (names !== undefined) return null;
          if (typeof group === 'number') {
            values[j] = group;
            numeric[j] = 1;
          }
          j++;
        }
      }
      if (c !== shape.length) return null;
    }
    const weed = indexOf(shape, SPECIES_KEY.weed);
    const ragweed = shape[weed]?.[1]?.indexOf('Ragweed') ?? -1;
    const ranges = { tree: rangeOf(shape, starts, 'tree'), grass: rangeOf(shape, starts, 'grass'), weed: rangeOf(shape, starts, 'weed') };
    return new SpeciesColumns(shape, first, slots, rows, values, numeric, ranges, ragweed < 0 ? -1 : starts[weed]! + ragweed);
  }

  /**
   * The leaves of the hours in [from, to) of several sets of hours read before (a local day's, from
   * the UTC days it straddles), as one set, without reading a payload again; undefined when a set
   * with payloads in range was not read (`columns` null) or two sets' shapes differ.
   */
  static within(
    sets: ReadonlyArray<{ hours: ReadonlyArray<{ hour: number; species: Species | null }>; columns: SpeciesColumns | null }>,
    from: number,
    to: number,
  ): SpeciesColumns | null | undefined {
    // Each set's rows in range, [first, end): a set's hours are ascending, so its rows in range are consecutive.
    const spans: Array<[SpeciesColumns, number, number]> = [];
    let rows = 0;
    for (const { hours, columns } of sets) {
      let [row, first, end] = [0, -1, -1];
      for (const h of hours) {
        if (h.species === null) continue;
        if (h.hour >= from && h.hour < to) {
          if (first < 0) first = row;
          end = row + 1;
        }
        row++;
      }
      if (first < 0) continue;
      if (columns === null || (spans.length > 0 && !hasShape(columns.first, spans[0]![0].shape))) return undefined;
      spans.push([columns, first, end]);
      rows += end - first;
    }
    if (spans.length === 0) return null;
    const base = spans[0]![0];
    const slots = base.slots;
    const values = new Float64Array(rows * slots);
    const numeric = new Uint8Array(rows * slots);
    let at = 0;
    for (const [columns, first, end] of spans) {
      values.set(columns.values.subarray(first * slots, end * slots), at);
      numeric.set(columns.numeric.subarray(first * slots, end * slots), at);
      at += (end - first) * slots;
    }
    return new SpeciesColumns(base.shape, base.first, slots, rows, values, numeric, base.ranges, base.ragweedAt);
  }

  /** A leaf of a row, as the payload holds it. */
  leaf(row: number, slot: number): SpeciesLeaf {
    const i = row * this.slots + slot;
    return this.numeric[i] === 1 ? this.values[i]! : null;
  }

  /** The Weed.Ragweed allergen of a row, when it is a number. */
  ragweed(row: number): number | null {
    return this.ragweedAt < 0 ? null : this.leaf(row, this.ragweedAt);
  }

  /** gradedValue (domain/species/risk.ts) of a row: the highest number of the category's group when it has one, else `value`. */
  graded(row: number, category: Category, value: number | null): number | null {
    const range = this.ranges[category];
    if (range === null) return value;
    let max: number | null = null;
    for (let i = row * this.slots + range[0]; i < row * this.slots + range[1]; i++)
      if (this.numeric[i] === 1 && (max === null || this.values[i]! > max)) max = this.values[i]!;
    return max ?? value;
  }

  /** speciesSum (store/codec.ts) of a row: the category group's numbers summed left to right; undefined when it has none. */
  sum(row: number, category: Category): number | undefined {
    const range = this.ranges[category];
    if (range === null) return undefined;
    let sum: number | undefined;
    for (let i = row * this.slots + range[0]; i < row * this.slots + range[1]; i++)
      if (this.numeric[i] === 1) sum = (sum ?? 0) + this.values[i]!;
    return sum;
  }

  /** Each leaf averaged over the rows with a number for it (meansByShape). */
  means(): { exact: Species; rounded: Species } {
    return meansByShape(this.shape, (slot) => {
      let [sum, n] = [0, 0];
      for (let i = slot; i < this.rows * this.slots; i += this.slots) {
        if (this.numeric[i] !== 1) continue;
        sum += this.values[i]!;
        n++;
      }
      return n === 0 ? null : sum / n;
    });
  }
}
