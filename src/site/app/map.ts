/** The US map: pre-projected state shapes from us-atlas, and one keyboard-reachable marker per city. */
import { geoAlbersUsa, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { MapFeature } from './api.js';
import { colourOf, inkOn, riskOfSeverity } from './risk.js';

const SVG = 'http://www.w3.org/2000/svg';
// us-atlas's *-albers-10m files are drawn with exactly this projection, Alaska and Hawaii inset.
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);

/** Draws the states into the map's SVG once. */
export function drawStates(svg: SVGSVGElement, topology: Topology): void {
  const states = topology.objects.states as GeometryCollection;
  const path = geoPath();
  const land = document.createElementNS(SVG, 'path');
  land.setAttribute('d', path(feature(topology, states)) ?? '');
  land.setAttribute('class', 'land');
  const borders = document.createElementNS(SVG, 'path');
  borders.setAttribute('d', path(mesh(topology, states, (a, b) => a !== b)) ?? '');
  borders.setAttribute('class', 'borders');
  svg.prepend(land, borders);
}

/** A marker's radius in the map's units (975 across), as drawn at full width. */
const MARKER_RADIUS = 11;
/** The smallest a marker's circle is drawn, in CSS px: WCAG 2.2's target size (2.5.8) asks at least 24 by 24. */
export const MARKER_MIN_PX = 26;
/** Rounds of pushing overlapping markers apart: enough for the built-in cities' clusters on a phone. */
const SPREAD_ROUNDS = 80;

/** The markers drawn, each with the point it stands for, and the scale they are drawn at. */
const placed: Array<{ marker: SVGGElement; leader: SVGLineElement; at: [number, number] }> = [];
let markerScale = 1;
/** The map's extent in its own units (its viewBox). */
let bounds = { width: 975, height: 610 };

/**
 * Moves markers that would overlap apart until none does (a target under another is no longer
 * 24 px across), each joined to its city's point by a thin line when moved. Deterministic: the
 * same cities and scale give the same places.
 */
function spread(): void {
  const gap = 2 * MARKER_RADIUS * markerScale + 1;
  const points = placed.map((p) => [...p.at] as [number, number]);
  for (let round = 0; round < SPREAD_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < points.length; i++)
      for (let j = i + 1; j < points.length; j++) {
        const [a, b] = [points[i]!, points[j]!];
        let [dx, dy] = [b[0] - a[0], b[1] - a[1]];
        const d = Math.hypot(dx, dy);
        if (d >= gap) continue;
        if (d === 0) [dx, dy] = [Math.cos(j), Math.sin(j)]; // the same point: apart in a direction of their own
        const push = (gap - d) / 2 / (Math.hypot(dx, dy) || 1);
        a[0] -= dx * push;
        a[1] -= dy * push;
        b[0] += dx * push;
        b[1] += dy * push;
        moved = true;
      }
    // Inside the map: a marker pushed past an edge would be cut off.
    for (const q of points) {
      q[0] = Math.min(Math.max(q[0], gap / 2), bounds.width - gap / 2);
      q[1] = Math.min(Math.max(q[1], gap / 2), bounds.height - gap / 2);
    }
    if (!moved) break;
  }
  placed.forEach(({ marker, leader, at }, i) => {
    const [x, y] = points[i]!;
    marker.setAttribute('transform', `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    for (const [k, v] of Object.entries({ x1: at[0], y1: at[1], x2: x, y2: y })) leader.setAttribute(k, v.toFixed(1));
    leader.style.display = Math.hypot(x - at[0], y - at[1]) < 1 ? 'none' : '';
  });
}

/**
 * Scales the markers so that each circle is at least MARKER_MIN_PX across however narrow the map
 * is drawn (on a 390 px phone the map's 975 units shrink to about 360 px), moves apart those that
 * would then overlap, and keeps them so as the map is resized.
 */
export function fitMarkers(svg: SVGSVGElement, layer: SVGGElement): void {
  const rescale = () => {
    const pxPerUnit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (!(pxPerUnit > 0)) return;
    bounds = { width: svg.viewBox.baseVal.width, height: svg.viewBox.baseVal.height };
    markerScale = Math.max(1, MARKER_MIN_PX / (2 * MARKER_RADIUS * pxPerUnit));
    layer.style.setProperty('--marker-scale', String(markerScale));
    spread();
  };
  rescale();
  new ResizeObserver(rescale).observe(svg);
}

export interface MarkerInfo {
  slug: string;
  name: string;
}

/** Replaces the markers with the features of a date; selecting one calls `onSelect`. */
export function drawMarkers(
  layer: SVGGElement,
  features: readonly MapFeature[],
  names: Map<string, string>,
  onSelect: (slug: string) => void,
): void {
  layer.replaceChildren();
  placed.length = 0;
  // Leaders first, so that every marker is drawn above every line.
  const leaders = document.createElementNS(SVG, 'g');
  leaders.setAttribute('class', 'leaders');
  layer.append(leaders);
  for (const f of features) {
    // Exactly two numbers, longitude first (the schema's minItems and maxItems).
    const at = projection(f.geometry.coordinates as [number, number]);
    if (!at) continue;
    const p = f.properties;
    const risk = riskOfSeverity(p.sev_total);
    const name = names.get(p.city) ?? p.city;
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('class', 'marker');
    g.setAttribute('role', 'button');
    g.setAttribute('tabindex', '0');
    g.setAttribute('data-city', p.city);
    g.setAttribute('data-risk', risk);
    g.setAttribute(
      'aria-label',
      `${name}: highest risk ${risk} (tree ${p.risk_tree ?? 'no data'}, grass ${p.risk_grass ?? 'no data'}, weed ${p.risk_weed ?? 'no data'})`,
    );
    const circle = document.createElementNS(SVG, 'circle');
    circle.setAttribute('r', String(MARKER_RADIUS));
    circle.setAttribute('fill', colourOf(risk));
    const letter = document.createElementNS(SVG, 'text');
    letter.setAttribute('text-anchor', 'middle');
    letter.setAttribute('dy', '4');
    letter.setAttribute('fill', inkOn(risk));
    letter.setAttribute('aria-hidden', 'true');
    letter.textContent = String(p.sev_total); // the level as text too, not colour alone
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${name}: ${risk}`;
    // The circle and its digit scale together so that a marker is never smaller than a touch target (fitMarkers).
    const body = document.createElementNS(SVG, 'g');
    body.setAttribute('class', 'marker-body');
    body.append(circle, letter);
    g.append(title, body);
    g.addEventListener('click', () => onSelect(p.city));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onSelect(p.city);
      }
    });
    layer.append(g);
    const leader = document.createElementNS(SVG, 'line');
    leader.setAttribute('class', 'leader');
    leaders.append(leader);
    placed.push({ marker: g, leader, at });
  }
  spread();
}
