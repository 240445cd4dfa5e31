/**
 * The forecast skill's two charts, drawn for the width they get (280 to 560 px): the score of
 * levels of the forecast and the references by days ahead, each with its 95% interval; and apart,
 * on a scale of its own, the outlook's probability skill against the usual for the season. Every
 * word stays inside the drawing and clear of the others: captions wrap, and the days-ahead labels
 * thin out where the days are too close for each to have its own.
 */
import { scoreText as score } from '../../domain/verification/score-text.js';
import type { CategorySkill, SkillScores } from '../../domain/verification/skill-schemas.js';
import { capitalized } from '../../domain/words.js';
import { el } from './dom.js';

/**
 * The lines of the chart: Gerrity's score for the forecast and the references (the score for
 * ordered categories, that charges a miss by more levels more: Gerrity 1992, recommended over
 * Heidke's by Livezey, https://ams.confex.com/ams/84Annual/techprogram/paper_68014.htm), each with
 * its interval as a bar. Okabe and Ito's colours, told apart in every common colour-vision
 * deficiency (https://jfly.uni-koeln.de/color/), each 3:1 or more on white, and a dash each besides.
 */
export const LINES = [
  { key: 'forecast', label: 'The forecast', colour: '#0072b2', dash: '', table: (w: SkillScores) => w.forecast },
  { key: 'persistence', label: "Yesterday's level", colour: '#d55e00', dash: '6 3', table: (w: SkillScores) => w.persistence },
  { key: 'climatology', label: 'The usual for the season', colour: '#009e73', dash: '2 3', table: (w: SkillScores) => w.climatology },
] as const;

type Point = { lead: number; v: number; low: number; high: number };
type Line = { key: string; label: string; colour: string; dash: string; points: Point[] };

/** Words in lines of at most `width` characters (a longer word alone on its line). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** About the widest a character of the charts' 12 px text is on average (bold), to wrap and space it. */
const CHAR_PX = 7;
/** A caption's line: 12 px text, a little apart, so that two lines' boxes do not touch. */
const LINE_PX = 15;
/** Room a days-ahead label of two digits needs, with a gap to the next. */
const TICK_PX = 2 * CHAR_PX + 8;

/**
 * The leads labelled under the axis: every one where they have room, else every second (or
 * third...), so that two-digit labels never touch at 280 px.
 */
export function labelledLeads(lastLead: number, plotWidth: number): number[] {
  const step = Math.max(1, Math.ceil(TICK_PX / (plotWidth / lastLead)));
  return Array.from({ length: Math.floor(lastLead / step) + 1 }, (_, i) => i * step);
}

