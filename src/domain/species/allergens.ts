/**
 * Allergens: the single plants (or plant groups) a provider counts inside a category, such as
 * Ambee's Tree.Oak or Weed.Ragweed. People react to plants, so alerts and the page can watch
 * them; NAB publishes ranges for categories only, so an allergen is graded on its category's
 * range (the highest-allergen rule of docs/decisions.md, "Risk levels", read for one allergen).
 */
import { slugify } from '../cities.js';
import type { Shape, Species } from './payload.js';
import { CATEGORIES, type Category, type Graded, grade, type Risk, SPECIES_KEY } from './risk.js';

/** An allergen the data holds: its category (whose NAB range grades it), its provider name and its slug in URLs. */
export interface Allergen {
  category: Category;
  name: string;
  /** `oak`, `cypress-juniper-cedar`: what `species=` takes. */
  slug: string;
}

const CATEGORY_OF_KEY = new Map<string, Category>(CATEGORIES.map((c) => [SPECIES_KEY[c], c]));

/**
 * The allergens of payloads of these shapes, each once, in category order (tree, grass, weed) and
 * then as the shapes first name them. Plain-number groups (`Others`) are not allergens.
 */
export function allergensOf(shapes: Iterable<Shape>): Allergen[] {
  const found = new Map<string, Allergen>();
  for (const shape of shapes) {
    for (const [key, names] of shape) {
      const category = CATEGORY_OF_KEY.get(key);
      if (category === undefined || names === undefined) continue;
      for (const name of names) {
        const slug = slugify(name);
        if (slug !== '' && !found.has(slug)) found.set(slug, { category, name, slug });
      }
    }
  }
  return [...found.values()].sort((a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category));
}

/** An allergen's highest hourly value over some hours (grains/m³), null when no hour has one. */
export function allergenPeak(allergen: Allergen, hours: Iterable<{ species: Species | null }>): number | null {
  let peak: number | null = null;
  for (const h of hours) {
    const group = h.species?.[SPECIES_KEY[allergen.category]];
    if (group === null || typeof group !== 'object') continue;
    const v = group[allergen.name];
    if (typeof v === 'number' && (peak === null || v > peak)) peak = v;
  }
  return peak;
}

/** An allergen's NAB level at a value: its category's range, since NAB grades categories, not single plants. */
export const allergenRisk = (allergen: Allergen, value: number | null): Risk | null => grade(allergen.category, value);

/** The words that say how an allergen is graded, wherever its level is shown: "on the NAB tree range". */
export const onRange = (category: Category): string => `on the NAB ${category} range`;

/**
 * The category whose outlook (and map column) speaks for an allergen: its own, except Weed.Ragweed,
 * which is graded and forecast as `ragweed` already.
 */
export const outlookCategory = (allergen: Allergen): Graded =>
  allergen.category === 'weed' && allergen.slug === 'ragweed' ? 'ragweed' : allergen.category;
