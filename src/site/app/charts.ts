/** Small SVG charts, drawn by hand for the width they get: a line chart of the three categories over time. */
import { CATEGORIES, type Category, THRESHOLDS } from '../../domain/species/risk.js';
import type { HourRow } from './api.js';
import { el, h } from './dom.js';
import { ORDER, RISK_COLOURS } from './risk.js';

export const SERIES = [
  { key: 'tree', label: 'Tree', colour: '#1b9e77', dash: '' },
  { key: 'grass', label: 'Grass', colour: '#7570b3', dash: '6 3' },
  { key: 'weed', label: 'Weed', colour: '#d95f02', dash: '2 3' },
] as const;

/**
 * The width a chart is drawn at: the room it gets, from 280 to 560 px, so that one unit of its
 * drawing is one CSS pixel and its text keeps its size on a phone (a 560-wide drawing squeezed
 * into 358 px would shrink 12 px labels to 8).
 */
export const chartWidth = (room: number): number => Math.round(Math.min(560, Math.max(280, room || 560)));

/** A chart's legend: each line drawn, its label beside a swatch of its colour, solid or dashed as drawn. */
export function seriesLegend(lines: ReadonlyArray<{ label: string; colour: string; dashed: boolean }>): HTMLUListElement {
  const ul = h('ul', undefined, { class: 'series-legend' });
  for (const line of lines) {
    const swatch = h('span', undefined, { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.borderTop = `3px ${line.dashed ? 'dashed' : 'solid'} ${line.colour}`;
    ul.appendChild(h('li')).append(swatch, line.label);
  }
  return ul;
}

/** The `points` of a polyline through chart coordinates. */
export const polylinePoints = (
  points: ReadonlyArray<readonly [number, number]>,
  x: (d: number) => number,
  y: (v: number) => number,
): string => points.map(([d, v]) => `${x(d).toFixed(1)},${y(v).toFixed(1)}`).join(' ');

/** An hour of a zone as people say it: "3 pm", "12 am"; with its day, "Fri 3 pm". */
const tickFormats = new Map<string, Intl.DateTimeFormat>();
export function localHour(ts: string, zone: string, withDay: boolean): string {
  const key = `${zone}|${withDay}`;
  let format = tickFormats.get(key);
  if (!format)
    tickFormats.set(
      key,
      (format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: 'numeric',
        hour12: true,
        ...(withDay ? { weekday: 'short' } : {}),
      })),
    );
  const parts = Object.fromEntries(format.formatToParts(new Date(ts)).map((p) => [p.type, p.value]));
  return `${withDay ? `${parts.weekday} ` : ''}${parts.hour} ${String(parts.dayPeriod).toLowerCase()}`;
}

/** The category whose hours reach the highest level (tree first on a tie): the one whose NAB levels shade the chart. */
export function leadingCategory(rows: readonly HourRow[]): Category {
  const level = (c: Category) => Math.max(-1, ...rows.map((r) => ORDER.indexOf(r[`risk_${c}`] ?? 'None')));
  return CATEGORIES.reduce<Category>((best, c) => (level(c) > level(best) ? c : best), 'tree');
}

/**
 * A line chart of tree, grass and weed by hour, ticks in the city's local time; dashes tell the
 * lines apart without colour. Behind the lines, the NAB levels of `bands` shade the heights where
 * its pollen is Low, Moderate, High or Very High, each named at the right edge.
 */
export function hourlyChart(rows: readonly HourRow[], title: string, zone: string, width = 560, bands?: Category): SVGSVGElement {
  const [w, h, pad, right] = [width, 230, 40, bands ? 72 : 16];
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: 'img', class: 'chart', 'aria-label': title });
  el('title', {}, svg).textContent = title;
  const max = Math.max(1, ...rows.flatMap((r) => SERIES.map((s) => r[s.key] ?? 0)));
  const x = (i: number) => pad + (rows.length <= 1 ? 0 : (i / (rows.length - 1)) * (w - pad - right));
  const y = (v: number) => h - pad - (Math.min(v, max) / max) * (h - 2 * pad);
  if (bands) shade(svg, bands, max, { left: pad, right: w - right, y });
  el('line', { x1: pad, y1: h - pad, x2: w - right, y2: h - pad, class: 'axis' }, svg);
  el('line', { x1: pad, y1: pad, x2: pad, y2: h - pad, class: 'axis' }, svg);
  el('text', { x: pad - 4, y: pad + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = String(Math.round(max));
  el('text', { x: pad - 4, y: h - pad, 'text-anchor': 'end', class: 'tick' }, svg).textContent = '0';
  // Room for a label every 64 px: six on a 390 px phone, eight on a wide screen.
  const labels = Math.max(2, Math.min(8, Math.floor((w - pad - right) / 64)));
  const withDay = rows.length > 25;
  rows.forEach((r, i) => {
    if (i % Math.max(1, Math.ceil(rows.length / labels)) !== 0) return;
    el('text', { x: x(i), y: h - pad + 18, 'text-anchor': 'middle', class: 'tick hour' }, svg).textContent = localHour(r.ts, zone, withDay);
  });
  for (const s of SERIES) {
    const points = rows
      .map((r, i) => (r[s.key] === null ? null : `${x(i).toFixed(1)},${y(r[s.key]!).toFixed(1)}`))
      .filter((p): p is string => p !== null);
    if (points.length > 0)
      el(
        'polyline',
        {
          points: points.join(' '),
          fill: 'none',
          stroke: s.colour,
          'stroke-width': 2,
          'stroke-dasharray': s.dash,
          class: `series series-${s.key}`,
        },
        svg,
      );
  }
  return svg;
}

/** The NAB levels of a category as bands behind the lines, up to the chart's top, each named. */
function shade(svg: SVGSVGElement, category: Category, max: number, at: { left: number; right: number; y: (v: number) => number }): void {
  const [t1, t2, t3] = THRESHOLDS[category];
  const levels: Array<[label: string, from: number, to: number]> = [
    ['Low', 1, t1],
    ['Moderate', t1, t2],
    ['High', t2, t3],
    ['Very High', t3, Number.POSITIVE_INFINITY],
  ];
  for (const [label, from, to] of levels) {
    if (from >= max) continue;
    const [top, bottom] = [at.y(Math.min(to, max)), at.y(from)];
    el(
      'rect',
      { x: at.left, y: top, width: at.right - at.left, height: bottom - top, fill: RISK_COLOURS[label]!, opacity: 0.18, class: 'band' },
      svg,
    );
    // A band too thin for its name keeps its colour only.
    if (bottom - top >= 14) el('text', { x: at.right + 4, y: (top + bottom) / 2 + 4, class: 'tick band-label' }, svg).textContent = label;
  }
}
