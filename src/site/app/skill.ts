/**
 * The city panel's forecast skill, beside the forecast (/api/forecast-skill, docs/data.md,
 * "Forecast skill"): in words, whether the forecast for tomorrow did better than "yesterday's
 * level" (persistence) and "the usual for the season" (climatology) over the trailing window;
 * where several providers' forecasts are kept, which of them did better side by side on the days
 * they share; a chart of the forecast's score of levels by days ahead with the references' and each one's 95%
 * interval; and apart, on a scale of its own, the outlook's probability skill against the usual
 * for the season to 7 days ahead. Every number is the API's; the page picks the category and says
 * it in words.
 */
import { scoreText } from '../../domain/verification/score-text.js';
import type { CategorySkill, SkillScores } from '../../domain/verification/skill-schemas.js';
import type { DayRow, ForecastDay, ForecastSkill, SeasonAnswer } from './api.js';
import { seriesLegend } from './charts.js';
import { el, h } from './dom.js';
import { ORDER } from './risk.js';
import { capitalized } from '../../domain/words.js';

type Levels = Pick<ForecastDay | DayRow, 'peak_risk_tree' | 'peak_risk_grass' | 'peak_risk_weed'>;
const NAMES = { tree: 'tree', grass: 'grass', weed: 'weed' } as const;

/** The lead the sentence speaks of: the next day, the one people plan for. */
const LEAD = 1;

const windowAt = (c: CategorySkill, lead: number): SkillScores | undefined => c.leads.find((l) => l.lead === lead)?.window;

/**
 * The category the section speaks of, of tree, grass and weed (ragweed is part of weed): the one
 * at the highest level today, since that is the forecast a person is reading the panel for; on a
 * tie (a quiet day), the one whose season is under way; then the one with the most days scored.
 */
export function skillCategory(
  skill: ForecastSkill,
  today: Levels | undefined,
  seasons: SeasonAnswer | undefined,
): CategorySkill | undefined {
  const inSeason = new Set(seasons?.categories.filter((c) => c.status.state === 'in season').map((c) => c.category));
  const rank = (c: CategorySkill) => {
    const w = windowAt(c, LEAD);
    const level = today?.[`peak_risk_${c.category as keyof typeof NAMES}`];
    return [level ? ORDER.indexOf(level) : -1, inSeason.has(c.category) ? 1 : 0, w?.forecast?.gerrity === null ? 0 : (w?.days ?? 0)];
  };
  const ranked = skill.categories.filter((c) => c.category in NAMES).map((c) => ({ c, r: rank(c) }));
  ranked.sort((a, b) => b.r[0]! - a.r[0]! || b.r[1]! - a.r[1]! || b.r[2]! - a.r[2]!);
  return ranked[0]?.c;
}

const score = scoreText;
const interval = (i: readonly number[] | null): string => (i ? `; 95% interval ${score(i[0]!)} to ${score(i[1]!)}` : '');

/** The references as people say them. */
const YESTERDAY = "yesterday's level";
const USUAL = 'the usual for the season';

/**
 * How the forecast compares with a reference, by their scores' intervals: better or worse only
 * when the intervals do not overlap; else no clear difference.
 */
function against(f: readonly number[] | null, r: readonly number[] | null, name: string): string {
  if (!f || !r) return `could not be compared with ${name}`;
  if (f[0]! > r[1]!) return `did better than ${name}`;
  if (f[1]! < r[0]!) return `did worse than ${name}`;
  return `was not clearly better or worse than ${name}`;
}

/**
 * Why a table without a score of levels tells nothing of the forecast, in words a reader checks
 * against the season: the pollen observed stayed in one level, in two, or above None on few days
 * (the API's reasons, docs/data.md "Forecast skill").
 */
