/**
 * Species payloads as providers send them, and the compact lossless form the store keeps.
 *
 * A payload maps category names to either a number (`Others`) or an object of allergen numbers.
 * The store splits it into a shape (the key names, in order, shared by every hour with the same
 * keys) and a small blob of values: a bitmap of the non-zero slots, then one varint per such slot.
 */
import { measurement } from './risk.js';

export type SpeciesLeaf = number | null;
export type SpeciesGroup = SpeciesLeaf | { [allergen: string]: SpeciesLeaf };
export type Species = { [category: string]: SpeciesGroup };

/** Key names in payload order: `[category]` for a plain number, `[category, allergens]` for an object. */
export type Shape = ReadonlyArray<readonly [string] | readonly [string, readonly string[]]>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A provider payload made safe to store: key order kept, leaves that are not valid
 * measurements (negative, non-numeric, nested deeper) become null; a non-object payload is null.
 */
export function sanitizeSpecies(raw: unknown): Species | null {
  if (!isPlainObject(raw)) return null;
  return Object.fromEntries(
    Object.entries(raw).map(([category, group]): [string, SpeciesGroup] => [
      category,
      isPlainObject(group)
        ? Object.fromEntries(Object.entries(group).map(([k, v]) => [k, measurement(v)]))
        : measurement(group),
    ]),
  );
}

/** The key structure of a payload. */
export function shapeOf(species: Species): Shape {
  return Object.entries(species).map(([category, group]) =>
    group !== null && typeof group === 'object' ? ([category, Object.keys(group)] as const) : ([category] as const),
  );
}

/** A cheap identity for a payload's shape, to find its stored id without serialising the shape. */
export function shapeKey(species: Species): string {
  let key = '';
  for (const category in species) {
    const group = species[category];
    key += category;
    if (group !== null && typeof group === 'object') {
      key += '\u0001';
      for (const allergen in group) key += allergen + '\u0002';
    }
    key += '\u0000';
  }
  return key;
}

// Token tags in the low two bits of each varint.
const TAG_INT = 0;
const TAG_FLOAT = 1;
const TAG_NULL = 2;
const MAX_INT = Math.floor(Number.MAX_SAFE_INTEGER / 4);

/** The values of a payload, in shape order, packed as bitmap + varints. */
export function encodeValues(species: Species): Uint8Array {
  const values: SpeciesLeaf[] = [];
  for (const group of Object.values(species)) {
    if (group !== null && typeof group === 'object') values.push(...Object.values(group));
    else values.push(group);
  }
  const bitmapBytes = Math.ceil(values.length / 8);
  const out: number[] = new Array(bitmapBytes).fill(0);
  values.forEach((v, i) => {
    if (v === 0 && !Object.is(v, -0)) return;
    out[i >> 3]! |= 1 << (i & 7);
    if (v === null) writeVarint(out, TAG_NULL);
    else if (Number.isInteger(v) && v > 0 && v <= MAX_INT) writeVarint(out, v * 4 + TAG_INT);
    else {
      writeVarint(out, TAG_FLOAT);
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setFloat64(0, v, true);
      out.push(...bytes);
    }
  });
  return Uint8Array.from(out);
}

/** Sets a property as data, so that a key such as `__proto__` stays an ordinary key. */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The payload rebuilt from its shape and packed values, keys in their original order. */
export function decodeSpecies(shape: Shape, blob: Uint8Array): Species {
  let slot = 0;
  let pos = 0;
  for (const e of shape) pos += e.length === 2 ? e[1].length : 1;
  pos = Math.ceil(pos / 8); // values start after the bitmap
  const next = (): SpeciesLeaf => {
    const i = slot++;
    if (!(blob[i >> 3]! & (1 << (i & 7)))) return 0;
    let token = 0;
    let scale = 1;
    for (;;) {
      const b = blob[pos++]!;
      token += (b & 0x7f) * scale;
      if (b < 0x80) break;
      scale *= 128;
    }
    const tag = token % 4;
    if (tag === TAG_NULL) return null;
    if (tag === TAG_INT) return (token - tag) / 4;
    const v = new DataView(blob.buffer, blob.byteOffset + pos, 8).getFloat64(0, true);
    pos += 8;
    return v;
  };
  const out: Species = {};
  for (const e of shape) {
    if (e.length === 2) {
      const group: Record<string, SpeciesLeaf> = {};
      for (const k of e[1]) setKey(group, k, next());
      setKey(out, e[0], group);
    } else setKey(out, e[0], next());
  }
  return out;
}

function writeVarint(out: number[], n: number): void {
  while (n >= 128) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}
