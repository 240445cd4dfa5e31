/**
 * The city panel's forecast skill, beside the forecast (/api/forecast-skill, docs/data.md,
 * "Forecast skill"): one sentence on how often High days were forecast a day ahead over the
 * trailing window, against persistence, and a small chart of skill by lead day. Every number is
 * the API's; the page only picks the category and says it in words.
 */
import type { CategorySkill, SkillScores } from '../../domain/skill-schemas.js';
import type { DayRow, ForecastDay, ForecastSkill, SeasonAnswer } from './api.js';
import { polylinePoints, seriesLegend } from './charts.js';
import { el, h } from './dom.js';
import { ORDER } from './risk.js';

type Levels = Pick<ForecastDay | DayRow, 'peak_risk_tree' | 'peak_risk_grass' | 'peak_risk_weed'>;
const NAMES = { tree: 'tree', grass: 'grass', weed: 'weed' } as const;

/** The lead the sentence speaks of: the next day, the one people plan for. */
const LEAD = 1;

const windowAt = (c: CategorySkill, lead: number): SkillScores | undefined => c.leads.find((l) => l.lead === lead)?.window;

/**
 * The category the sentence speaks of, of tree, grass and weed (ragweed is part of weed): the one
 * at the highest level today, since that is the forecast a person is reading the panel for; on a
 * tie (a quiet day), the one whose season is under way; then the one with the most High days
 * observed in the window, so that the sentence has days to count rather than none.
 */
export function skillCategory(
  skill: ForecastSkill,
  today: Levels | undefined,
  seasons: SeasonAnswer | undefined,
): CategorySkill | undefined {
  const inSeason = new Set(seasons?.categories.filter((c) => c.status.state === 'in season').map((c) => c.category));
  const rank = (c: CategorySkill) => {
    const high = windowAt(c, LEAD)?.forecast.high;
    const level = today?.[`peak_risk_${c.category as keyof typeof NAMES}`];
    return [level ? ORDER.indexOf(level) : -1, inSeason.has(c.category) ? 1 : 0, high ? high.hits + high.misses : 0];
  };
  const ranked = skill.categories.filter((c) => c.category in NAMES).map((c) => ({ c, r: rank(c) }));
  ranked.sort((a, b) => b.r[0]! - a.r[0]! || b.r[1]! - a.r[1]! || b.r[2]! - a.r[2]!);
  return ranked[0]?.c;
}

/**
 * `hits` of `of` days as people say it: "7 times in 10", never "10 in 10" unless every one nor
 * "0 in 10" unless none, which rounding alone would say of 30 of 31.
 */
const inTen = (hits: number, of: number) => Math.min(hits < of ? 9 : 10, Math.max(hits > 0 ? 1 : 0, Math.round((hits / of) * 10)));
const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/**
 * The sentence: how often the High-or-above days of the window were forecast a day ahead, and
 * persistence's, in tenths (or as a count when there are fewer than 10 such days); or, plainly,
 * why it cannot be said (the API's reason). On the sample provider the forecast's errors are
 * simulated, which the sentence says first, so that it is not read as evidence.
 */
export function skillSentence(skill: ForecastSkill, c: CategorySkill): string {
  const name = c.category;
  const w = windowAt(c, LEAD);
  const over = `${skill.simulated ? "Simulated skill (the sample provider's forecast errors are invented): over" : 'Over'} the last ${skill.window.days} days`;
  if (!w) return `${over}, no ${name} forecast a day ahead has been scored here.`;
  const { forecast: f, persistence: p } = w;
  if (f.reason) return `${over}, the ${name} forecast a day ahead cannot be scored here yet: ${f.reason}.`;
  const observed = f.high.hits + f.high.misses;
  if (f.pod === null || observed === 0)
    return `${over}, the ${name} forecast a day ahead had no High day here to be checked on: ${f.score_reasons.pod ?? 'no score'}.`;
  // Persistence is scored on the same days, so the same High days; its own count all the same.
  const persistence = (few: boolean) =>
    p.pod === null
      ? ''
      : `; persistence (the last observed day's level) ${few ? `on ${p.high.hits}` : `${inTen(p.high.hits, p.high.hits + p.high.misses)} in 10`}`;
  if (observed < 10)
    return `${over}, High-or-above ${name} days here were forecast a day ahead on ${f.high.hits} of ${days(observed)}${persistence(true)}.`;
  return `${over}, High-or-above ${name} days here were forecast a day ahead ${inTen(f.high.hits, observed)} times in 10 (${f.high.hits} of ${days(observed)})${persistence(false)}.`;
}

/**
 * The lines of the chart: Gerrity's score for the forecast and the references (the score for
 * ordered categories, that charges a miss by more levels more: Gerrity 1992, recommended over
 * Heidke's by Livezey, https://ams.confex.com/ams/84Annual/techprogram/paper_68014.htm), and the
 * outlook's ranked probability skill against climatology. Okabe and Ito's colours, told apart in
 * every common colour-vision deficiency (https://jfly.uni-koeln.de/color/), each 3:1 or more on
 * white, and a dash each besides.
 */
