/**
 * The city panel's 7-day strip (/api/forecast?days=7, docs/data.md, "The outlook"): for each day
 * from today, each category's most likely NAB level in words and colour, with how likely it is,
 * and "usual for the season" where the outlook has not beaten climatology and so climatology's
 * probabilities are what is shown. Every number is the API's.
 */
import type { ForecastOutlook } from '../../api/endpoints/forecast-outlook.js';
import { type Allergen, outlookCategory } from '../../domain/species/allergens.js';
import type { Graded } from '../../domain/species/risk.js';
import { h } from './dom.js';
import { badge } from './risk.js';

const CATEGORIES: ReadonlyArray<readonly [Graded, string]> = [
  ['tree', 'Tree'],
  ['grass', 'Grass'],
  ['weed', 'Weed'],
  ['ragweed', 'Ragweed'],
];

/** A date's short name: "Fri 27". */
const short = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', day: 'numeric', timeZone: 'UTC' });

const percent = (p: number) => `${Math.round(p * 100)}%`;

/**
 * The strip as a table: a row per category, a column per day, each cell the most likely level, its
 * chance, and whose probabilities they are. The categories of the reader's plants come first, named
 * as categories with the plants they stand for: the outlook is made for categories only. "Today"
 * is the city's `today` where it is known: an outlook issued on the city's yesterday (the latest
 * data day in UTC lags a city west of UTC in the evening) begins a day earlier, its lead 0 no longer today.
 */
export function outlookStrip(outlook: ForecastOutlook | null | undefined, chosen: readonly Allergen[] = [], today?: string): HTMLElement {
  const section = h('section', undefined, { class: 'outlook', 'aria-labelledby': 'outlook-title' });
  section.append(h('h3', 'The next 7 days', { id: 'outlook-title' }));
  if (!outlook || outlook.dates.length === 0) {
    section.append(h('p', 'No outlook for this city yet: a build issues one each day.'));
    return section;
  }
  const table = h('table', undefined, { class: 'outlook-strip', 'aria-describedby': 'outlook-note' });
  const head = h('tr');
  head.append(h('th', 'Category', { scope: 'col' }));
  const isToday = (d: ForecastOutlook['dates'][number]) => (today === undefined ? d.lead === 0 : d.date === today);
  for (const d of outlook.dates) head.append(h('th', isToday(d) ? `Today, ${short(d.date)}` : short(d.date), { scope: 'col' }));
  table.append(h('thead'), h('tbody'));
  table.tHead!.append(head);
  const plants = (key: Graded) => chosen.filter((a) => outlookCategory(a) === key).map((a) => a.name);
  const rows = [...CATEGORIES].sort(([a], [b]) => Number(plants(b).length > 0) - Number(plants(a).length > 0));
  for (const [key, name] of rows) {
    const cells = outlook.dates.map((d) => d.categories.find((c) => c.category === key));
    if (cells.every((c) => !c)) continue;
    const tr = h('tr');
    const mine = plants(key);
    tr.append(h('th', mine.length > 0 ? `${name} (your ${mine.join(', ')})` : name, { scope: 'row' }));
    for (const c of cells) {
      const td = h('td');
      if (!c?.most_likely || !c.probabilities) td.append('–');
      else {
        td.append(badge(c.most_likely), h('span', ` ${percent(c.probabilities[c.most_likely])}`, { class: 'chance' }));
        if (c.served === 'climatology') td.append(h('span', 'usual', { class: 'usual', title: c.why }));
        td.title = c.why;
      }
      tr.append(td);
    }
    table.tBodies[0]!.append(tr);
  }
  const scroll = h('div', undefined, { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-labelledby': 'outlook-title' });
  scroll.append(table);
  section.append(
    h(
      'p',
      'Each day, the most likely level and how likely it is. "Usual" marks the days where the outlook has not done better than the usual for the season, so the usual is shown.',
      { id: 'outlook-note' },
    ),
    scroll,
    h(
      'p',
      `Issued ${outlook.issued} from the earlier years' days around each date, moved by this year's season timing and the recent days where that did better than the usual for the season.`,
      { class: 'fine' },
    ),
  );
  return section;
}
