/**
 * The US map: pre-projected state shapes from us-atlas, and a keyboard-reachable marker per city,
 * or per group of cities whose markers would overlap at the width drawn (a phone, or a deploy of
 * hundreds of cities), which opens the list of them. No marker lies over another. Markers are
 * coloured by the worst category or by one, and a forecast's are dashed and say so.
 */
import { geoAlbersUsa, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Graded } from '../../domain/species/risk.js';
import type { MapFeature } from './api.js';
import { CIRCLE_BOX, groupBox, MARKER_MIN_PX, MARKER_RADIUS, PILL, pillText, pillWidth, spread } from './map-layout.js';
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

/** The categories markers can be coloured by; without one, by the worst of them. */

/** A feature drawn: the map's, or the forecast map's, which says `forecast: true`. */
export type DrawnFeature = MapFeature & { properties: MapFeature['properties'] & { forecast?: boolean } };

/** The scale markers are drawn at, and the map's extent in its own units (its viewBox). */
let markerScale = 1;
let bounds = { width: 975, height: 610 };

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
    // Another width groups other cities: the markers are laid out again.
    layout();
  };
  rescale();
  new ResizeObserver(rescale).observe(svg);
}

/** A city on the map: its feature, its point in the map's units, its name, its level and whether it is forecast. */
interface CityPoint {
  slug: string;
  name: string;
  at: [number, number];
  sev: number;
  label: string;
  forecast: boolean;
}

/** A city as a list item: a button with its name and level in words, the level's colour at its edge. */
export function cityItem(slug: string, name: string, sev: number, onSelect: (slug: string) => void): HTMLLIElement {
  const risk = riskOfSeverity(sev);
  const li = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.city = slug;
  button.textContent = `${name}: ${risk}`;
  button.style.borderLeftColor = colourOf(risk);
  button.addEventListener('click', () => onSelect(slug));
  li.append(button);
  return li;
}

/** The cities of the day drawn, and what selecting one does. */
let cities: CityPoint[] = [];
let layerOf: SVGGElement | undefined;
let selectCity: (slug: string) => void = () => undefined;
/** The category the markers are coloured by, if one. */
let colouredBy: Graded | undefined;

/**
 * Cities whose markers would overlap at the scale drawn, grouped: each city, highest level first
 * (then by name), joins the first group whose first city is closer than a marker's width, or
 * starts a group. Deterministic, so the same cities at the same width group the same way.
 */
export function groupsOf<P extends { at: [number, number]; sev: number; name: string }>(points: readonly P[], gap: number): P[][] {
  const groups: P[][] = [];
  const ordered = [...points].sort((a, b) => b.sev - a.sev || a.name.localeCompare(b.name, 'en'));
  for (const p of ordered) {
    const near = groups.find(([first]) => dist(first!.at, p.at) < gap);
    if (near) near.push(p);
    else groups.push([p]);
  }
  return groups;
}

/**
 * A marker's outline: a button with its label, a circle in the level's colour and the level's
 * digit; a forecast's circle is dashed, and its label says so.
 */
function markerShell(label: string, sev: number, title: string, forecast: boolean): { g: SVGGElement; body: SVGGElement } {
  const risk = riskOfSeverity(sev);
  const g = document.createElementNS(SVG, 'g');
  g.setAttribute('class', forecast ? 'marker forecast' : 'marker');
  g.setAttribute('role', 'button');
  g.setAttribute('tabindex', '0');
  g.setAttribute('data-risk', risk);
  g.setAttribute('aria-label', label);
  const circle = document.createElementNS(SVG, 'circle');
  circle.setAttribute('r', String(MARKER_RADIUS));
  circle.setAttribute('fill', colourOf(risk));
  if (forecast) circle.setAttribute('stroke-dasharray', '4 2.5');
  const digit = document.createElementNS(SVG, 'text');
  digit.setAttribute('text-anchor', 'middle');
  digit.setAttribute('dy', '4');
  digit.setAttribute('fill', inkOn(risk));
  digit.setAttribute('aria-hidden', 'true');
  digit.textContent = String(sev); // the level as text too, not colour alone
  const tip = document.createElementNS(SVG, 'title');
  tip.textContent = title;
  // The circle and its text scale together so that a marker is never smaller than a touch target (fitMarkers).
  const body = document.createElementNS(SVG, 'g');
  body.setAttribute('class', 'marker-body');
  body.append(circle, digit);
  g.append(tip, body);
  return { g, body };
}

