/**
 * "My allergens": the plants a person reacts to, picked from those the city's data holds and kept
 * in this browser (the same plants in every city). The panel then leads with their levels today
 * and tomorrow, puts their categories first in the 7-day strip, and its alert links watch them
 * (`/api/alerts?species=`). A plant's level is its highest hourly count on its category's NAB
 * range: NAB publishes ranges for tree, grass and weed pollen, not for single plants, and the page
 * says so wherever it shows one.
 */
import { dayString, HOUR_MS } from '../../domain/dates.js';
import { capitalized, listed } from '../../domain/words.js';
import { dayOfHour } from '../../domain/days.js';
import { type Allergen, allergenPeak, allergenRisk, allergensOf, onRange } from '../../domain/species/allergens.js';
import { type Shape, shapeKey, shapeOf, type Species } from '../../domain/species/payload.js';
import { h } from './dom.js';
import { badge } from './risk.js';

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

/** A day the panel shows a plant's level on: its name ("Today"), its local date and its hours. */
export interface AllergenDay {
  label: string;
  date: string;
  hours: readonly SpeciesHour[];
}

/** The hours of a local date, in the city's zone. */
export const hoursOn = (hours: readonly SpeciesHour[], zone: string, date: string): SpeciesHour[] =>
  hours.filter((r) => dayString(dayOfHour('local', zone, Date.parse(r.ts) / HOUR_MS)) === date);

/**
 * The picker (a checkbox per allergen, by category, in a disclosure that names the chosen ones)
 * after, when some are chosen, their levels on each day: each plant's highest hourly count, graded
 * on its category's range. A change redraws the levels in place (the picker keeps its focus) and
 * gives `onChange` the chosen allergens, in the data's order, once they are kept.
 */
export function allergenSection(
  held: readonly Allergen[],
  days: readonly AllergenDay[],
  onChange: (chosen: Allergen[]) => void,
): HTMLElement {
  const section = h('section', undefined, { class: 'allergens', 'aria-labelledby': 'allergens-title' });
  const title = h('h3', 'My allergens', { id: 'allergens-title' });
  section.append(title);
  if (held.length === 0) {
    section.append(h('p', "This city's data names no single plants, only tree, grass and weed pollen."));
    return section;
  }
  const levels = h('div', undefined, { 'aria-live': 'polite' });
  const summary = h('summary');
  const draw = (chosen: readonly Allergen[]) => {
    levels.replaceChildren(...(chosen.length > 0 ? [levelsTable(chosen, days)] : []));
    summary.textContent =
      chosen.length === 0 ? 'Choose the plants you react to' : `Your plants: ${chosen.map((a) => a.name).join(', ')} (change)`;
  };
  const details = picker(held, chosenOf(held), summary, (chosen) => {
    draw(chosen);
    onChange(chosen);
  });
  draw(chosenOf(held));
  section.append(levels, details);
  return section;
}

/** The allergens of `held` this browser keeps, in the data's order. */
export const chosenOf = (held: readonly Allergen[]): Allergen[] => {
  const kept = keptAllergens();
  return held.filter((a) => kept.includes(a.slug));
};

function levelsTable(chosen: readonly Allergen[], days: readonly AllergenDay[]): HTMLElement {
  const wrap = h('div');
  if (days.length === 0) {
    wrap.append(h('p', 'No forecast and no observed hours to show these plants on.'));
    return wrap;
  }
  const table = h('table', undefined, { class: 'allergen-levels', 'aria-describedby': 'allergens-note' });
  const head = h('tr');
  head.append(h('th', 'Plant', { scope: 'col' }), ...days.map((d) => h('th', d.label, { scope: 'col' })));
  const body = h('tbody');
  for (const a of chosen) {
    const tr = h('tr');
    tr.append(h('th', a.name, { scope: 'row' }));
    for (const d of days) {
      const peak = allergenPeak(a, d.hours);
      const td = h('td');
      td.append(badge(allergenRisk(a, peak)));
      if (peak !== null) td.append(h('span', ` ${Math.round(peak).toLocaleString('en-US')}`, { class: 'chance' }));
      td.title = `${a.name} on ${d.date}: highest hourly count ${peak === null ? 'not given' : `${Math.round(peak)} grains/m³`}, graded ${onRange(a.category)}`;
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(h('thead'), body);
  table.tHead!.append(head);
  const scroll = h('div', undefined, { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-labelledby': 'allergens-title' });
  scroll.append(table);
  const names = [...new Set(chosen.map((a) => a.category))];
  const categories = `${listed(names)} range${names.length === 1 ? '' : 's'}`;
  wrap.append(
    scroll,
    h(
      'p',
      `Each plant's highest hourly count (grains/m³) and its level on the NAB ${categories}: NAB publishes ranges for tree, grass and weed pollen, not for single plants.`,
      { id: 'allergens-note', class: 'fine' },
    ),
  );
  return wrap;
}

function picker(
  held: readonly Allergen[],
  chosen: readonly Allergen[],
  summary: HTMLElement,
  onChange: (chosen: Allergen[]) => void,
): HTMLDetailsElement {
  const details = h('details', undefined, { class: 'allergen-picker' });
  details.append(summary);
  const boxes: HTMLInputElement[] = [];
  for (const category of ['tree', 'grass', 'weed'] as const) {
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
  details.addEventListener('change', () => {
    const slugs = boxes.filter((b) => b.checked).map((b) => b.value);
    // Plants this city's data does not name stay kept, for the cities whose data does.
    keepAllergens([...keptAllergens().filter((k) => !held.some((a) => a.slug === k)), ...slugs]);
    onChange(held.filter((a) => slugs.includes(a.slug)));
  });
  return details;
}
