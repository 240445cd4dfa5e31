/**
 * The city panel's 7-day strip: a line per day from today, each with its rows' levels in words and
 * colour and where they come from, said once per day: the provider's forecast while it reaches,
 * then the outlook (with how likely its level is), then the usual for the season where the outlook
 * has not done better than it (docs/data.md, "The outlook"). Its days are the headline's
 * (day-answers.ts): today's line here is today's there. A list, not a table, so that a phone shows
 * every day without scrolling sideways.
 */
import type { ForecastOutlook } from '../../api/endpoints/forecast-outlook.js';
import { dateInWords } from '../../domain/dates.js';
import { type DayAnswer, type Reading, SOURCE_WORDS } from './day-answers.js';
import { h } from './dom.js';
import { badge } from './risk.js';
import { leadName } from './today.js';

const percent = (p: number) => `${Math.round(p * 100)}%`;

function readingItem(r: Reading): HTMLLIElement {
  const li = h('li', undefined, { 'data-key': r.key });
  li.append(h('span', r.standIn ? `${r.label} (${r.standIn})` : r.label, { class: 'reading-name' }), ' ', badge(r.level));
  if (r.chance !== undefined) li.append(h('span', ` ${percent(r.chance)} likely`, { class: 'chance' }));
  return li;
}

function dayItem(d: DayAnswer): HTMLLIElement {
  const li = h('li', undefined, { class: 'strip-day', 'data-date': d.date, 'data-source': d.source });
  const head = h('p', undefined, { class: 'strip-head' });
  // A forecast that ends within the day (48 hours from now) says how many of its hours it holds.
  const part = d.source === 'forecast' && d.hours !== undefined && d.hours > 0 && d.hours < 23 ? ` (${d.hours} of its hours)` : '';
  head.append(
    h('strong', leadName(d.lead, d.date)),
    d.lead < 2 ? ` ${dateInWords(d.date)}` : '',
    h('span', ` ${SOURCE_WORDS[d.source]}${d.lead === 0 ? '' : part}`, { class: 'fine' }),
  );
  const readings = h('ul', undefined, { class: 'strip-readings' });
  readings.append(...d.readings.map(readingItem));
  li.append(head, readings);
  return li;
}

/** The strip of `answers`, with a line on the outlook behind its later days. */
export function outlookStrip(answers: readonly DayAnswer[], outlook: ForecastOutlook | null | undefined): HTMLElement {
  const section = h('section', undefined, { class: 'outlook', 'aria-labelledby': 'outlook-title' });
  section.append(h('h3', 'The next 7 days', { id: 'outlook-title' }));
  if (answers.length === 0) {
    section.append(h('p', 'No forecast and no outlook for this city yet: a build makes one each day.'));
    return section;
  }
  const list = h('ol', undefined, { class: 'strip' });
  list.append(...answers.map(dayItem));
  section.append(list);
  const sources = new Set(answers.flatMap((d) => d.readings.map((r) => r.source)));
  const notes: string[] = [];
  if (sources.has('forecast')) notes.push("The first days are the provider's forecast.");
  if (sources.has('outlook'))
    notes.push(
      `After them, the outlook: the most likely level and how likely it is, from earlier years' days around each date moved by this year's season${outlook ? ` (issued ${dateInWords(outlook.issued, 'long')})` : ''}.`,
    );
  if (sources.has('usual'))
    notes.push(
      '"Usual for the season" marks where the outlook has not done better than the earlier years\' usual level, so the usual is shown.',
    );
  if (answers.some((d) => d.readings.some((r) => r.standIn)))
    notes.push("The outlook is made for tree, grass, weed and ragweed pollen: a plant's category stands in for it, as marked.");
  section.append(h('p', notes.join(' '), { class: 'fine', id: 'outlook-note' }));
  return section;
}
