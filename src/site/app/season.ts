/**
 * The city panel's season view (/api/season, local days): per category, its year under way as a
 * cumulative curve against the complete earlier years' (from the city's daily rows), its start,
 * peak and end marked, its SPIn, and one sentence in plain words that reads where the season
 * stands (`status`) and whose numbers are the API's.
 */
import { dayNumber, dayString } from '../../domain/dates.js';
import { seasonCategories, seasonSeries, seasonYear, yearName, yearSeason } from '../../domain/seasons/year.js';
import type { CategorySeason, DayRow, SeasonAnswer } from './api.js';
import { polylinePoints, seriesLegend } from './charts.js';
import { el, h } from './dom.js';

const CATEGORIES = seasonCategories([]); // tree, grass, weed, ragweed
const LABEL: Record<string, string> = { tree: 'Tree', grass: 'Grass', weed: 'Weed', ragweed: 'Ragweed' };
const THIS_YEAR = '#2b5797';
const EARLIER = ['#8a96a3', '#c2a878', '#b6a0c8'];
/** A year's colour: this year's, or the earlier years' in turn from the latest. */
const colourOf = (year: number, current: number) => (year === current ? THIS_YEAR : EARLIER[(current - year - 1) % EARLIER.length]!);
/** Where each mark's label sits from its point, so that a start and a peak days apart do not overlap. */
const LABEL_AT = { start: [-6, -6, 'end'], peak: [8, 4, 'start'], end: [6, 14, 'start'] } as const;

/** A date as people read it: `Mar 3`, or `Mar 3, 2025` with the year. */
const shortDate = (date: string, withYear = false) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
    ...(withYear ? { year: 'numeric' } : {}),
  });

const number = (v: number) => Math.round(v).toLocaleString('en-US');

/** A category's year in words, as the API's notes name it: `2026`, or for tree `Oct 2025 to Sep 2026`. */
export const yearLabel = (c: Pick<CategorySeason, 'year' | 'category'>): string => yearName(c.category, c.year);

/** The cumulative sums of a category on each day of a year with a value, as the API sums them (domain/seasons/year.ts). */
function curve(rows: readonly DayRow[], category: string, year: number): Array<[number, number]> {
  const series = seasonSeries(
    rows.map((row) => ({ day: dayNumber(row.date), row })),
    CATEGORIES.find((c) => c.name === category)!,
  );
  const window = seasonYear(category, year);
  const y = yearSeason(series, window, { latest: window.to, category });
  // A point on each day with a value: days without one are not drawn, so a year draws only where it has data.
  return y.cumulative.flatMap((sum, i): Array<[number, number]> => (series.has(y.from + i) ? [[i, sum]] : []));
}

/** An earlier year against this one: `last year`, or `in 2024` (`in Oct 2023 to Sep 2024` for tree). */
const whenOf = (c: CategorySeason, year: number) => (year === c.year - 1 ? 'last year' : `in ${yearName(c.category, year)}`);

/**
 * How this year's cumulative sum stands against the latest complete earlier year's, at the same
 * day of the year, with the two sums it compares (a large percentage of a few grains says little).
 */
function pace(c: CategorySeason, over: boolean): string {
  const latest = c.comparison.years.at(-1);
  if (!latest) return '; there is no complete earlier year to compare it with';
  const when = whenOf(c, latest.year);
  const p = latest.ahead_pct;
  if (p === null) return '';
  const sums = ` (${number(c.comparison.cumulative)} against ${number(latest.cumulative)} grains·day/m³ by ${shortDate(latest.as_of)})`;
  if (over)
    return ` and brought ${p === 0 ? 'as much pollen as' : `${Math.abs(p)}% ${p > 0 ? 'more pollen than' : 'less pollen than'}`} ${when}${sums}`;
  return `, ${p === 0 ? 'level with' : `${Math.abs(p)}% ${p > 0 ? 'ahead of' : 'behind'}`} ${when} at this point of the year${sums}`;
}