/** Calls `act` on a click, Enter or Space, as a button does. */
function onActivate(g: SVGGElement, act: () => void): void {
  g.addEventListener('click', act);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      act();
    }
  });
}

/** What a marker's level is of: the category coloured by, or the worst of all. */
const levelWords = (): string => (colouredBy ? `${colouredBy} risk` : 'highest risk');

/** A group's marker: its highest level, how many cities it holds in a pill, and a tap that lists them. */
function groupMarker(group: readonly CityPoint[], at: [number, number]): SVGGElement {
  const near = [...group].sort((a, b) => dist(a.at, at) - dist(b.at, at))[0]!;
  const forecast = group.every((c) => c.forecast);
  const what = `${group.length} cities around ${near.name}`;
  const { g, body } = markerShell(
    `${what}${forecast ? ', forecast' : ''}: ${levelWords()} ${riskOfSeverity(group[0]!.sev)}. Opens the list of them.`,
    group[0]!.sev,
    `${what}: select to list them`,
    forecast,
  );
  g.classList.add('group');
  g.setAttribute('data-cities', group.map((c) => c.slug).join(','));
  g.setAttribute('aria-haspopup', 'true');
  const text = pillText(group.length);
  const pill = document.createElementNS(SVG, 'rect');
  pill.setAttribute('class', 'count');
  const box = { x: PILL.x, y: PILL.y, width: pillWidth(text), height: PILL.height, rx: PILL.height / 2 };
  for (const [k, v] of Object.entries(box)) pill.setAttribute(k, String(v));
  // Presentation attributes, so the pill needs no rule of the page's style sheet.
  for (const [k, v] of Object.entries({ fill: '#ffffff', stroke: '#1a1a1a', 'stroke-width': '1' })) pill.setAttribute(k, v);
  const count = document.createElementNS(SVG, 'text');
  count.setAttribute('class', 'count');
  count.setAttribute('text-anchor', 'middle');
  for (const [k, v] of Object.entries({ x: PILL.x + box.width / 2, y: PILL.y + PILL.height - 3, fill: '#1a1a1a' }))
    count.setAttribute(k, String(v));
  count.style.fontSize = '11px';
  count.setAttribute('aria-hidden', 'true');
  count.textContent = text;
  body.append(pill, count);
  onActivate(g, () => openGroup(what, group, g));
  return g;
}

const dist = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

/**
 * The list a group's marker opens, under the map: each of its cities as a button (name and level,
 * as the city list has them) that opens the city; Escape or "Close" returns to the marker.
 */
function openGroup(what: string, group: readonly CityPoint[], from: SVGGElement): void {
  const figure = layerOf?.closest('figure');
  if (!figure) return;
  let box = document.getElementById('group-list');
  if (!box) {
    box = document.createElement('div');
    box.id = 'group-list';
    box.setAttribute('role', 'region');
    box.setAttribute('aria-labelledby', 'group-title');
    figure.after(box);
  }
  const close = () => {
    box.hidden = true;
    from.focus();
  };
  const title = document.createElement('h3');
  title.id = 'group-title';
  title.tabIndex = -1;
  title.textContent = what;
  const list = document.createElement('ul');
  const open = (slug: string) => {
    box.hidden = true;
    selectCity(slug);
  };
  for (const c of [...group].sort((a, b) => a.name.localeCompare(b.name, 'en'))) list.append(cityItem(c.slug, c.name, c.sev, open));
  const closer = document.createElement('button');
  closer.type = 'button';
  closer.className = 'close';
  closer.textContent = 'Close';
  closer.addEventListener('click', close);
  box.onkeydown = (e) => {
    if (e.key === 'Escape') close();
  };
  box.replaceChildren(title, list, closer);
  box.hidden = false;
  title.focus();
}

/**
 * The groups of the cities and where their markers go: grouped within a marker's width, then,
 * where the map cannot hold their markers apart (hundreds of cities on a phone), the markers that
 * still overlap merged, until none overlaps another. Each try joins at least two groups, so it
 * ends, at worst with one group.
 */