/** The axes, their labels and the caption's lines of a chart of scores by days ahead. */
function axes(
  svg: SVGSVGElement,
  frame: { w: number; ht: number; pad: number; top: number; low: number; lastLead: number },
  x: (lead: number) => number,
  y: (v: number) => number,
): void {
  const { w, ht, pad, top, low, lastLead } = frame;
  el('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: 'axis' }, svg);
  el('line', { x1: pad, y1: top, x2: pad, y2: ht - pad, class: 'axis' }, svg);
  for (const v of low < 0 ? [1, 0, low] : [1, 0.5, 0])
    el('text', { x: pad - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = String(Math.round(v * 100) / 100);
  for (const lead of labelledLeads(lastLead, w - 2 * pad))
    el('text', { x: x(lead), y: ht - pad + 14, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = String(lead);
  el('text', { x: w / 2, y: ht - 6, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = 'days ahead';
}

/** Each line with its points and interval bars, a little apart from the others so that overlapping intervals stay readable. */
function drawLines(svg: SVGSVGElement, lines: readonly Line[], x: (lead: number) => number, y: (v: number) => number): void {
  lines.forEach((l, n) => {
    const g = el('g', { class: `skill-line skill-${l.key}`, stroke: l.colour, fill: l.colour }, svg);
    const dx = (n - (lines.length - 1) / 2) * 5;
    const points = l.points.map((p) => `${(x(p.lead) + dx).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
    el('polyline', { points, fill: 'none', 'stroke-width': 2, 'stroke-dasharray': l.dash }, g);
    for (const p of l.points) {
      const cx = x(p.lead) + dx;
      el('line', { x1: cx, x2: cx, y1: y(p.low), y2: y(p.high), 'stroke-width': 1.5, class: 'skill-interval' }, g);
      el('circle', { cx: cx.toFixed(1), cy: y(p.v).toFixed(1), r: 3, 'data-lead': p.lead, 'data-score': p.v }, g);
    }
  });
}

/**
 * A small chart of scores by days ahead, each with its interval; leads from `beyond` on shaded,
 * and said so in a line of their own under the caption (beside the shading it would run out of a
 * narrow chart).
 */
function leadChart(
  title: string,
  caption: string,
  lines: readonly Line[],
  beyond: { from: number; label: string } | null,
  width: number,
  lastLead = 7,
): SVGSVGElement {
  const w = Math.min(420, width);
  const room = Math.max(20, Math.floor((w - 8) / CHAR_PX));
  const captionLines = wrapWords(caption, room).map((text) => ({ text, bold: true }));
  if (beyond) captionLines.push(...wrapWords(`Shaded: ${beyond.label}`, room).map((text) => ({ text, bold: false })));
  const pad = 40;
  const top = Math.max(pad, LINE_PX * captionLines.length + 18);
  const ht = 170 + top;
  const values = lines.flatMap((l) => l.points.flatMap((p) => [p.low, p.high, p.v]));
  // Scores below 0 (worse than chance, or than the usual) widen the axis by quarters.
  const low = Math.min(0, Math.floor(Math.min(0, ...values) * 4) / 4);
  const x = (lead: number) => pad + (lead / lastLead) * (w - 2 * pad);
  const y = (v: number) => ht - pad - ((v - low) / (1 - low)) * (ht - pad - top);
  const summary = lines
    .map((l) => `${l.label}: ${l.points.map((p) => `day ${p.lead} ${score(p.v)} (${score(p.low)} to ${score(p.high)})`).join(', ')}`)
    .join('. ');
  const svg = el('svg', { viewBox: `0 0 ${w} ${ht}`, role: 'img', class: 'chart skill-chart', 'aria-label': title });
  el('title', {}, svg).textContent = title;
  el('desc', {}, svg).textContent = summary ? `${summary}.` : 'No scores yet.';
  if (beyond) {
    const from = beyond.from - 0.5;
    el('rect', { x: x(from), y: top, width: x(lastLead) - x(from), height: ht - pad - top, class: 'skill-outlook-days' }, svg);
  }
  captionLines.forEach((line, i) => {
    el('text', { x: 4, y: 14 + LINE_PX * i, class: line.bold ? 'tick skill-caption' : 'tick skill-shaded' }, svg).textContent = line.text;
  });
  axes(svg, { w, ht, pad, top, low, lastLead }, x, y);
  drawLines(svg, lines, x, y);
  return svg;
}

/** The furthest lead the answer scores: the outlook's 7, or a provider's further one. */
const lastLeadOf = (c: CategorySkill): number => Math.max(7, ...c.leads.map((l) => l.lead));

/** The forecast's and the references' scores of levels by days ahead over the window, with their intervals. */
export function skillChart(c: CategorySkill, width = 420): { svg: SVGSVGElement; drawn: Array<(typeof LINES)[number]> } {
  const reach = c.leads.filter((l) => l.window.forecast !== null).map((l) => l.lead);
  const lines = LINES.map((l) => ({
    ...l,
    points: c.leads.flatMap((lead): Point[] => {
      const t = l.table(lead.window);
      return t?.gerrity != null && t.gerrity_interval
        ? [{ lead: lead.lead, v: t.gerrity, low: t.gerrity_interval[0]!, high: t.gerrity_interval[1]! }]
        : [];
    }),
  })).filter((l) => l.points.length > 0);
  const lastLead = lastLeadOf(c);
  const furthest = reach.length > 0 ? Math.max(...reach) : null;
  const svg = leadChart(
    `Score of levels of the ${c.category} forecast, yesterday's level and the usual for the season, by days ahead, with 95% intervals (1 perfect, 0 no skill)`,
    `${capitalized(c.category)}: score of levels by days ahead (1 perfect, 0 no skill)`,
    lines,
    furthest !== null && furthest < lastLead
      ? { from: furthest + 1, label: `the forecast reaches ${furthest} day${furthest === 1 ? '' : 's'} ahead` }
      : null,
    width,
    lastLead,
  );
  return { svg, drawn: lines };
}

/** The outlook's probability skill against the usual for the season by days ahead, with its intervals. */
export function outlookChart(c: CategorySkill, width = 420): SVGSVGElement | null {
  const points = c.leads.flatMap((lead): Point[] => {
    const o = lead.window.outlook;
    return o.rpss !== null && o.rpss_interval ? [{ lead: lead.lead, v: o.rpss, low: o.rpss_interval[0]!, high: o.rpss_interval[1]! }] : [];
  });
  if (points.length === 0) return null;
  return leadChart(
    `Probability skill of the ${c.category} outlook against the usual for the season, by days ahead, with 95% intervals (above 0: better than the usual)`,
    'The outlook by days ahead (above 0: better than the usual)',
    [{ key: 'outlook', label: 'The outlook', colour: '#cc79a7', dash: '8 3 2 3', points }],
    null,
    width,
    lastLeadOf(c),
  );
}
