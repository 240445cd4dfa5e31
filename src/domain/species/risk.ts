/** NAB risk grading (docs/decisions.md, "Risk levels"). */
import type { Species } from './payload.js';

export const RISK_LABELS = ['None', 'Low', 'Moderate', 'High', 'Very High'] as const;
export type Risk = (typeof RISK_LABELS)[number];
/** How many NAB levels there are: the side of a contingency table, the length of a day's level counts. */
export const K = RISK_LABELS.length;

/** The pollen categories a provider reports, in the order answers list them. */
export const CATEGORIES = ['tree', 'grass', 'weed'] as const;
export type Category = (typeof CATEGORIES)[number];
/** The categories graded by NAB's ranges, in the order answers list them: ragweed is the Weed.Ragweed allergen. */
export const GRADED = [...CATEGORIES, 'ragweed'] as const;
export type Graded = (typeof GRADED)[number];

/** What an alert may watch: every graded category. */
export const ALERT_CATEGORIES: readonly Graded[] = GRADED;
export type AlertLevel = Exclude<Risk, 'None'>;
/** The levels an alert can be set at: every label but None (the page offers the same). */
export const ALERT_LEVELS: readonly AlertLevel[] = RISK_LABELS.filter((r): r is AlertLevel => r !== 'None');
export const DEFAULT_LEVEL: AlertLevel = 'High';

/** NAB thresholds [t1, t2, t3] in grains/m³; a value equal to a threshold takes the higher label. */
export const THRESHOLDS: Readonly<Record<Graded, readonly [number, number, number]>> = {
  tree: [15, 90, 1500],
  grass: [5, 20, 200],
  weed: [10, 50, 500],
  ragweed: [10, 50, 500],
};

/** The key of each category in a provider's species object. */
export const SPECIES_KEY: Readonly<Record<Category, string>> = { tree: 'Tree', grass: 'Grass', weed: 'Weed' };

/** NAB label of a concentration: null stays null, 0 is None, thresholds belong to the higher label. */
export function grade(category: Graded, value: number | null): Risk | null {
  return value === null ? null : RISK_LABELS[levelIndex(category, value)]!;
}

/** The index of each label in RISK_LABELS, by name. */
export const LEVEL_INDEX = Object.fromEntries(RISK_LABELS.map((level, i) => [level, i])) as Readonly<Record<Risk, number>>;

/** The index in RISK_LABELS of a concentration's NAB label (grade's, as a number: the outlook moves members by levels). */
export function levelIndex(category: Graded, value: number): number {
  if (value === 0) return 0;
  const [t1, t2, t3] = THRESHOLDS[category];
  return value < t1 ? 1 : value < t2 ? 2 : value < t3 ? 3 : 4;
}

/** `sev_*` integers on the map: null and None are 0, Very High is 4. */
export function severity(risk: Risk | null): number {
  return risk === null ? 0 : RISK_LABELS.indexOf(risk);
}

/**
 * The value NAB grades for a category: its highest single allergen when the species object has
 * numbers for that category, otherwise the category value itself.
 */
export function gradedValue(category: Category, value: number | null, species: Species | null): number | null {
  const group = species?.[SPECIES_KEY[category]];
  if (group !== null && typeof group === 'object') {
    let max: number | null = null;
    // for-in, not Object.values: renders grade a few million hours, and the array was most of the cost.
    for (const k in group) {
      const v = group[k];
      if (typeof v === 'number' && (max === null || v > max)) max = v;
    }
    if (max !== null) return max;
  }
  return value;
}

/** The label of a category in one row, by the highest-allergen rule. */
export function categoryRisk(category: Category, value: number | null, species: Species | null): Risk | null {
  return grade(category, gradedValue(category, value, species));
}