/** The sentence: where the season stands, then how it compares with the latest complete earlier year. */
export function seasonSentence(c: CategorySeason): string {
  const name = LABEL[c.category] ?? c.category;
  const { status } = c;
  if (c.closed) {
    // A year over: the percentage method's season, retrospectively.
    if (!c.season) return `No ${name.toLowerCase()} season in ${yearLabel(c)}: ${c.reason ?? 'no data'}.`;
    const gaps = c.complete ? '' : ` (measured on the ${c.days_with_data} days the year holds)`;
    const latest = c.comparison.years.at(-1);
    const d = latest?.start_difference_days ?? null;
    const when = latest && whenOf(c, latest.year);
    const start =
      !latest || d === null || d === 0
        ? `started on ${shortDate(c.season.start)}${latest ? `, as ${when}` : ''}`
        : `started on ${shortDate(c.season.start)}, ${Math.abs(d)} day${Math.abs(d) === 1 ? '' : 's'} ${d < 0 ? 'earlier' : 'later'} than ${when}`;
    return `${name} main season ${start}${pace(c, true)}${gaps}.`;
  }
  // A year under way is read by its exposure season (EAACI), the one definition that can be told before the year ends.
  switch (status.state) {
    case 'not started':
      return `${name} exposure season has not started yet.`;
    case 'in season':
      return `${name} exposure season is under way since ${shortDate(status.start!)}${pace(c, false)}.`;
    case 'ended':
      return `${name} exposure season ended on ${shortDate(status.end!)} (provisional: it may resume if pollen returns); it began on ${shortDate(status.start!)}${pace(c, true)}.`;
    default:
      return `No ${name.toLowerCase()} exposure season in ${yearLabel(c)}.`;
  }
}

/** This year's curve against the complete earlier years' (those it is compared with), with its start, peak and end marked. */
function seasonChart(rows: readonly DayRow[], c: CategorySeason, width: number): { svg: SVGSVGElement; drawn: number[] } {
  const [w, ht, pad] = [width, 220, 44];
  const title = `Cumulative ${c.category} pollen, ${yearLabel(c)}, against earlier years, grains·day/m³`;
  const svg = el('svg', { viewBox: `0 0 ${w} ${ht}`, role: 'img', class: 'chart season-chart', 'aria-label': title });
  el('title', {}, svg).textContent = title;
  const years = [c.year, ...c.comparison.years.map((y) => y.year).reverse()];
  const curves = years.map((y) => ({ year: y, points: curve(rows, c.category, y) })).filter((k) => k.points.length > 0);
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
    const mine = k.year === c.year;
    el(
      'polyline',
      {
        points: polylinePoints(k.points, x, y),
        fill: 'none',
        stroke: colourOf(k.year, c.year),
        'stroke-width': mine ? 2.5 : 1.5,
        'stroke-dasharray': mine ? '' : '5 3',
        class: mine ? 'season-this-year' : 'season-earlier',
        'data-year': k.year,
      },
      svg,
    );
  }
  const mine = curves.find((k) => k.year === c.year)?.points ?? [];
  const at = (date: string | null) => {
    if (!date) return undefined;
    const i = dayNumber(date) - dayNumber(c.from);
    const p = mine.filter(([d]) => d <= i).at(-1);
    return p ? { x: x(i), y: y(p[1]) } : undefined;
  };
  // The marks name the start and end the sentence names: the main season's for a year over, the
  // exposure season's for one under way (the facts list gives the other, by its own name).
  const [kind, from, to] = c.closed
    ? (['main', c.season?.start ?? null, c.season?.end ?? null] as const)
    : (['exposure', c.status.start, c.status.end] as const);
  for (const [label, date, named] of [
    ['start', from, `${kind} start`],
    ['peak', c.season?.peak_date ?? null, 'peak'],
    ['end', to, `${kind} end`],
  ] as const) {
    const p = at(date);
    if (!p) continue;
    el('circle', { cx: p.x, cy: p.y, r: 4, class: `season-mark season-${label}`, fill: THIS_YEAR }, svg);
    // A label near the right edge is written leftwards from its mark, so that it stays inside the chart.
    const [dx, dy, anchor] = p.x > w - 140 ? ([-8, LABEL_AT[label][1], 'end'] as const) : LABEL_AT[label];
    el('text', { x: p.x + dx, y: p.y + dy, 'text-anchor': anchor, class: 'tick season-label' }, svg).textContent =
      `${named} ${shortDate(date!)}`;
  }
  return { svg, drawn: curves.map((k) => k.year) };
}

