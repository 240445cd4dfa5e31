/**
 * The city panel's season view (/api/season, local days): for the category the reader picks, when
 * this year's season started, peaked and ended and how it compares with the earlier years, in
 * plain words (season-words.ts), then each day's pollen this year against the earlier years
 * (season-chart.ts). The terms of aerobiology appear once, in the fine print, with the glossary.
 */
import { yearName } from '../../domain/seasons/year.js';
import type { Graded } from '../../domain/species/risk.js';
import type { CategorySeason, DayRow, SeasonAnswer } from './api.js';
import { seriesLegend } from './charts.js';
import { h } from './dom.js';
import { type SeasonLine, seasonChart, THIS_YEAR_COLOUR } from './season-chart.js';
import { compareSentence, SEASON_LABEL, spokenDate, standingSentence } from './season-words.js';

/** The categories the view offers, as the reader's plants are grouped. */

/**
 * The category the view opens on: the reader's when given and held, else the first in season,
 * else the one whose season ended last (the one the reader has most lately lived through), else
 * the first.
 */
export function openingCategory(shown: readonly CategorySeason[], prefer?: Graded): CategorySeason | undefined {
  const mine = prefer && shown.find((c) => c.category === prefer);
  if (mine) return mine;
  const inSeason = shown.find((c) => !c.closed && c.status.state === 'in season');
  if (inSeason) return inSeason;
  const ended = shown.filter((c) => c.status.end !== null).sort((a, b) => b.status.end!.localeCompare(a.status.end!));
  return ended[0] ?? shown[0];
}

/** A line's name in the legend: `This year (2026)`, `Last year (2025)`, `2024`. */
function lineName(c: CategorySeason, line: SeasonLine): string {
  const name = yearName(c.category, line.year);
  if (line.mine) return `This year (${name})`;
  return line.year === c.year - 1 ? `Last year (${name})` : name;
}

/** The legend: each line drawn, then this year's season as shaded. */
function legend(c: CategorySeason, lines: readonly SeasonLine[]): HTMLElement {
  const ul = seriesLegend(lines.map((line) => ({ label: lineName(c, line), colour: line.colour, dashed: line.dashed })));
  const start = c.season?.start ?? c.status.start;
  if (start && (c.closed || c.status.state !== 'not started')) {
    const end = c.season?.end ?? c.status.end;
    const swatch = h('span', undefined, { class: 'swatch season-band-swatch', 'aria-hidden': 'true' });
    swatch.style.cssText = `height: 12px; background: ${THIS_YEAR_COLOUR}; opacity: 0.25`;
    const when = h('span', `(${end ? `${spokenDate(start)} to ${spokenDate(end)}` : `since ${spokenDate(start)}`})`);
    // The dates wrap as one, never a lone "11)" on a line of its own.
    when.style.whiteSpace = 'nowrap';
    ul.appendChild(h('li')).append(swatch, "This year's season ", when);
  }
  return ul;
}

const number = (v: number) => Math.round(v).toLocaleString('en-US');

/**
 * The one line with the terms of aerobiology, each named as the glossary names it, and the totals
 * behind the sentences; then the way to the glossary.
 */
function finePrint(c: CategorySeason): HTMLElement {
  const sofar = c.closed ? '' : ' so far';
  const totals = c.season
    ? `${number(c.apin)} and ${number(c.season.spin)} grains·day/m³${sofar}`
    : `${number(c.apin)} grains·day/m³ in the year${sofar}`;
  const p = h(
    'p',
    `How this is worked out. Main season: from the day 2.5% of a year's pollen has been in the air to the day 97.5% has${
      c.closed ? '' : "; while the year runs, 2.5% of the earlier years' average, and it ends when the exposure season does"
    }. Exposure season (EAACI): the days pollen is high enough, often enough, to matter to people with allergies; it can be told while the year runs, and pollen coming back can still move its end. APIn, SPIn: the year's and the season's daily means added up (${totals}), compared by the same date. High and Very High are NAB levels. Modelled values, not a pollen station's counts. ${c.comparison.note ?? ''} `,
    { class: 'fine season-fine' },
  );
  p.append(h('a', 'What the words mean', { href: '#glossary' }));
  return p;
}

/** The view of one category: its two sentences, its chart and legend, and the fine print. */
function categoryView(answer: SeasonAnswer, rows: readonly DayRow[], c: CategorySeason, width: number): Node[] {
  const { svg, lines } = seasonChart(rows, c, width);
  const figure = h('figure', undefined, { class: 'season-figure' });
  figure.append(svg, legend(c, lines));
  const compare = compareSentence(answer, c);
  return [
    h('p', standingSentence(c), { class: 'season-sentence' }),
    ...(compare ? [h('p', compare, { class: 'season-compare' })] : []),
    figure,
    finePrint(c),
  ];
}

/**
 * The season view of a city, drawn for `width` px (280 to 560): a button per category, opened on
 * `prefer` (the category of the plants the reader picked) or else on the one in season.
 */
export function seasonSection(answer: SeasonAnswer, daily: readonly DayRow[], width: number, prefer?: Graded): HTMLElement {
  const section = h('section', undefined, { class: 'season' });
  const shown = answer.categories.filter((c) => SEASON_LABEL[c.category]);
  const picker = h('div', undefined, { class: 'season-picker', role: 'group', 'aria-label': 'Which pollen' });
  const body = h('div', undefined, { class: 'season-body', 'aria-live': 'polite' });
  const buttons = shown.map((c) => {
    const b = h('button', SEASON_LABEL[c.category], { type: 'button', 'data-category': c.category, 'aria-pressed': 'false' });
    b.addEventListener('click', () => show(c));
    return b;
  });
  const show = (c: CategorySeason) => {
    for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.category === c.category));
    body.replaceChildren(...categoryView(answer, daily, c, width));
  };
  picker.append(...buttons);
  section.append(h('h3', 'Pollen seasons'), picker, body);
  const first = openingCategory(shown, prefer);
  if (first) show(first);
  else body.replaceChildren(h('p', 'No seasons for this city yet.'));
  return section;
}
