/**
 * The season view's chart: each day's pollen through a category's year (a week's average of the
 * daily means, from the city's daily rows), this year bold against the complete earlier years
 * lighter, with this year's season shaded and its peak marked. Drawn for the width it gets, one
 * unit a CSS pixel, with its text placed from estimates of its width so that nothing is clipped
 * or overlaps at 280 px.
 */
import { civilDate, dayNumber } from '../../domain/dates.js';
import { type SeasonSeries, seasonCategories, seasonSeries, seasonYear } from '../../domain/seasons/year.js';
import type { CategorySeason, DayRow } from './api.js';
import { el } from './dom.js';
import { monthName, SEASON_LABEL, spokenDate } from './season-words.js';

const CATEGORIES = seasonCategories([]); // tree, grass, weed, ragweed
/** The text size, set on each text element so that the layout below holds whatever the page's CSS says. */
const FONT = 12;
/** A generous average glyph width at that size: test/site/season-view.test.ts measures the real boxes at 280, 390 and 560 px. */
const CHAR = 0.62 * FONT;
const HEIGHT = 210;
const [TOP, BOTTOM, RIGHT] = [36, 26, 12];
export const THIS_YEAR_COLOUR = '#2b5797';
const EARLIER_COLOURS = ['#8c9bab', '#c9a96e', '#a995c4'];
/** An earlier year is drawn only when the rows hold this share of its days (the panel's rows reach back about two years). */
const DRAWN_SHARE = 0.9;

/** A year's line: a week's average on each day of the year (0 = its first day), null where the data has a gap. */
export interface SeasonLine {
  year: number;
  values: Array<number | null>;
  colour: string;
  dashed: boolean;
  mine: boolean;
}

const textWidth = (text: string) => text.length * CHAR;

/**
 * The average of the values within 3 days either side of each day of `[from, to]`, on days whose
 * week holds at least 4 values, so that a gap in the data stays a gap rather than a dip to zero.
 */
export function weekAverages(series: SeasonSeries, from: number, to: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let day = from; day <= to; day++) {
    let [sum, n] = [0, 0];
    for (let d = day - 3; d <= day + 3; d++) {
      const v = series.get(d);
      if (v) [sum, n] = [sum + v.value, n + 1];
    }
    out.push(n >= 4 ? sum / n : null);
  }
  return out;
}

/** This year's line and each complete earlier year's that the rows hold, the latest earlier year first after this one. */
export function seasonLines(rows: readonly DayRow[], c: CategorySeason): SeasonLine[] {
  const category = CATEGORIES.find((k) => k.name === c.category);
  if (!category) return [];
  const series = seasonSeries(
    rows.map((row) => ({ day: dayNumber(row.date), row })),
    category,
  );
  const years = [c.year, ...c.comparison.years.map((y) => y.year).reverse()];
  return years.flatMap((year, i): SeasonLine[] => {
    const { from, to } = seasonYear(c.category, year);
    let held = 0;
    for (let day = from; day <= to; day++) if (series.has(day)) held++;
    if (held === 0 || (i > 0 && held < DRAWN_SHARE * (to - from + 1))) return [];
    const mine = i === 0;
    const colour = mine ? THIS_YEAR_COLOUR : EARLIER_COLOURS[(i - 1) % EARLIER_COLOURS.length]!;
    return [{ year, values: weekAverages(series, from, to), colour, dashed: i > 1, mine }];
  });
}

/** The smallest round number at or above `v` (1, 1.5, 2 ... 8 times a power of ten), whose half is round too: the axis's top. */
function niceTop(v: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(v, 1)));
  return [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((t) => t >= v) ?? 10 * power;
}

interface Frame {
  svg: SVGSVGElement;
  width: number;
  left: number;
  days: number;
  x: (i: number) => number;
  y: (v: number) => number;
}

/** A text at a point, at the chart's size. */
const text = (f: Frame, s: string, attrs: Record<string, string | number>) => {
  el('text', { 'font-size': FONT, class: 'season-tick', ...attrs }, f.svg).textContent = s;
};

/** The axes: the amount up the left in round numbers, named at the top, and the months along the bottom. */
function axes(f: Frame, top: number, from: number): void {
  const base = HEIGHT - BOTTOM;
  el('line', { x1: f.left, y1: base, x2: f.width - RIGHT, y2: base, class: 'axis' }, f.svg);
  el('line', { x1: f.left, y1: TOP, x2: f.left, y2: base, class: 'axis' }, f.svg);
  text(f, 'Grains of pollen per m³ of air', { x: 2, y: 14, class: 'season-tick season-axis-name' });
  for (const v of [0, top / 2, top])
    text(f, Math.round(v).toLocaleString('en-US'), { x: f.left - 5, y: f.y(v) + FONT / 3, 'text-anchor': 'end' });
  // A month's name under its middle; on a narrow chart every second or third month, so that names keep apart.
  const months: number[] = [];
  for (let i = 0; i < f.days; i++) if (civilDate(from + i)[2] === 1) months.push(i);
  const perMonth = (f.x(f.days) - f.x(0)) / months.length;
  const step = Math.ceil((textWidth('May') + 8) / perMonth);
  months.forEach((i, k) => {
    el('line', { x1: f.x(i), y1: base, x2: f.x(i), y2: base + 4, class: 'axis' }, f.svg);
    if (k % step !== 0) return;
    const mid = (f.x(i) + f.x(months[k + 1] ?? f.days)) / 2;
    text(f, monthName(from + i), { x: mid, y: HEIGHT - 8, 'text-anchor': 'middle' });
  });
}

