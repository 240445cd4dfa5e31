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
    g.setAttribute('transform', `translate(${at[0].toFixed(1)},${at[1].toFixed(1)})`);
    const circle = document.createElementNS(SVG, 'circle');
    circle.setAttribute('r', '11');
    circle.setAttribute('fill', colourOf(risk));
    const letter = document.createElementNS(SVG, 'text');
    letter.setAttribute('text-anchor', 'middle');
    letter.setAttribute('dy', '4');
    letter.setAttribute('fill', inkOn(risk));
    letter.setAttribute('aria-hidden', 'true');
    letter.textContent = String(p.sev_total); // the level as text too, not colour alone
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${name}: ${risk}`;
    g.append(title, circle, letter);
    g.addEventListener('click', () => onSelect(p.city));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onSelect(p.city);
      }
    });
    layer.append(g);
  }
}
