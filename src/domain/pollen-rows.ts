/** Hourly rows as the API shows them, and their daily aggregation (docs/decisions.md, "Daily rows"). */
import { isoHour } from './dates.js';
import type { PollenHour, StoredHour } from './hours.js';
import type { DailyPollen, HourlyPollen } from './schemas.js';
import { meansByShape, SpeciesColumns } from './species/leaf-arrays.js';
import { roundOrNull, type Shape, type Species } from './species/payload.js';
import { type Category, categoryRisk, type Graded, gradedValue, levelIndex, RISK_LABELS, type Risk } from './species/risk.js';

export type { DailyPollen, HourlyPollen } from './schemas.js';

/** The daily mean values and their risks, shared by `/api/pollen?city=` and `aggregate=day`. */
export type DailyMeans = Omit<DailyPollen, 'date' | 'hours' | `peak_${string}`>;

/** What daily aggregation reads of an hour (a forecast hour's total may be missing). */
export type DayHour = Pick<StoredHour, 'tree' | 'grass' | 'weed' | 'species' | 'timezone'> & { total: number | null };

/** One hour, with its zone, as an HourlyPollen row. */
export function hourlyRow(h: PollenHour & { timezone: string | null }): HourlyPollen {
  return {
    ts: isoHour(h.hour),
    tree: h.tree,
    grass: h.grass,
    weed: h.weed,
    total: h.total,
    species: h.species,
    risk_tree: categoryRisk('tree', h.tree, h.species),
    risk_grass: categoryRisk('grass', h.grass, h.species),
    risk_weed: categoryRisk('weed', h.weed, h.species),
    timezone: h.timezone,
  };
}

/** Daily maxima of one city-day. */
export interface DayMaxima {
  tree: number | null;
  grass: number | null;
  weed: number | null;
  ragweed: number | null;
}

/**
 * Each graded category's mean to a thousandth of a grain per cubic metre (the daily rows round
 * means to whole grains): what forecast verification compares, where rounding would make a
 * forecast of 37.4 for an observed 36.6 a perfect one.
 */
export type ExactMeans = Record<Graded, number | null>;

/** A mean to three decimals (no signed zero); null stays null. */
export const thousandths = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000) / 1000 + 0);

/** What one pass over a set of hours gives: their means, their hourly maxima, and each category's worst hourly risk. */
export interface HoursSummary {
  means: DailyMeans;
  exact: ExactMeans;
  maxima: DayMaxima & { total: number | null };
  peakRisks: Record<Category, Risk | null>;
}

/** A mean and a maximum of numbers taken in order, nulls skipped: null when there are none. */
class Moments {
  private sum = 0;
  private n = 0;
  max: number | null = null;

  add(v: number | null): void {
    if (v === null) return;
    this.sum += v;
    this.n++;
    // As Math.max has it: +0 is above -0 (a provider may send -0), so the order the zeros come in does not matter.
    if (this.max === null || v > this.max || (v === 0 && Object.is(this.max, -0))) this.max = v;
  }

  mean(): number | null {
    return this.n === 0 ? null : this.sum / this.n;
  }
}

/** The level index (RISK_LABELS) of a graded value; -1 for none. */
const levelOf = (category: Category, graded: number | null): number => (graded === null ? -1 : levelIndex(category, graded));

/** The level index (RISK_LABELS) of a category in one hour, by the highest-allergen rule; -1 for none. */
const hourLevel = (category: Category, value: number | null, species: Species | null): number =>
  levelOf(category, gradedValue(category, value, species));

/** The Weed.Ragweed allergen of an hour, when it is a number. */
const ragweedOf = (species: Species | null): number | null => {
  const weed = species?.Weed;
  const v = weed !== null && typeof weed === 'object' ? weed.Ragweed : undefined;
  return typeof v === 'number' ? v : null;
};

/** A sum of the numbers taken, and their count. */
type Sum = { sum: number; n: number };
const addTo = (acc: Sum, v: unknown) => {
  if (typeof v !== 'number') return;
  acc.sum += v;
  acc.n++;
};

/**
 * Per-allergen means over several payloads, unrounded. Keys keep their first-seen order; a leaf
 * is averaged over the hours that report a number for it; a category seen both as a number and
 * as an object keeps its first form.
 */
class SpeciesMeans {
  private readonly groups = new Map<string, Sum | Map<string, Sum>>();
  private any = false;
  /**
   * The last payload added the long way, category by category: its keys in order, and the sums
   * its values went to. A payload with the same keys in the same order (a provider's hours
   * nearly always are) adds to them without a lookup. A category a payload skipped (seen before in
   * another form) is not in its layout, so no payload holding it matches.
   */
  private layout: Array<{ category: string; keys: string[] | null }> | null = null;
  private sums: Sum[] = [];
  private readonly values: unknown[] = [];

  add(s: Species | null): void {
    if (s === null) return;
    this.any = true;
    if (!this.addLikeLast(s)) this.addLongWay(s);
  }

  /** Adds a payload whose keys are those of the layout; false, adding nothing, for any other. */
  private addLikeLast(s: Species): boolean {
    const layout = this.layout;
    if (layout === null) return false;
    const values = this.values;
    let [c, j] = [0, 0];
    for (const category in s) {
      const entry = layout[c++];
      if (entry === undefined || entry.category !== category) return false;
      const group = s[category];
      if (group !== null && typeof group === 'object') {
        const keys = entry.keys;
        if (keys === null) return false;
        let k = 0;
        for (const key in group) {
          if (keys[k++] !== key) return false;
          values[j++] = group[key];
        }
        if (k !== keys.length) return false;
      } else {
        if (entry.keys !== null) return false;
        values[j++] = group;
      }
    }
    if (c !== layout.length) return false;
    for (let i = 0; i < j; i++) addTo(this.sums[i]!, values[i]);
    return true;
  }