/** A line's path: a segment per run of days with a value. */
function linePath(f: Frame, values: ReadonlyArray<number | null>): string {
  let [d, pen] = ['', false];
  for (const [i, v] of values.entries()) {
    if (v !== null) d += `${pen ? 'L' : 'M'}${f.x(i).toFixed(1)},${f.y(v).toFixed(1)}`;
    pen = v !== null;
  }
  return d;
}

/** This year's season shaded behind the lines, from its start to its end (or its last day so far). */
function seasonBand(f: Frame, c: CategorySeason): void {
  const start = c.season?.start ?? c.status.start;
  if (!start || (!c.closed && c.status.state === 'not started')) return;
  const from = dayNumber(c.from);
  const end = c.season?.end ?? c.status.end ?? c.through ?? start;
  const [x1, x2] = [f.x(dayNumber(start) - from), f.x(dayNumber(end) - from)];
  el(
    'rect',
    {
      x: x1,
      y: TOP,
      width: Math.max(1, x2 - x1),
      height: HEIGHT - BOTTOM - TOP,
      class: 'season-band',
      fill: THIS_YEAR_COLOUR,
      opacity: 0.1,
    },
    f.svg,
  );
}

/** This year's peak: a dot on its line and its date above, kept inside the chart and below the axis's name. */
function peakMark(f: Frame, c: CategorySeason, line: SeasonLine | undefined): void {
  if (!c.season || !line || (!c.closed && c.status.state === 'not started')) return;
  const i = dayNumber(c.season.peak_date) - dayNumber(c.from);
  const v = line.values[i];
  if (v === null || v === undefined) return;
  const [px, py] = [f.x(i), f.y(v)];
  el('circle', { cx: px, cy: py, r: 4, fill: THIS_YEAR_COLOUR, class: 'season-peak' }, f.svg);
  const label = `${c.closed || c.status.state === 'ended' ? 'peak' : 'worst so far'} ${spokenDate(c.season.peak_date)}`;
  const half = textWidth(label) / 2;
  const x = Math.min(Math.max(px, f.left + 4 + half), f.width - 2 - half);
  // White under the letters, so that the date reads where it crosses a line.
  text(f, label, {
    x,
    y: Math.max(py - 9, TOP - 4),
    'text-anchor': 'middle',
    class: 'season-tick season-peak-label',
    stroke: '#fff',
    'stroke-width': 3,
    'paint-order': 'stroke',
  });
}

/** The chart of a category's year for `width` px, and the lines it draws (for the legend). */
export function seasonChart(rows: readonly DayRow[], c: CategorySeason, width: number): { svg: SVGSVGElement; lines: SeasonLine[] } {
  const lines = seasonLines(rows, c);
  const top = niceTop(Math.max(1, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null))));
  const left = Math.ceil(textWidth(Math.round(top).toLocaleString('en-US')) + 10);
  const from = dayNumber(c.from);
  const days = dayNumber(c.to) - from + 1;
  const name = SEASON_LABEL[c.category] ?? c.category;
  const title = `${name} pollen each day (a week's average), this year against earlier years`;
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${HEIGHT}`,
    width,
    height: HEIGHT,
    role: 'img',
    class: 'chart season-chart',
    'aria-label': title,
  });
  el('title', {}, svg).textContent = title;
  const f: Frame = {
    svg,
    width,
    left,
    days,
    x: (i) => left + (i / days) * (width - RIGHT - left),
    y: (v) => HEIGHT - BOTTOM - (v / top) * (HEIGHT - BOTTOM - TOP),
  };
  seasonBand(f, c);
  axes(f, top, from);
  // The earlier years first, so that this year's line lies on top.
  for (const line of [...lines].reverse())
    el(
      'path',
      {
        d: linePath(f, line.values),
        fill: 'none',
        stroke: line.colour,
        'stroke-width': line.mine ? 3 : 1.5,
        'stroke-dasharray': line.dashed ? '5 3' : '',
        class: line.mine ? 'season-this-year' : 'season-earlier',
        'data-year': line.year,
      },
      svg,
    );
  peakMark(
    f,
    c,
    lines.find((l) => l.mine),
  );
  return { svg, lines };
}
