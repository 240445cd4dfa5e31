/** How a city-day's values are packed in `day_value.data`: texts and species shapes as the store's ids. */
import type { DayValues } from '../domain/day-values.js';
import type { Shape } from '../domain/species/payload.js';
import { RISK_LABELS, type Risk } from '../domain/species/risk.js';
import { build, leaves } from './codec.js';
import type { Names } from './names.js';
import type { SpeciesShapes } from './species-shapes.js';
import { Reader, Writer } from './varint-codec.js';

/** null 0, None 1 ... Very High 5. */
const riskCode = (r: Risk | null) => (r === null ? 0 : RISK_LABELS.indexOf(r) + 1);
const riskOf = (code: number): Risk | null => (code === 0 ? null : RISK_LABELS[code - 1]!);
const risks = (w: Writer, a: Risk | null, b: Risk | null, c: Risk | null) => w.varint(riskCode(a) + 6 * riskCode(b) + 36 * riskCode(c));
const readRisks = (r: Reader): [Risk | null, Risk | null, Risk | null] => {
  const n = r.varint();
  return [riskOf(n % 6), riskOf(Math.floor(n / 6) % 6), riskOf(Math.floor(n / 36))];
};

export class DayValuesPacking {
  /** What the packed ids stand for, made once: a city's list unpacks its 730 days. */
  private readonly named: PackedNames;

  constructor(
    private readonly names: Names,
    private readonly shapes: SpeciesShapes,
  ) {
    this.named = {
      source: (id) => names.source(id),
      label: (id) => names.label(id),
      shape: (id) => shapes.shape(id),
      slots: (id) => shapes.slots(id),
    };
  }

  /**
   * Packed: the hours, zone and source; the rounded means and their risks; the peaks (ragweed's
   * too) and their risks; the rounded species means as a key shape and its leaves; the graded
   * categories' means to a thousandth; then the day's other sources, if any.
   */
  pack(v: DayValues): Uint8Array {
    const w = new Writer();
    const m = v.means;
    w.varint(v.hours);
    w.varint(m.timezone === null ? 0 : this.names.id('label', m.timezone)! + 1);
    w.varint(this.names.id('source', v.source)!);
    for (const x of [m.tree, m.grass, m.weed, m.total]) w.token(x);
    risks(w, m.risk_tree, m.risk_grass, m.risk_weed);
    for (const x of [v.peaks.tree, v.peaks.grass, v.peaks.weed, v.peaks.total, v.peaks.ragweed]) w.token(x);
    risks(w, v.peakRisks.tree, v.peakRisks.grass, v.peakRisks.weed);
    if (m.species === null) w.varint(0);
    else {
      w.varint(this.shapes.idFor(m.species) + 1);
      for (const leaf of leaves(m.species)) w.token(leaf);
    }
    for (const x of [v.exact.tree, v.exact.grass, v.exact.weed, v.exact.ragweed]) w.token(x);
    // The day's other providers, when its hours come from more than one (a local day across a replaced day).
    for (const other of v.sources.slice(1)) w.varint(this.names.id('source', other)!);
    return w.done();
  }

  unpack(day: number, data: Uint8Array): DayValues {
    return unpackDayValues(day, data, this.named);
  }
}

/** The texts and species shapes packed values name by id. */
export interface PackedNames {
  source(id: number): string;
  label(id: number): string;
  shape(id: number): Shape;
  /** How many leaves a payload of the shape of an id has. */
  slots(id: number): number;
}

/** A city-day's values as `DayValuesPacking.pack` packed them. */
export function unpackDayValues(day: number, data: Uint8Array, names: PackedNames): DayValues {
  const r = new Reader(data);
  const hours = r.varint();
  const zone = r.varint();
  const source = names.source(r.varint());
  const tree = r.token();
  const grass = r.token();
  const weed = r.token();
  const total = r.token();
  const meanRisks = readRisks(r);
  const peaks = { tree: r.token(), grass: r.token(), weed: r.token(), total: r.token(), ragweed: r.token() };
  const peakRisks = readRisks(r);
  const shape = r.varint();
  let species = null;
  if (shape !== 0) {
    const keys = names.shape(shape - 1);
    const leaves = new Array<number | null>(names.slots(shape - 1));
    for (let i = 0; i < leaves.length; i++) leaves[i] = r.token();
    species = build(keys, leaves);
  }
  const exact = { tree: r.token(), grass: r.token(), weed: r.token(), ragweed: r.token() };
  const sources = [source];
  while (r.more()) sources.push(names.source(r.varint()));
  return {
    day,
    hours,
    source,
    sources,
    exact,
    means: {
      tree,
      grass,
      weed,
      total,
      species,
      risk_tree: meanRisks[0],
      risk_grass: meanRisks[1],
      risk_weed: meanRisks[2],
      timezone: zone === 0 ? null : names.label(zone - 1),
    },
    peaks,
    peakRisks: { tree: peakRisks[0], grass: peakRisks[1], weed: peakRisks[2] },
  };
}