export function tooNarrow(table: readonly (readonly number[])[], name: string): string | undefined {
  const observed = ORDER.map((_, o) => table.reduce((sum, row) => sum + (row[o] ?? 0), 0));
  const seen = ORDER.flatMap((level, o) => (observed[o]! > 0 ? [{ level, days: observed[o]! }] : []));
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  if (seen.length === 1)
    return `the ${name} pollen was ${seen[0]!.level} on all ${days(seen[0]!.days)}: with nothing else to tell, a right forecast cannot be told from a lucky one`;
  if (seen.length === 2)
    return `the ${name} pollen was only ${seen[0]!.level} or ${seen[1]!.level} (${seen.map((x) => `${x.level} on ${days(x.days)}`).join(', ')}): too narrow a range to judge the forecast's levels`;
  // With three levels or more observed, a table without a score of levels is one with few days above None.
  const above = observed.slice(1).reduce((a, b) => a + b, 0);
  return seen.length > 2 && observed[0]! > 0
    ? `the ${name} pollen was above None on only ${days(above)}: too few to judge the forecast's levels`
    : undefined;
}

/**
 * The sentence: how the forecast for tomorrow did over the window against yesterday's level and
 * the usual for the season, by Gerrity's score of levels with its interval; or, plainly, why it
 * cannot be said (the API's reason). On the sample provider the forecast's errors are simulated,
 * which the sentence says first, so that it is not read as evidence.
 */
export function skillSentence(skill: ForecastSkill, c: CategorySkill): string {
  const name = c.category;
  const w = windowAt(c, LEAD);
  const over = `${skill.simulated ? "Simulated skill (the sample provider's forecast errors are invented): over" : 'Over'} the last ${skill.window.days} days`;
  if (!w?.forecast) return `${over}, no ${name} forecast a day ahead has been scored here.`;
  if (w.reason) return `${over}, the ${name} forecast a day ahead cannot be scored here yet: ${w.reason}.`;
  const f = w.forecast;
  if (f.gerrity === null)
    return `${over}, ${tooNarrow(f.table, name) ?? `the ${name} forecast a day ahead has no score of levels here: ${f.score_reasons.gerrity ?? 'no score'}`}.`;
  const parts = [
    w.persistence ? against(f.gerrity_interval, w.persistence.gerrity_interval, YESTERDAY) : `could not be compared with ${YESTERDAY}`,
    w.climatology
      ? against(f.gerrity_interval, w.climatology.gerrity_interval, USUAL)
      : `could not be compared with ${USUAL} (no earlier year around these dates)`,
  ];
  return `${over}, the ${name} forecast for the next day scored ${score(f.gerrity)} on levels (1 perfect, 0 no skill${interval(f.gerrity_interval)}): it ${parts[0]}, and ${parts[1]}.`;
}

/**
 * Which provider's forecast for the next day did better in `place` side by side, on the days of
 * the window they all forecast, by Gerrity's score of levels: better only when the intervals do
 * not overlap. Undefined unless two providers or more have such a score there: a provider with a
 * forecast on fewer days than a score needs is not compared, and not named.
 */
export function providersSentence(skill: ForecastSkill, c: CategorySkill, place: string): string | undefined {
  const side = windowAt(c, LEAD)?.side_by_side;
  if (!side || side.reason) return undefined;
  const scored = side.providers
    .flatMap((p) => {
      const f = p.forecast;
      return f?.gerrity != null && f.gerrity_interval
        ? [{ name: capitalized(p.provider), gerrity: f.gerrity, interval: f.gerrity_interval }]
        : [];
    })
    .sort((a, b) => b.gerrity - a.gerrity);
  if (scored.length < 2) return undefined;
  const [best, next] = [scored[0]!, scored[1]!];
  const verdict =
    best.interval[0]! > next.interval[1]!
      ? `did better than ${next.name}'s`
      : `was not clearly better than ${next.name}'s (their 95% intervals overlap)`;
  const others = scored.slice(2).map((p) => `, ${p.name}'s ${score(p.gerrity)}`);
  const p = side.persistence?.gerrity;
  const yesterday = p == null ? '' : `; ${YESTERDAY} scored ${score(p)} on the same days`;
  const over = `${skill.simulated ? "Simulated skill (the sample provider's forecast errors are invented): over" : 'Over'} the last ${skill.window.days} days`;
  return `${over} in ${place}, on the ${side.days} days all ${scored.length === 2 ? 'both' : scored.length} providers forecast, ${best.name}'s ${c.category} forecast for the next day ${verdict}: Gerrity score of levels ${score(best.gerrity)} against ${score(next.gerrity)}${others.join('')} (1 perfect, 0 no skill)${yesterday}.`;
}

