/**
 * The city panel's season view (/api/season, local days): per category, this year's cumulative
 * curve against the earlier years' (from the city's daily rows), its start, peak and end marked,
 * its SPIn, and one sentence in plain words whose numbers are the API's.
 */
import { dayNumber, dayString } from '../../domain/dates.js';
import { seasonCategories, seasonSeries, seasonYear, yearSeason } from '../../domain/seasons.js';
import type { CategorySeason, DayRow, SeasonAnswer } from './api.js';

const SVG = 'http://www.w3.org/2000/svg';
const CATEGORIES = seasonCategories([]); // tree, grass, weed, ragweed
const LABEL: Record<string, string> = { tree: 'Tree', grass: 'Grass', weed: 'Weed', ragweed: 'Ragweed' };
const THIS_YEAR = '#2b5797';
const EARLIER = ['#8a96a3', '#c2a878', '#b6a0c8'];
/** A year's colour: this year's, or the earlier years' in turn from the latest. */
const colourOf = (year: number, current: number) => (year === current ? THIS_YEAR : EARLIER[(current - year - 1) % EARLIER.length]!);
/** Where each mark's label sits from its point, so that a start and a peak days apart do not overlap. */
const LABEL_AT = { start: [-6, -6, 'end'], peak: [8, 4, 'start'], end: [6, 14, 'start'] } as const;

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

const h = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

/** A date as people read it: `Mar 3`, or `Mar 3, 2025` with the year. */
const shortDate = (date: string, withYear = false) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
    ...(withYear ? { year: 'numeric' } : {}),
  });

const number = (v: number) => Math.round(v).toLocaleString('en-US');

/** The cumulative sums of a category on each day of a year with a value, as the API sums them (domain/seasons.ts). */
function curve(rows: readonly DayRow[], category: string, year: number): Array<[number, number]> {
  const series = seasonSeries(
    rows.map((row) => ({ day: dayNumber(row.date), row })),
    CATEGORIES.find((c) => c.name === category)!,
  );
  const y = yearSeason(series, seasonYear(category, year));
  // A point on each day with a value: days before the first held are not drawn as zeros.
  return y.cumulative.flatMap((sum, i): Array<[number, number]> => (series.has(y.from + i) ? [[i, sum]] : []));
}

/** The sentence: when the season started against the latest complete earlier year, and how far ahead it is. */
export function seasonSentence(year: number, c: CategorySeason): string {
  const name = LABEL[c.category] ?? c.category;
  if (!c.season) return `No ${name.toLowerCase()} season in ${year}: ${c.reason ?? 'no data'}.`;
  const latest = c.comparison.years.at(-1);
  const when = (y: number) => (y === year - 1 ? 'last year' : `in ${y}`);
  const started = c.complete ? 'started' : 'has started';
  if (!latest) return `${name} season ${started} on ${shortDate(c.season.start)}; there is no complete earlier year to compare it with.`;
  const d = latest.start_difference_days;
  const start =
    d === null || d === 0
      ? `${started} on ${shortDate(c.season.start)}, as ${when(latest.year)}`
      : `${started} ${Math.abs(d)} day${Math.abs(d) === 1 ? '' : 's'} ${d < 0 ? 'earlier' : 'later'} than ${when(latest.year)}`;
  const p = latest.ahead_pct;
  const pace =
    p === null
      ? ''
      : c.complete
        ? ` and brought ${p === 0 ? 'as much pollen as' : `${Math.abs(p)}% ${p > 0 ? 'more pollen than' : 'less pollen than'}`} ${when(latest.year)}`
        : ` and is ${p === 0 ? 'level with' : `${Math.abs(p)}% ${p > 0 ? 'ahead of' : 'behind'}`} ${when(latest.year)} at this point of the year`;
  return `${name} season ${start}${pace}.`;
}

