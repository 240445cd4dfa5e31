/**
 * The packed forms the store keeps, lossless for every value a provider can send:
 *
 * - a value is a token (store/varint-codec.ts);
 * - a pollen city-day is one blob, its hours column-wise: which hours have species, and for each
 *   species slot of the day's key shape the hours where it is not 0 and their values; then tree,
 *   grass and weed, each written only where it differs from the sum of its category's species
 *   (so usually not at all), and total only where it differs from tree + grass + weed; a column
 *   whose written values are all the same is written once;
 * - a weather day is a bitmap of the fields present and their tokens, texts as label ids.
 */
import type { PollenHour } from '../domain/hours.js';
import { type Category, SPECIES_KEY } from '../domain/risk.js';
import type { Shape, Species, SpeciesLeaf } from '../domain/species.js';
import { TEXT_FIELDS, WEATHER_FIELDS, type WeatherValues } from '../domain/weather.js';
import { Reader, Writer } from './varint-codec.js';

/** Leaves of a payload, in shape order. */
export function leaves(species: Species): SpeciesLeaf[] {
  const out: SpeciesLeaf[] = [];
  for (const group of Object.values(species)) {
    if (group !== null && typeof group === 'object') out.push(...Object.values(group));
    else out.push(group);
  }
  return out;
}

/** The sum of a category's species numbers, left to right; undefined when it has none. */
export function speciesSum(category: Category, species: Species | null): number | undefined {
  const group = species?.[SPECIES_KEY[category]];
  if (group === null || typeof group !== 'object') return undefined;
  let sum: number | undefined;
  for (const v of Object.values(group)) if (typeof v === 'number') sum = (sum ?? 0) + v;
  return sum;
}

const CATEGORIES: readonly Category[] = ['tree', 'grass', 'weed'];
const derivedTotal = (h: Pick<PollenHour, 'tree' | 'grass' | 'weed'>) => (h.tree ?? 0) + (h.grass ?? 0) + (h.weed ?? 0);
const isZero = (v: SpeciesLeaf) => v === 0 && !Object.is(v, -0);

/** A day's hours as stored: the mask of hours present (bit h for hour h of the day) and the blob. */
export interface PackedDay {
  mask: number;
  data: Uint8Array | null;
}

/** Species payload modes of a day. */
const NO_SPECIES = 0;
const ONE_SHAPE = 1;
const MIXED = 2;

/**
 * Packs one city-day. `hours` are the day's hours in ascending order (at most 24), `shapeId` gives
 * the id of a payload's key shape, `shapeOf` its keys.
 */
export function encodeDay(day: number, hours: readonly PollenHour[], shapeId: (s: Species) => number): PackedDay {
  let mask = 0;
  let last = day * 24 - 1;
  for (const h of hours) {
    if (h.hour <= last || h.hour >= day * 24 + 24) throw new RangeError(`hour ${h.hour} is not within day ${day} in ascending order`);
    mask |= 1 << (h.hour - day * 24);
    last = h.hour;
  }
  if (hours.length === 0) return { mask: 0, data: null };
  const w = new Writer();
  const withSpecies = hours.filter((h) => h.species !== null);
  const ids = withSpecies.map((h) => shapeId(h.species!));
  if (withSpecies.length === 0) w.varint(NO_SPECIES);
  else if (ids.every((id) => id === ids[0])) {
    w.varint(ONE_SHAPE);
    w.varint(ids[0]!);
    w.bits(hours.map((h) => h.species !== null));
    const columns = withSpecies.map((h) => leaves(h.species!));
    const slots = columns[0]!.length;
    const nonZero = Array.from({ length: slots }, (_, s) => columns.some((c) => !isZero(c[s]!)));
    w.bits(nonZero);
    for (let s = 0; s < slots; s++) {
      if (!nonZero[s]) continue;
      w.bits(columns.map((c) => !isZero(c[s]!)));
      for (const c of columns) if (!isZero(c[s]!)) w.token(c[s]!);
    }
  } else {
    w.varint(MIXED);
    for (const h of hours) {
      if (h.species === null) {
        w.varint(0);
        continue;
      }
      w.varint(shapeId(h.species) + 1);
      const values = leaves(h.species);
      w.bits(values.map((v) => !isZero(v)));
      for (const v of values) if (!isZero(v)) w.token(v);
    }
  }
  for (const c of CATEGORIES) {
    const derived = hours.map((h) => h[c] !== null && Object.is(speciesSum(c, h.species), h[c]));
    w.bits(derived);
    w.column(hours.filter((_, i) => !derived[i]).map((h) => h[c]));
  }
  const totalDerived = hours.map((h) => Object.is(derivedTotal(h), h.total));
  w.bits(totalDerived);
  w.column(hours.filter((_, i) => !totalDerived[i]).map((h) => h.total));
  return { mask, data: w.done() };
}