/**
 * The lines of the chart: Gerrity's score for the forecast and the references (the score for
 * ordered categories, that charges a miss by more levels more: Gerrity 1992, recommended over
 * Heidke's by Livezey, https://ams.confex.com/ams/84Annual/techprogram/paper_68014.htm), each with
 * its interval as a bar. Okabe and Ito's colours, told apart in every common colour-vision
 * deficiency (https://jfly.uni-koeln.de/color/), each 3:1 or more on white, and a dash each besides.
 */
const LINES = [
  { key: 'forecast', label: 'The forecast', colour: '#0072b2', dash: '', table: (w: SkillScores) => w.forecast },
  { key: 'persistence', label: "Yesterday's level", colour: '#d55e00', dash: '6 3', table: (w: SkillScores) => w.persistence },
  { key: 'climatology', label: 'The usual for the season', colour: '#009e73', dash: '2 3', table: (w: SkillScores) => w.climatology },
] as const;

type Point = { lead: number; v: number; low: number; high: number };

/** Words in lines of at most `width` characters (a longer word alone on its line). */
function wrapWords(text: string, width: number): string[] {
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

/** A small chart of scores by days ahead, each with its interval: lines, points and bars; leads from `beyond` on shaded as `beyondLabel`. */
function leadChart(
  title: string,
  caption: string,
  lines: ReadonlyArray<{ key: string; label: string; colour: string; dash: string; points: Point[] }>,
  beyond: { from: number; label: string } | null,
  width: number,
  lastLead = 7,
): SVGSVGElement {
  const w = Math.min(420, width);
  // The caption in as many lines as the width takes (12 px bold text, about 7 px a character), above the plot.
  const captionLines = wrapWords(caption, Math.max(20, Math.floor((w - 8) / 7)));
  const pad = 40;
  const top = Math.max(pad, 14 * captionLines.length + 26);
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
    el('text', { x: x(from) + 4, y: top - 4, class: 'tick' }, svg).textContent = beyond.label;
  }
  captionLines.forEach((line, i) => {
    el('text', { x: 4, y: 14 + 14 * i, class: 'tick skill-caption' }, svg).textContent = line;
  });
  el('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: 'axis' }, svg);
  el('line', { x1: pad, y1: top, x2: pad, y2: ht - pad, class: 'axis' }, svg);
  for (const v of low < 0 ? [1, 0, low] : [1, 0.5, 0])
    el('text', { x: pad - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, svg).textContent = String(Math.round(v * 100) / 100);
  for (let lead = 0; lead <= lastLead; lead++)
    el('text', { x: x(lead), y: ht - pad + 14, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = String(lead);
  el('text', { x: w / 2, y: ht - 6, 'text-anchor': 'middle', class: 'tick' }, svg).textContent = 'days ahead';
  lines.forEach((l, n) => {
    const g = el('g', { class: `skill-line skill-${l.key}`, stroke: l.colour, fill: l.colour }, svg);
    // Each line a little apart from the others, so that overlapping intervals stay readable.
    const dx = (n - (lines.length - 1) / 2) * 5;
    el(
      'polyline',
      {
        points: l.points.map((p) => `${(x(p.lead) + dx).toFixed(1)},${y(p.v).toFixed(1)}`).join(' '),
        fill: 'none',
        'stroke-width': 2,
        'stroke-dasharray': l.dash,
      },
      g,
    );
    for (const p of l.points) {
      const cx = x(p.lead) + dx;
      el('line', { x1: cx, x2: cx, y1: y(p.low), y2: y(p.high), 'stroke-width': 1.5, class: 'skill-interval' }, g);
      el('circle', { cx: cx.toFixed(1), cy: y(p.v).toFixed(1), r: 3, 'data-lead': p.lead, 'data-score': p.v }, g);
    }
  });
  return svg;
}

/** The furthest lead the answer scores: the outlook's 7, or a provider's further one. */
const lastLeadOf = (c: CategorySkill): number => Math.max(7, ...c.leads.map((l) => l.lead));

/** The forecast's and the references' Gerrity scores by days ahead over the window, with their intervals. */
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
  const name = capitalized(c.category);
  const lastLead = lastLeadOf(c);
  const svg = leadChart(
    `Gerrity score of levels of the ${c.category} forecast, yesterday's level and the usual for the season, by days ahead, with 95% intervals (1 perfect, 0 no skill)`,
    `${name}: score of levels by days ahead (1 perfect, 0 no skill)`,
    lines,
    reach.length > 0 && Math.max(...reach) < lastLead
      ? { from: Math.max(...reach) + 1, label: `the forecast reaches ${Math.max(...reach)} days ahead` }
      : null,
    width,
    lastLead,
  );
  return { svg, drawn: lines };
}

/** The outlook's ranked probability skill against the usual for the season by days ahead, with its intervals. */
export function outlookChart(c: CategorySkill, width = 420): SVGSVGElement | null {
  const points = c.leads.flatMap((lead): Point[] => {
    const o = lead.window.outlook;
    return o.rpss !== null && o.rpss_interval ? [{ lead: lead.lead, v: o.rpss, low: o.rpss_interval[0]!, high: o.rpss_interval[1]! }] : [];
  });
  if (points.length === 0) return null;
  return leadChart(
    `Ranked probability skill of the ${c.category} outlook against the usual for the season, by days ahead, with 95% intervals (above 0: better than the usual)`,
    'The outlook by days ahead (above 0: better than the usual)',
    [{ key: 'outlook', label: 'The outlook', colour: '#cc79a7', dash: '8 3 2 3', points }],
    null,
    width,
    lastLeadOf(c),
  );
}

/** The section beside the forecast: the sentence, the charts and a legend naming only their lines. */
export function skillSection(
  skill: ForecastSkill,
  today: Levels | undefined,
  seasons: SeasonAnswer | undefined,
  width = 420,
  place = skill.city,
): HTMLElement {
  const section = h('section', undefined, { class: 'skill' });
  section.append(h('h3', 'How good the forecast has been'));
  const c = skillCategory(skill, today, seasons);
  if (!c) {
    section.append(h('p', 'No forecast has been scored here yet.'));
    return section;
  }
  const { svg, drawn } = skillChart(c, width);
  const legend = seriesLegend(drawn.map((l) => ({ label: l.label, colour: l.colour, dashed: l.dash !== '' })));
  const outlook = outlookChart(c, width);
  const note = h(
    'p',
    `Scored on the UTC days ${skill.window.from ?? '–'} to ${skill.window.to ?? '–'}, each forecast against the NAB level observed, each as it was issued. Yesterday's level: the last day observed before the forecast was made. The usual for the season: the middle of the earlier years' days around the date. Bars: 95% intervals; where they overlap, the difference may be chance. `,
    { class: 'fine' },
  );
  note.append(h('a', 'Every score and its table', { href: `/api/forecast-skill?city=${encodeURIComponent(skill.city)}` }), '.');
  const providers = providersSentence(skill, c, place);
  section.append(
    h('p', skillSentence(skill, c), { class: 'skill-sentence' }),
    ...(providers ? [h('p', providers, { class: 'skill-providers' })] : []),
    ...(drawn.length > 0 ? [svg, legend] : []),
    ...(outlook ? [outlook] : []),
    note,
  );
  return section;
}