/** This year's curve against the earlier years', with its start, peak and end marked. */
function seasonChart(rows: readonly DayRow[], answer: SeasonAnswer, c: CategorySeason): SVGSVGElement {
  const [w, ht, pad] = [560, 220, 44];
  const title = `Cumulative ${c.category} pollen in ${answer.year} against earlier years, grains·day/m³`;
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({ viewBox: `0 0 ${w} ${ht}`, role: 'img', class: 'chart season-chart', 'aria-label': title }))
    svg.setAttribute(k, v);
  el('title', {}, svg).textContent = title;
  const years = [...new Set(answer.years.filter((y) => y.category === c.category && y.year <= answer.year).map((y) => y.year))];
  const curves = years.map((y) => ({ year: y, points: curve(rows, c.category, y) }));
  const max = Math.max(1, ...curves.flatMap((k) => k.points.map((p) => p[1])));
  const span = dayNumber(c.to) - dayNumber(c.from);
  const x = (i: number) => pad + (i / span) * (w - 2 * pad);
  const y = (v: number) => ht - pad - (v / max) * (ht - 2 * pad);
  el('line', { x1: pad, y1: ht - pad, x2: w - pad, y2: ht - pad, class: 'axis' }, svg);
  el('line', { x1: pad, y1: pad, x2: pad, y2: ht - pad, class: 'axis' }, svg);
  el('text', { x: pad - 4, y: pad + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = number(max);
  el('text', { x: pad - 4, y: ht - pad, 'text-anchor': 'end', class: 'tick' }, svg).textContent = '0';
  // A tick at each month's first day.
  for (let day = dayNumber(c.from); day <= dayNumber(c.to); day++) {
    const date = dayString(day);
    if (!date.endsWith('-01')) continue;
    el('text', { x: x(day - dayNumber(c.from)), y: ht - pad + 14, 'text-anchor': 'middle', class: 'tick' }, svg).textContent =
      shortDate(date).split(' ')[0]!;
  }
  for (const k of curves) {
    if (k.points.length === 0) continue;
    const mine = k.year === answer.year;
    el(
      'polyline',
      {
        points: k.points.map(([d, v]) => `${x(d).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
        fill: 'none',
        stroke: colourOf(k.year, answer.year),
        'stroke-width': mine ? 2.5 : 1.5,
        'stroke-dasharray': mine ? '' : '5 3',
        class: mine ? 'season-this-year' : 'season-earlier',
        'data-year': k.year,
      },
      svg,
    );
  }
  const mine = curves.find((k) => k.year === answer.year)?.points ?? [];
  const at = (date: string | null) => {
    if (!date) return undefined;
    const i = dayNumber(date) - dayNumber(c.from);
    const p = mine.filter(([d]) => d <= i).at(-1);
    return p ? { x: x(i), y: y(p[1]) } : undefined;
  };
  for (const [label, date] of [
    ['start', c.season?.start ?? null],
    ['peak', c.season?.peak_date ?? null],
    ['end', c.season?.end ?? null],
  ] as const) {
    const p = at(date);
    if (!p) continue;
    el('circle', { cx: p.x, cy: p.y, r: 4, class: `season-mark season-${label}`, fill: THIS_YEAR }, svg);
    const [dx, dy, anchor] = LABEL_AT[label];
    el('text', { x: p.x + dx, y: p.y + dy, 'text-anchor': anchor, class: 'tick season-label' }, svg).textContent =
      `${label} ${shortDate(date!)}`;
  }
  return svg;
}

/** The legend of the curves: this year's, then the earlier years'. */
function legend(answer: SeasonAnswer, category: string): HTMLElement {
  const ul = h('ul', undefined, { class: 'series-legend' });
  const years = [...new Set(answer.years.filter((y) => y.category === category && y.year <= answer.year).map((y) => y.year))].reverse();
  for (const year of years) {
    const li = h('li');
    const swatch = h('span', undefined, { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.borderTop = `3px ${year === answer.year ? 'solid' : 'dashed'} ${colourOf(year, answer.year)}`;
    li.append(swatch, String(year));
    ul.append(li);
  }
  return ul;
}

/** The facts of a season: start, peak, end, SPIn, APIn. */
function facts(c: CategorySeason): HTMLElement {
  const dl = h('dl', undefined, { class: 'weather season-facts' });
  const add = (term: string, value: string) => dl.append(h('dt', term), h('dd', value));
  if (c.season) {
    add('Start', shortDate(c.season.start, true));
    add('Peak', `${shortDate(c.season.peak_date, true)}: ${number(c.season.peak_value)} grains/m³ (daily mean)`);
    add('End', c.season.end ? shortDate(c.season.end, true) : 'not yet (the year is incomplete)');
    add('Season total (SPIn)', `${number(c.season.spin)} grains·day/m³`);
  }
  add('Year total (APIn)', `${number(c.apin)} grains·day/m³${c.complete ? '' : ` so far (to ${shortDate(c.through ?? c.to, true)})`}`);
  return dl;
}

/** The season view of a city: a category picker, then the chosen category's chart, facts and sentence. */
export function seasonSection(answer: SeasonAnswer, rows: readonly DayRow[]): HTMLElement {
  const section = h('section', undefined, { class: 'season' });
  const shown = answer.categories.filter((c) => LABEL[c.category]);
  const select = h('select', undefined, { id: 'season-category' });
  select.append(...shown.map((c) => new Option(LABEL[c.category]!, c.category)));
  const body = h('div', undefined, { id: 'season-body', 'aria-live': 'polite' });
  const draw = () => {
    const c = shown.find((x) => x.category === select.value) ?? shown[0];
    if (!c) return body.replaceChildren(h('p', 'No seasons for this city yet.'));
    const basis = { year: 'its total', 'earlier years': 'the mean total of the complete earlier years', 'so far': 'its total so far' }[
      c.basis
    ];
    const note = h(
      'p',
      `The main pollen season runs from the day the year's cumulative sum reaches 2.5% of ${basis} to the day it reaches 97.5%, on modeled daily means. ${c.comparison.note ?? ''}`,
      { class: 'fine' },
    );
    body.replaceChildren(
      h('p', seasonSentence(answer.year, c), { class: 'season-sentence' }),
      seasonChart(rows, answer, c),
      legend(answer, c.category),
      facts(c),
      note,
    );
  };
  select.addEventListener('change', draw);
  const picker = h('p');
  picker.append(h('label', 'Category', { for: 'season-category' }), ' ', select);
  section.append(h('h3', `Pollen seasons, ${answer.year} (local days)`), picker, body);
  draw();
  return section;
}