/** Unpacks one city-day: its hours, ascending, exactly as they were packed. */
export function decodeDay(day: number, packed: PackedDay, shape: (id: number) => Shape): PollenHour[] {
  const hourNumbers: number[] = [];
  for (let h = 0; h < 24; h++) if (packed.mask & (1 << h)) hourNumbers.push(day * 24 + h);
  if (hourNumbers.length === 0) return [];
  const r = new Reader(packed.data!);
  const n = hourNumbers.length;
  const species: Array<Species | null> = new Array<Species | null>(n).fill(null);
  const mode = r.varint();
  if (mode === ONE_SHAPE) {
    const keys = shape(r.varint());
    const has = r.bits(n);
    const m = has.filter(Boolean).length;
    const slots = keys.reduce((k, e) => k + (e.length === 2 ? e[1].length : 1), 0);
    const columns: SpeciesLeaf[][] = Array.from({ length: m }, () => new Array<SpeciesLeaf>(slots).fill(0));
    const nonZero = r.bits(slots);
    for (let s = 0; s < slots; s++) {
      if (!nonZero[s]) continue;
      const where = r.bits(m);
      for (let i = 0; i < m; i++) if (where[i]) columns[i]![s] = r.token();
    }
    let next = 0;
    for (let i = 0; i < n; i++) if (has[i]) species[i] = build(keys, columns[next++]!);
  } else if (mode === MIXED) {
    for (let i = 0; i < n; i++) {
      const id = r.varint();
      if (id === 0) continue;
      const keys = shape(id - 1);
      const slots = keys.reduce((k, e) => k + (e.length === 2 ? e[1].length : 1), 0);
      const nonZero = r.bits(slots);
      species[i] = build(
        keys,
        nonZero.map((nz) => (nz ? r.token() : 0)),
      );
    }
  } else if (mode !== NO_SPECIES) throw new RangeError(`unknown species mode ${mode}`);

  const values: Record<Category, Array<number | null>> = { tree: [], grass: [], weed: [] };
  for (const c of CATEGORIES) {
    const derived = r.bits(n);
    const written = r.column(derived.filter((d) => !d).length);
    for (let i = 0; i < n; i++) values[c].push(derived[i] ? speciesSum(c, species[i]!)! : written.shift()!);
  }
  const totalDerived = r.bits(n);
  const totals = r.column(totalDerived.filter((d) => !d).length);
  const hours = hourNumbers.map((hour, i): PollenHour => {
    const h = { hour, tree: values.tree[i]!, grass: values.grass[i]!, weed: values.weed[i]!, total: 0, species: species[i]! };
    h.total = totalDerived[i] ? derivedTotal(h) : (totals.shift() as number);
    return h;
  });
  if (!r.done) throw new RangeError('packed day has trailing bytes');
  return hours;
}

/** Sets a property as data, so that a key such as `__proto__` stays an ordinary key. */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A payload rebuilt from its shape and its leaves in shape order. */
export function build(keys: Shape, values: readonly SpeciesLeaf[]): Species {
  let i = 0;
  const out: Species = {};
  for (const e of keys) {
    if (e.length === 2) {
      const group: Record<string, SpeciesLeaf> = {};
      for (const k of e[1]) setKey(group, k, values[i++]!);
      setKey(out, e[0], group);
    } else setKey(out, e[0], values[i++]!);
  }
  return out;
}

/** Packs a weather day: the fields present, then each one's token (texts as label ids). */
export function encodeWeather(values: WeatherValues, labelId: (text: string) => number): Uint8Array {
  const w = new Writer();
  const present = WEATHER_FIELDS.map((f) => values[f] !== undefined);
  w.bits(present);
  for (const f of WEATHER_FIELDS) {
    const v = values[f];
    if (v === undefined) continue;
    if (TEXT_FIELDS.has(f)) w.varint(labelId(v as string));
    else w.token(v as number);
  }
  return w.done();
}

/** Unpacks a weather day. */
export function decodeWeather(data: Uint8Array, label: (id: number) => string): WeatherValues {
  const r = new Reader(data);
  const present = r.bits(WEATHER_FIELDS.length);
  const out: Record<string, string | number> = {};
  WEATHER_FIELDS.forEach((f, i) => {
    if (!present[i]) return;
    out[f] = TEXT_FIELDS.has(f) ? label(r.varint()) : (r.token() as number);
  });
  return out as WeatherValues;
}
