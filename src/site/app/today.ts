/**
 * The panel's first lines, "how bad is it today and tomorrow": each day's level for the reader's
 * plants (or, with none picked, tree, grass and weed pollen) in words and colour, where the number
 * comes from, and what to do about it. The days are the first two of the same answers the 7-day
 * strip shows (day-answers.ts); without any, the latest measured days, said as past.
 */
import { dateInWords } from '../../domain/dates.js';
import type { DayRow, Risk } from './api.js';
import { type DayAnswer, type Reading, SOURCE_WORDS } from './day-answers.js';
import { h } from './dom.js';
import { badge, worst } from './risk.js';

/** "Today", "Tomorrow", or the day's name. */
export const leadName = (lead: number, date: string) => (lead === 0 ? 'Today' : lead === 1 ? 'Tomorrow' : dateInWords(date));

const words = (risk: Risk) => (risk === null ? 'no data' : risk);

/** "Oak Low", "Oak (tree pollen) Low" where the category stands in for the plant. */
export const readingWords = (r: Reading) => `${r.label}${r.standIn ? ` (${r.standIn})` : ''} ${words(r.level)}`;

/**
 * What to do at a level, after the advice allergists give (American Academy of Allergy, Asthma &
 * Immunology, "Outdoor allergens" tips: medicine before symptoms, windows shut, a shower after
 * being outside on high days).
 */
export function advice(level: Risk): string {
  if (level === 'High' || level === 'Very High')
    return 'If you react to it: take your allergy medicine before symptoms start, keep windows shut at home and in the car, and shower and change after being outside.';
  if (level === 'Moderate') return 'If you react to it, take your allergy medicine before going out, and keep bedroom windows shut.';
  if (level === 'Low') return 'Only people very sensitive to it are likely to notice.';
  return level === null ? 'No level for this day yet.' : 'Little or no pollen in the air.';
}

function dayLine(d: DayAnswer, provider: string | undefined): HTMLLIElement {
  const li = h('li', undefined, { class: 'day-level', 'data-date': d.date });
  const from =
    d.source === 'forecast'
      ? `forecast${provider ? ` from ${provider}` : ''}${d.lead === 0 && d.hours ? `, the ${d.hours} hours still to come` : ''}`
      : SOURCE_WORDS[d.source];
  li.append(
    h('strong', `${leadName(d.lead, d.date)}, ${dateInWords(d.date, 'long')}`),
    ' ',
    badge(d.level),
    ' ',
    h('span', d.readings.map(readingWords).join(' · '), { class: 'readings' }),
    ' ',
    h('span', from, { class: 'fine source' }),
  );
  return li;
}

function measuredLine(d: DayRow): HTMLLIElement {
  const li = h('li', undefined, { class: 'day-level', 'data-date': d.date });
  li.append(
    h('strong', `${dateInWords(d.date, 'long')}: measured`),
    ' ',
    badge(worst(d.peak_risk_tree, d.peak_risk_grass, d.peak_risk_weed)),
    ' ',
    h('span', `Tree ${words(d.peak_risk_tree)} · Grass ${words(d.peak_risk_grass)} · Weed ${words(d.peak_risk_weed)}`, {
      class: 'readings',
    }),
  );
  return li;
}

/**
 * Today and tomorrow (`answers` from the city's today); without them, the latest two measured days
 * (`observed`, newest first). Only this list is a live region: it is what changes when plants are picked.
 */
export function todaySection(answers: readonly DayAnswer[], observed: readonly DayRow[], provider?: string): HTMLElement {
  const section = h('section', undefined, { class: 'today', 'aria-labelledby': 'today-title' });
  const list = h('ul', undefined, { class: 'day-levels', 'aria-live': 'polite' });
  const shown = answers.slice(0, 2);
  if (shown.length > 0) {
    section.append(h('h3', 'Today and tomorrow', { id: 'today-title' }));
    list.append(...shown.map((d) => dayLine(d, provider)));
    const standIn = shown.flatMap((d) => d.readings).find((r) => r.standIn);
    section.append(
      list,
      h('p', advice(shown[0]!.level), { class: 'advice' }),
      h(
        'p',
        `Each day's worst hour${standIn ? `; where a plant's own value is not forecast, its category's level stands in (${standIn.label}: ${standIn.standIn})` : ''}.`,
        { class: 'fine' },
      ),
    );
    return section;
  }
  section.append(h('h3', 'Latest days measured', { id: 'today-title' }));
  if (observed.length === 0) {
    section.append(h('p', 'No forecast and no measured days for this city yet.'));
    return section;
  }
  list.append(...observed.slice(0, 2).map(measuredLine));
  section.append(list, h('p', 'There is no forecast right now, so these are the latest days measured.', { class: 'notice', role: 'note' }));
  return section;
}