/** The legend of the curves drawn: this year's, then the earlier years'. */
function legend(c: CategorySeason, drawn: readonly number[]): HTMLElement {
  return seriesLegend(
    drawn.map((year) => ({
      label: year === c.year ? `${yearLabel(c)} (this year)` : yearLabel({ category: c.category, year }),
      colour: colourOf(year, c.year),
      dashed: year !== c.year,
    })),
  );
}

/** Where the season stands, in words. */
function standing(c: CategorySeason): string {
  const { state, start, end, provisional } = c.status;
  if (state === 'not started') return 'Not started';
  if (state === 'in season') return `In season since ${shortDate(start!, true)}`;
  if (state === 'ended') return `Ended on ${shortDate(end!, true)}${provisional ? ' (provisional)' : ''}`;
  return 'No exposure season';
}

/** The facts of a season: where it stands, its exposure season and main season, peak, SPIn, APIn. */
function facts(c: CategorySeason): HTMLElement {
  const dl = h('dl', undefined, { class: 'weather season-facts' });
  const add = (term: string, value: string) => dl.append(h('dt', term), h('dd', value));
  const { start, end, criterion } = c.status;
  add('Where it stands', standing(c));
  const rule = `5 days of 7 at ${criterion.daily} grains/m³ or more, summing to ${criterion.sum}`;
  add('Exposure season', start ? `${shortDate(start, true)} to ${end ? shortDate(end, true) : 'now'} (${rule})` : `none yet (${rule})`);
  if (c.season) {
    const { start: from, end: to } = c.season;
    add(
      'Main season (95% of the pollen)',
      `${shortDate(from, true)} to ${to ? `${shortDate(to, true)}${c.complete ? '' : ' (provisional)'}` : 'not ended yet'}`,
    );
    // While the year is under way its highest day may still come: said so, not read as the season's peak.
    add(c.closed ? 'Peak' : 'Peak so far', `${shortDate(c.season.peak_date, true)}: ${number(c.season.peak_value)} grains/m³ (daily mean)`);
    add('Season total (SPIn)', `${number(c.season.spin)} grains·day/m³`);
  }
  add('Year total (APIn)', `${number(c.apin)} grains·day/m³${c.closed ? '' : ` so far (to ${shortDate(c.through ?? c.to, true)})`}`);
  return dl;
}

const BASIS: Record<CategorySeason['basis'], string> = {
  year: 'its total',
  'days held': 'the total of the days it holds (the year has gaps)',
  'earlier years': 'the mean total of the complete earlier years',
  'so far': 'its total so far',
};

/** The season view of a city: a category picker, then the chosen category's sentence, chart, legend and facts. */
export function seasonSection(answer: SeasonAnswer, rows: readonly DayRow[], width = 560): HTMLElement {
  const section = h('section', undefined, { class: 'season' });
  const shown = answer.categories.filter((c) => LABEL[c.category]);
  const select = h('select', undefined, { id: 'season-category' });
  select.append(...shown.map((c) => new Option(LABEL[c.category]!, c.category)));
  const body = h('div', undefined, { id: 'season-body', 'aria-live': 'polite' });
  const draw = () => {
    const c = shown.find((x) => x.category === select.value) ?? shown[0];
    if (!c) return body.replaceChildren(h('p', 'No seasons for this city yet.'));
    const note = h(
      'p',
      `Exposure season: the EAACI definition, the one for a season under way, read on the provider's modeled daily means (not pollen-trap counts). Main season: from the day the year's cumulative sum reaches 2.5% of ${BASIS[c.basis]} to the day it reaches 97.5%; while the year is under way it ends when the exposure season does, provisionally. The chart marks the season the sentence speaks of: the exposure season while the year is under way, the main season once it is over. ${c.comparison.note ?? ''}`,
      { class: 'fine' },
    );
    const { svg, drawn } = seasonChart(rows, c, width);
    body.replaceChildren(h('p', seasonSentence(c), { class: 'season-sentence' }), svg, legend(c, drawn), facts(c), note);
  };
  select.addEventListener('change', draw);
  const picker = h('p');
  picker.append(h('label', 'Category', { for: 'season-category' }), ' ', select);
  section.append(h('h3', 'Pollen seasons (local days)'), picker, body);
  draw();
  return section;
}