  private addLongWay(s: Species): void {
    const layout: Array<{ category: string; keys: string[] | null }> = [];
    const sums: Sum[] = [];
    // for...in, in the keys' order as Object.entries gives them, without an array per hour and group.
    for (const category in s) {
      const group = s[category];
      const isObject = group !== null && typeof group === 'object';
      let acc = this.groups.get(category);
      if (acc === undefined) this.groups.set(category, (acc = isObject ? new Map() : { sum: 0, n: 0 }));
      if (acc instanceof Map) {
        if (!isObject) continue;
        const keys: string[] = [];
        for (const k in group) {
          let leaf = acc.get(k);
          if (leaf === undefined) acc.set(k, (leaf = { sum: 0, n: 0 }));
          addTo(leaf, group[k]);
          keys.push(k);
          sums.push(leaf);
        }
        layout.push({ category, keys });
      } else if (!isObject) {
        addTo(acc, group);
        layout.push({ category, keys: null });
        sums.push(acc);
      }
    }
    this.layout = layout;
    this.sums = sums;
  }

  /** The means (meansByShape), in the keys' first-seen order; null without payloads. */
  means(): { exact: Species; rounded: Species } | null {
    if (!this.any) return null;
    const shape: Array<Shape[number]> = [];
    const sums: Sum[] = [];
    for (const [category, acc] of this.groups) {
      if (acc instanceof Map) {
        shape.push([category, [...acc.keys()]]);
        sums.push(...acc.values());
      } else {
        shape.push([category]);
        sums.push(acc);
      }
    }
    return meansByShape(shape, (slot) => {
      const a = sums[slot]!;
      return a.n === 0 ? null : a.sum / a.n;
    });
  }
}

/** A risk level's label (-1: none). */
const labelOf = (level: number): Risk | null => (level < 0 ? null : RISK_LABELS[level]!);

/**
 * Means of a set of hours (rounded values and species, risks graded on the unrounded means, the
 * first zone reported), the hourly maxima of each category, of the total and of the Ragweed
 * allergen, and each category's worst hourly risk, in one pass: the ingest makes the values of
 * every city-day it writes, in each cut, from these. `columns` are the hours' species leaves
 * (SpeciesColumns.of(hours)), when the caller has read them already.
 */
export function summarize(hours: readonly DayHour[], columns: SpeciesColumns | null = SpeciesColumns.of(hours)): HoursSummary {
  const [tree, grass, weed, total, ragweed] = [new Moments(), new Moments(), new Moments(), new Moments(), new Moments()];
  const species = columns === null ? new SpeciesMeans() : null;
  let [peakTree, peakGrass, peakWeed] = [-1, -1, -1];
  let timezone: string | null = null;
  let row = 0;
  for (const h of hours) {
    const s = h.species;
    tree.add(h.tree);
    grass.add(h.grass);
    weed.add(h.weed);
    total.add(h.total);
    if (columns !== null && s !== null) {
      ragweed.add(columns.ragweed(row));
      peakTree = Math.max(peakTree, levelOf('tree', columns.graded(row, 'tree', h.tree)));
      peakGrass = Math.max(peakGrass, levelOf('grass', columns.graded(row, 'grass', h.grass)));
      peakWeed = Math.max(peakWeed, levelOf('weed', columns.graded(row, 'weed', h.weed)));
      row++;
    } else {
      ragweed.add(ragweedOf(s));
      species?.add(s);
      peakTree = Math.max(peakTree, hourLevel('tree', h.tree, s));
      peakGrass = Math.max(peakGrass, hourLevel('grass', h.grass, s));
      peakWeed = Math.max(peakWeed, hourLevel('weed', h.weed, s));
    }
    if (timezone === null) timezone = h.timezone;
  }
  const m = { tree: tree.mean(), grass: grass.mean(), weed: weed.mean() };
  const means = columns !== null ? columns.means() : species!.means();
  const exact = means?.exact ?? null;
  return {
    exact: { tree: thousandths(m.tree), grass: thousandths(m.grass), weed: thousandths(m.weed), ragweed: thousandths(ragweed.mean()) },
    means: {
      tree: roundOrNull(m.tree),
      grass: roundOrNull(m.grass),
      weed: roundOrNull(m.weed),
      total: roundOrNull(total.mean()),
      species: means?.rounded ?? null,
      risk_tree: categoryRisk('tree', m.tree, exact),
      risk_grass: categoryRisk('grass', m.grass, exact),
      risk_weed: categoryRisk('weed', m.weed, exact),
      timezone,
    },
    maxima: { tree: tree.max, grass: grass.max, weed: weed.max, total: total.max, ragweed: ragweed.max },
    peakRisks: { tree: labelOf(peakTree), grass: labelOf(peakGrass), weed: labelOf(peakWeed) },
  };
}

/** Means of a set of hours: rounded values and species, risks graded on the unrounded means. */
export const dailyMeans = (hours: readonly DayHour[]): DailyMeans => summarize(hours).means;