const LINES = [
  { key: 'forecast', label: 'Forecast', colour: '#0072b2', dash: '', score: (w: SkillScores) => w.forecast.gerrity },
  { key: 'persistence', label: 'Persistence', colour: '#d55e00', dash: '6 3', score: (w: SkillScores) => w.persistence.gerrity },
  { key: 'climatology', label: 'Climatology', colour: '#009e73', dash: '2 3', score: (w: SkillScores) => w.climatology.gerrity },
  {
    key: 'outlook',
    label: 'Outlook (probability skill against climatology)',
    colour: '#cc79a7',
    dash: '8 3 2 3',
    score: (w: SkillScores) => w.outlook.rpss,
  },
] as const;

/** Skill by lead day 0..7 over the window: each line where the API gives a score, the days only the outlook reaches shaded. */
export function skillChart(c: CategorySkill): { svg: SVGSVGElement; drawn: (typeof LINES)[number][] } {
  // Narrower than the other charts' 560: its few ticks stay readable at a phone's width.
  const [w, ht, pad] = [420, 210, 40];
  const title = `Gerrity skill score of the ${c.category} forecast, persistence and climatology, and the outlook's ranked probability skill, by days ahead (1 perfect, 0 no skill)`;
  const lines = LINES.map((l) => ({
    ...l,
    points: c.leads.flatMap((lead): Array<[number, number]> => {
      const v = l.score(lead.window);
      return v === null ? [] : [[lead.lead, v]];
    }),
  })).filter((l) => l.points.length > 0);
  // Scores below 0 (worse than chance, or than climatology) widen the axis by quarters.
  const low = Math.min(0, Math.floor(Math.min(...lines.flatMap((l) => l.points.map((p) => p[1]))) * 4) / 4);
  const x = (lead: number) => pad + (lead / 7) * (w - 2 * pad);
  const y = (v: number) => ht - pad - ((v - low) / (1 - low)) * (ht - 2 * pad);
  const summary = lines.map((l) => `${l.label}: ${l.points.map(([lead, v]) => `day ${lead} ${v.toFixed(2)}`).join(', ')}`).join('. ');
  const svg = el('svg', { viewBox: `0 0 ${w} ${ht}`, role: 'img', class: 'chart skill-chart', 'aria-label': title });
  el('title', {}, svg).textContent = title;
  el('desc', {}, svg).textContent = summary ? `${summary}.` : 'No scores yet.';
  const beyond = c.leads.filter((l) => l.window.reference_days === 'outlook').map((l) => l.lead);
  if (beyond.length > 0) {
    const [from, to] = [Math.min(...beyond) - 0.5, Math.max(...beyond)];
    el('rect', { x: x(from), y: pad, width: x(to) - x(from), height: ht - 2 * pad, class: 'skill-outlook-days' }, svg);
    el('text', { x: x(from) + 4, y: pad - 4, class: 'tick' }, svg).textContent = 'beyond the forecast: the outlook only';
  }
  el('text', { x: 4, y: 14, class: 'tick skill-caption' }, svg).textContent =
    `${c.category[0]!.toUpperCase()}${c.category.slice(1)}: skill by days ahead (1 perfect, 0 no skill)`;
  el('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: 'axis' }, svg);
  el('line', { x1: pad, y1: pad, x2: pad, y2: ht - pad, class: 'axis' }, svg);
  for (const v of low < 0 ? [1, 0, low] : [1, 0.5, 0])
    el('text', { x: pad - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = String(Math.round(v * 100) / 100);
  for (let lead = 0; lead <= 7; lead++)
    el('text', { x: x(lead), y: ht - pad + 14, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = String(lead);
  el('text', { x: w / 2, y: ht - 6, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = 'days ahead';
  for (const l of lines) {
    const g = el('g', { class: `skill-line skill-${l.key}`, stroke: l.colour, fill: l.colour }, svg);
    el(
      'polyline',
      {
        points: polylinePoints(l.points, x, y),
        fill: 'none',
        'stroke-width': 2,
        'stroke-dasharray': l.dash,
      },
      g,
    );
    for (const [d, v] of l.points) el('circle', { cx: x(d).toFixed(1), cy: y(v).toFixed(1), r: 3, 'data-lead': d, 'data-score': v }, g);
  }
  return { svg, drawn: lines };
}

/** The section beside the forecast: the sentence, the chart and a legend naming only its lines. */
export function skillSection(skill: ForecastSkill, today: Levels | undefined, seasons: SeasonAnswer | undefined): HTMLElement {
  const section = h('section', undefined, { class: 'skill' });
  section.append(h('h3', 'How good the forecast has been'));
  const c = skillCategory(skill, today, seasons);
  if (!c) {
    section.append(h('p', 'No forecast has been scored here yet.'));
    return section;
  }
  const { svg, drawn } = skillChart(c);
  // Without a single score there is nothing to draw (the sentence says why): no chart and no legend.
  const legend = seriesLegend(drawn.map((l) => ({ label: l.label, colour: l.colour, dashed: l.dash !== '' })));
  const note = h(
    'p',
    `Scored on the UTC days ${skill.window.from ?? '–'} to ${skill.window.to ?? '–'}, each forecast against the NAB level observed. Persistence forecasts the last observed day's level; climatology the earlier years' usual level around the date. `,
    { class: 'fine' },
  );
  note.append(h('a', 'Every score and its table', { href: `/api/forecast-skill?city=${encodeURIComponent(skill.city)}` }), '.');
  section.append(h('p', skillSentence(skill, c), { class: 'skill-sentence' }), ...(drawn.length > 0 ? [svg, legend] : []), note);
  return section;
}
