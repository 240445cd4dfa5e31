/**
 * "Your plants": the plants a person reacts to, picked from those the city's data holds and kept
 * in this browser (the same plants in every city). The headline, the 7-day strip, the season and
 * the alert links then follow them (day-answers.ts). A plant's level is its highest hourly count
 * graded on its category's range: the counting network publishes ranges for tree, grass and weed
 * pollen, not for single plants.
 */
import { dayString, HOUR_MS } from '../../domain/dates.js';
import { dayOfHour } from '../../domain/day-cuts.js';
import { type Allergen, allergensOf } from '../../domain/species/allergens.js';
import { type Shape, type Species, shapeKey, shapeOf } from '../../domain/species/payload.js';
import { CATEGORIES } from '../../domain/species/risk.js';
import { capitalized } from '../../domain/words.js';
import { h } from './dom.js';

const KEPT = 'pollen-allergens';

/** The slugs of the allergens this browser keeps. */
export function keptAllergens(): string[] {
  try {
    return (localStorage.getItem(KEPT) ?? '').split(',').filter((s) => s !== '');
  } catch {
    return [];
  }
}

function keepAllergens(slugs: readonly string[]): void {
  try {
    localStorage.setItem(KEPT, slugs.join(','));
  } catch {
    // Storage refused (a private window): the choice holds for this visit.
  }
}

/** The allergens some rows' species payloads hold. */
export function allergensIn(rows: Iterable<{ species: Species | null }>): Allergen[] {
  const shapes = new Map<string, Shape>();
  for (const r of rows) if (r.species) shapes.set(shapeKey(r.species), shapeOf(r.species));
  return allergensOf(shapes.values());
}

/** An hour with its species, as observed and forecast rows both have them. */
export interface SpeciesHour {
  ts: string;
  species: Species | null;
}

/** The hours of a local date, in the city's zone. */
export const hoursOn = (hours: readonly SpeciesHour[], zone: string, date: string): SpeciesHour[] =>
  hours.filter((r) => dayString(dayOfHour('local', zone, Date.parse(r.ts) / HOUR_MS)) === date);

/**
 * The picker: a checkbox per allergen, by category, in a disclosure that names the chosen ones. A
 * change gives `onChange` the chosen allergens, in the data's order, once they are kept; the page
 * redraws what follows them, and the box ticked stays where it was on the screen, with its focus.
 */
export function allergenSection(held: readonly Allergen[], onChange: (chosen: Allergen[]) => void): HTMLElement {
  const section = h('section', undefined, { class: 'allergens', 'aria-labelledby': 'allergens-title' });
  section.append(h('h3', 'Your plants', { id: 'allergens-title' }));
  if (held.length === 0) {
    section.append(h('p', "This city's data names no single plants, only tree, grass and weed pollen."));
    return section;
  }
  const summary = h('summary');
  const name = (chosen: readonly Allergen[]) => {
    summary.textContent = chosen.length === 0 ? 'Choose the plants you react to' : `${chosen.map((a) => a.name).join(', ')} (change)`;
  };
  name(chosenOf(held));
  section.append(
    picker(held, chosenOf(held), summary, (chosen) => {
      name(chosen);
      onChange(chosen);
    }),
  );
  return section;
}

/** The allergens of `held` this browser keeps, in the data's order. */
export const chosenOf = (held: readonly Allergen[]): Allergen[] => {
  const kept = keptAllergens();
  return held.filter((a) => kept.includes(a.slug));
};

function picker(
  held: readonly Allergen[],
  chosen: readonly Allergen[],
  summary: HTMLElement,
  onChange: (chosen: Allergen[]) => void,
): HTMLDetailsElement {
  const details = h('details', undefined, { class: 'allergen-picker' });
  details.append(summary);
  const boxes: HTMLInputElement[] = [];
  for (const category of CATEGORIES) {
    const group = held.filter((a) => a.category === category);
    if (group.length === 0) continue;
    const fieldset = h('fieldset');
    fieldset.append(h('legend', capitalized(category)));
    for (const a of group) {
      const label = h('label');
      const box = h('input', undefined, { type: 'checkbox', value: a.slug, name: 'allergen' });
      box.checked = chosen.includes(a);
      boxes.push(box);
      label.append(box, ` ${a.name}`);
      fieldset.append(label);
    }
    details.append(fieldset);
  }
  details.append(h('p', 'Kept in this browser for every city. The alert subscriptions below follow the plants chosen.', { class: 'fine' }));
  details.addEventListener('change', (event) => {
    const slugs = boxes.filter((b) => b.checked).map((b) => b.value);
    // Plants this city's data does not name stay kept, for the cities whose data does.
    keepAllergens([...keptAllergens().filter((k) => !held.some((a) => a.slug === k)), ...slugs]);
    // What is redrawn above the box may change height: scroll by as much, so the box does not move.
    const box = event.target as HTMLElement;
    const before = box.getBoundingClientRect().top;
    onChange(held.filter((a) => slugs.includes(a.slug)));
    window.scrollBy(0, box.getBoundingClientRect().top - before);
  });
  return details;
}
