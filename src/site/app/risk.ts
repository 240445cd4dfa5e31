/** Risk colours (ColorBrewer YlOrRd, readable with every common colour-vision deficiency) and labels. */
import type { Risk } from './api.js';
import { h } from './dom.js';

export const RISK_COLOURS: Record<string, string> = {
  none: '#d9d9d9',
  None: '#f1eef6',
  Low: '#fed976',
  Moderate: '#fd8d3c',
  High: '#e31a1c',
  'Very High': '#800026',
};
export const ORDER = ['None', 'Low', 'Moderate', 'High', 'Very High'] as const;

/** The label of a severity 0..4. */
export const riskOfSeverity = (sev: number): Exclude<Risk, null> => ORDER[Math.max(0, Math.min(4, sev))]!;

/** The colour of a risk; grey for no data. */
export const colourOf = (risk: Risk): string => (risk === null ? RISK_COLOURS.none! : RISK_COLOURS[risk]!);

/** Text colour that stays readable on a risk colour. */
export const inkOn = (risk: Risk): string => (risk === 'High' || risk === 'Very High' ? '#ffffff' : '#1a1a1a');

/** The worst of several labels. */
export function worst(...risks: Risk[]): Risk {
  let best = -1;
  for (const r of risks) if (r !== null) best = Math.max(best, ORDER.indexOf(r));
  return best < 0 ? null : ORDER[best]!;
}

/** A level in words on its colour: the word says it, the colour repeats it. */
export function badge(risk: Risk): HTMLSpanElement {
  const span = h('span', risk ?? 'no data', { class: 'badge' });
  span.style.background = colourOf(risk);
  span.style.color = inkOn(risk);
  return span;
}