function arrange(): { groups: CityPoint[][]; centres: Array<[number, number]>; points: Array<[number, number]> } {
  let groups = groupsOf(cities, 2 * MARKER_RADIUS * markerScale);
  for (;;) {
    const centres = groups.map((g): [number, number] => [
      g.reduce((s, c) => s + c.at[0], 0) / g.length,
      g.reduce((s, c) => s + c.at[1], 0) / g.length,
    ]);
    const spots = groups.map((g, i) => ({ at: centres[i]!, box: g.length === 1 ? CIRCLE_BOX : groupBox(g.length) }));
    const { points, left } = spread(spots, { scale: markerScale, ...bounds });
    if (left.length === 0) return { groups, centres, points };
    groups = merged(groups, left);
  }
}

/**
 * Groups with overlapping pairs joined, the most overlapping first, each group joining one other
 * at most (so that a crowded region is merged a step at a time, not into one group at once), each
 * group highest level first, then by name.
 */
function merged(groups: readonly CityPoint[][], pairs: ReadonlyArray<readonly [number, number, number, number]>): CityPoint[][] {
  const into = groups.map((_, i) => i);
  const used = new Set<number>();
  for (const [i, j] of [...pairs].sort((a, b) => b[2] * b[3] - a[2] * a[3] || a[0] - b[0] || a[1] - b[1])) {
    if (used.has(i) || used.has(j)) continue;
    used.add(i).add(j);
    into[j] = i;
  }
  const joined = new Map<number, CityPoint[]>();
  for (const [i, g] of groups.entries()) joined.set(into[i]!, [...(joined.get(into[i]!) ?? []), ...g]);
  return [...joined.values()].map((g) => g.sort((a, b) => b.sev - a.sev || a.name.localeCompare(b.name, 'en')));
}

/** Draws the cities as markers at the scale drawn: one per city, or one per group of those that would overlap. */
function layout(): void {
  const layer = layerOf;
  if (!layer) return;
  layer.replaceChildren();
  // Leaders first, so that every marker is drawn above every line.
  const leaders = document.createElementNS(SVG, 'g');
  leaders.setAttribute('class', 'leaders');
  layer.append(leaders);
  const { groups, centres, points } = arrange();
  groups.forEach((group, i) => {
    const [at, [x, y]] = [centres[i]!, points[i]!];
    let marker: SVGGElement;
    if (group.length === 1) {
      const c = group[0]!;
      marker = markerShell(c.label, c.sev, `${c.name}: ${riskOfSeverity(c.sev)}${c.forecast ? ' (forecast)' : ''}`, c.forecast).g;
      marker.setAttribute('data-city', c.slug);
      onActivate(marker, () => selectCity(c.slug));
    } else marker = groupMarker(group, at);
    marker.setAttribute('transform', `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    layer.append(marker);
    // A marker moved off its point is joined to it by a thin line.
    const leader = document.createElementNS(SVG, 'line');
    leader.setAttribute('class', 'leader');
    for (const [k, v] of Object.entries({ x1: at[0], y1: at[1], x2: x, y2: y })) leader.setAttribute(k, v.toFixed(1));
    leader.style.display = Math.hypot(x - at[0], y - at[1]) < 1 ? 'none' : '';
    leaders.append(leader);
  });
}

/**
 * Replaces the markers with the features of a date (or of the forecast map, drawn dashed and
 * labelled forecast); selecting a city calls `onSelect`. `colourBy` colours each marker by that
 * category's level; without it, by the worst of all.
 */
export function drawMarkers(
  layer: SVGGElement,
  features: readonly DrawnFeature[],
  names: Map<string, string>,
  onSelect: (slug: string) => void,
  colourBy?: Graded,
): void {
  layerOf = layer;
  selectCity = onSelect;
  colouredBy = colourBy;
  document.getElementById('group-list')?.setAttribute('hidden', '');
  cities = features.flatMap((f) => {
    // Exactly two numbers, longitude first (the schema's minItems and maxItems).
    const at = projection(f.geometry.coordinates as [number, number]);
    if (!at) return [];
    const p = f.properties;
    const name = names.get(p.city) ?? p.city;
    const sev = colourBy ? p[`sev_${colourBy}`] : p.sev_total;
    const forecast = p.forecast === true;
    const levels = `tree ${p.risk_tree ?? 'no data'}, grass ${p.risk_grass ?? 'no data'}, weed ${p.risk_weed ?? 'no data'}, ragweed ${p.risk_ragweed ?? 'no data'}`;
    const label = `${name}${forecast ? ', forecast' : ''}: ${levelWords()} ${riskOfSeverity(sev)} (${levels})`;
    return [{ slug: p.city, name, at: at as [number, number], sev, label, forecast }];
  });
  layout();
}
