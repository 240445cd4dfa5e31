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
import { SpeciesColumns } from '../domain/species/leaf-arrays.js';
import { leafCount, type Shape, type Species, type SpeciesLeaf, setKey } from '../domain/species/payload.js';
import { CATEGORIES, type Category, SPECIES_KEY } from '../domain/species/risk.js';
import { TEXT_FIELDS, WEATHER_FIELDS, type WeatherValues } from '../domain/weather.js';
import { Reader, Writer } from './varint-codec.js';

/** Leaves of a payload, in shape order. */
export function leaves(species: Species): SpeciesLeaf[] {
  return leavesInto(species, []);
}

/** Appends the leaves of a payload, in shape order, to `out`. */
function leavesInto(species: Species, out: SpeciesLeaf[]): SpeciesLeaf[] {
  // for...in, in the order Object.values gives: a day is packed and unpacked leaf by leaf.
  for (const category in species) {
    const group = species[category]!;
    if (group !== null && typeof group === 'object') for (const k in group) out.push(group[k]!);
    else out.push(group);
  }
  return out;
}

/** The sum of a category's species numbers, left to right; undefined when it has none. */
export function speciesSum(category: Category, species: Species | null): number | undefined {
  const group = species?.[SPECIES_KEY[category]];
  if (group === null || typeof group !== 'object') return undefined;
  let sum: number | undefined;
  for (const k in group) {
    const v = group[k];
    if (typeof v === 'number') sum = (sum ?? 0) + v;
  }
  return sum;
}

/** How many flags of a bitmap are set: a day's hours, those with species, those derived. */
export function setFlags(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

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
 * the id of a payload's key shape, `columns` their species leaves when the caller has read them.
 */
export function encodeDay(
  day: number,
  hours: readonly PollenHour[],
  shapeId: (s: Species) => number,
  columns: SpeciesColumns | null = SpeciesColumns.of(hours),
): PackedDay {
  let mask = 0;
  let last = day * 24 - 1;
  for (const h of hours) {
    if (h.hour <= last || h.hour >= day * 24 + 24) throw new RangeError(`hour ${h.hour} is not within day ${day} in ascending order`);
    mask |= 1 << (h.hour - day * 24);
    last = h.hour;
  }
  if (hours.length === 0) return { mask: 0, data: null };
  const w = new Writer();
  const n = hours.length;
  let has = 0;
  for (let i = 0; i < n; i++) if (hours[i]!.species !== null) has |= 1 << i;
  if (has === 0) w.varint(NO_SPECIES);
  else if (columns !== null) {
    // One key shape: hour after hour with species, its leaves in shape order, as bitmaps and tokens.
    w.varint(ONE_SHAPE);
    w.varint(shapeId(columns.first));
    w.mask(has, n);
    const [m, slots] = [columns.rows, columns.slots];
    const nonZero = new Array<boolean>(slots).fill(false);
    for (let s = 0; s < slots; s++) for (let c = 0; c < m && !nonZero[s]; c++) nonZero[s] = !isZero(columns.leaf(c, s));
    w.bits(nonZero);
    for (let s = 0; s < slots; s++) {
      if (!nonZero[s]) continue;
      let where = 0;
      for (let c = 0; c < m; c++) if (!isZero(columns.leaf(c, s))) where |= 1 << c;
      w.mask(where, m);
      for (let c = 0; c < m; c++) if (where & (1 << c)) w.token(columns.leaf(c, s));
    }
  } else {
    // Payloads of several shapes (SpeciesColumns reads one shape only).
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
    let derived = 0;
    const written: Array<number | null> = [];
    for (let i = 0, row = 0; i < n; i++) {
      const h = hours[i]!;
      const sum = h.species === null ? undefined : columns !== null ? columns.sum(row++, c) : speciesSum(c, h.species);
      if (h[c] !== null && Object.is(sum, h[c])) derived |= 1 << i;
      else written.push(h[c]);
    }
    w.mask(derived, n);
    w.column(written);
  }
  let totalDerived = 0;
  const totals: number[] = [];
  for (let i = 0; i < n; i++) {
    const h = hours[i]!;
    if (Object.is(derivedTotal(h), h.total)) totalDerived |= 1 << i;
    else totals.push(h.total);
  }
  w.mask(totalDerived, n);
  w.column(totals);
  return { mask, data: w.done() };
}

/** Unpacks one city-day: its hours, ascending, exactly as they were packed. */
export function decodeDay(day: number, packed: PackedDay, shape: (id: number) => Shape): PollenHour[] {
  const n = setFlags(packed.mask & 0xffffff);
  if (n === 0) return [];
  const r = new Reader(packed.data!);
  const species: Array<Species | null> = new Array<Species | null>(n).fill(null);
  const mode = r.varint();
  if (mode === ONE_SHAPE) {
    const keys = shape(r.varint());
    const has = r.mask(n);
    const m = setFlags(has);
    const slots = leafCount(keys);
    // Column c's leaves at c * slots: one array, not one per hour.
    const values = new Array<SpeciesLeaf>(m * slots).fill(0);
    const nonZero = r.bits(slots);
    for (let s = 0; s < slots; s++) {
      if (!nonZero[s]) continue;
      const where = r.mask(m);
      for (let c = 0; c < m; c++) if (where & (1 << c)) values[c * slots + s] = r.token();
    }
    let next = 0;
    for (let i = 0; i < n; i++) if (has & (1 << i)) species[i] = build(keys, values, slots * next++);
  } else if (mode === MIXED) {
    for (let i = 0; i < n; i++) {
      const id = r.varint();
      if (id === 0) continue;
      const keys = shape(id - 1);
      const nonZero = r.bits(leafCount(keys));
      species[i] = build(
        keys,
        nonZero.map((nz) => (nz ? r.token() : 0)),
      );
    }
  } else if (mode !== NO_SPECIES) throw new RangeError(`unknown species mode ${mode}`);

  const values = CATEGORIES.map((c) => {
    const derived = r.mask(n);
    const written = r.column(n - setFlags(derived));
    let next = 0;
    return Array.from({ length: n }, (_, i) => (derived & (1 << i) ? speciesSum(c, species[i]!)! : written[next++]!));
  });
  const totalDerived = r.mask(n);
  const totals = r.column(n - setFlags(totalDerived));
  const hours: PollenHour[] = new Array<PollenHour>(n);
  let [i, next] = [0, 0];
  for (let h = 0; h < 24; h++) {
    if (!(packed.mask & (1 << h))) continue;
    const hour = { hour: day * 24 + h, tree: values[0]![i]!, grass: values[1]![i]!, weed: values[2]![i]!, total: 0, species: species[i]! };
    hour.total = totalDerived & (1 << i) ? derivedTotal(hour) : (totals[next++] as number);
    hours[i++] = hour;
  }
  if (!r.done) throw new RangeError('packed day has trailing bytes');
  return hours;
}

/** A payload rebuilt from its shape and its leaves in shape order (from `values[from]`). */
export function build(keys: Shape, values: readonly SpeciesLeaf[], from = 0): Species {
  let i = from;
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
