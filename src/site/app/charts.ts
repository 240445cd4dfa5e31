/** Small SVG charts, drawn by hand: a line chart of the three categories over time. */
import type { HourRow } from './api.js';
import { el, h } from './dom.js';

export const SERIES = [
  { key: 'tree', label: 'Tree', colour: '#1b9e77', dash: '' },
  { key: 'grass', label: 'Grass', colour: '#7570b3', dash: '6 3' },
  { key: 'weed', label: 'Weed', colour: '#d95f02', dash: '2 3' },
] as const;

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

/** Hour (and day of the month) of an instant in a zone, for the chart's ticks. */
const tickFormats = new Map<string, Intl.DateTimeFormat>();
function localTick(ts: string, zone: string, withDay: boolean): string {
  const key = `${zone}|${withDay}`;
  let format = tickFormats.get(key);
  if (!format)
    tickFormats.set(
      key,
      (format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: '2-digit',
        hourCycle: 'h23',
        ...(withDay ? { day: '2-digit' } : {}),
      })),
    );
  const parts = Object.fromEntries(format.formatToParts(new Date(ts)).map((p) => [p.type, p.value]));
  return `${parts.hour}h${withDay ? ` ${parts.day}` : ''}`;
}

/** A line chart of tree, grass and weed by hour, ticks in the city's local time; dashes tell the lines apart without colour. */
export function hourlyChart(rows: readonly HourRow[], title: string, zone: string): SVGSVGElement {
  const [w, h, pad] = [560, 220, 36];
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', class: 'chart', 'aria-label': title });
  el('title', {}, svg).textContent = title;
  const max = Math.max(1, ...rows.flatMap((r) => SERIES.map((s) => r[s.key] ?? 0)));
  const x = (i: number) => pad + (rows.length <= 1 ? 0 : (i / (rows.length - 1)) * (w - 2 * pad));
  const y = (v: number) => h - pad - (v / max) * (h - 2 * pad);
  el('line', { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: 'axis' }, svg);
  el('line', { x1: pad, y1: pad, x2: pad, y2: h - pad, class: 'axis' }, svg);
  el('text', { x: pad - 4, y: pad + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = String(Math.round(max));
  el('text', { x: pad - 4, y: h - pad, 'text-anchor': 'end', class: 'tick' }, svg).textContent = '0';
  rows.forEach((r, i) => {
    if (i % Math.max(1, Math.ceil(rows.length / 8)) !== 0) return;
    el('text', { x: x(i), y: h - pad + 16, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = localTick(
      r.ts,
      zone,
      rows.length > 25,
    );
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
