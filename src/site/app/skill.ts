/**
 * The city panel's forecast skill (/api/forecast-skill, docs/data.md, "Forecast skill"), folded
 * under a question until the reader opens it: the city's answer, about 170 KB, is fetched only
 * then. Open, it says on how many of the last 90 days with pollen the forecast made the day before
 * had the level right, beside yesterday's level and the usual for the season (skill-words.ts);
 * which provider did better, where several are kept; whether the outlook beat the usual after
 * tomorrow; the charts by days ahead (skill-charts.ts); and in fine print the scores with their
 * intervals, how the days were checked, and a link to the answer itself.
 */
import type { CategorySkill, ForecastSkill } from '../../domain/verification/skill-schemas.js';
import type { SeasonAnswer } from './api.js';
import { seriesLegend } from './charts.js';
import { h } from './dom.js';
import { outlookChart, skillChart } from './skill-charts.js';
import { type Levels, outlookSentence, providersSentence, scoresLine, skillCategory, skillSentences, type Words } from './skill-words.js';

export { outlookChart, skillChart } from './skill-charts.js';
export {
  type Levels,
  outlookSentence,
  pollenDays,
  providersSentence,
  skillCategory,
  skillSentence,
  skillSentences,
  tooNarrow,
} from './skill-words.js';

/** The answer's path: every category and lead, the city's one static file, cached. */
export const skillPath = (slug: string): string => `/api/forecast-skill?city=${encodeURIComponent(slug)}`;

/**
 * The city's answer, or null where no render has computed it (the API's 404 NO_FORECAST_SKILL,
 * src/api/endpoints/forecast-skill.ts): said as such rather than as a failure.
 */
async function fetchSkill(slug: string): Promise<ForecastSkill | null> {
  const res = await fetch(skillPath(slug), { headers: { accept: 'application/json' } });
  const body = (await res.json()) as ForecastSkill | { code?: string };
  if (res.status === 404 && 'code' in body && body.code === 'NO_FORECAST_SKILL') return null;
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return body as ForecastSkill;
}

/** A paragraph of fine print from text and links. */
function fine(words: readonly Words[]): HTMLElement {
  const p = h('p', undefined, { class: 'fine' });
  for (const w of words) p.append(typeof w === 'string' ? w : h('a', w.text, { href: w.href }));
  return p;
}

/** The section's sentence: the days right first, in bold, and the verdict after it. */
function sentence([counts, verdict]: [string, string]): HTMLElement {
  const p = h('p', undefined, { class: 'skill-sentence' });
  p.append(h('strong', counts), verdict);
  return p;
}

/** How the days were checked, and the answer itself behind a small link. */
function methodNote(skill: ForecastSkill, slug: string): HTMLElement {
  return fine([
    `Checked on the days ${skill.window.from ?? '–'} to ${skill.window.to ?? '–'} (days from midnight to midnight UTC, Greenwich time), each forecast as it was made, against the level observed later. Yesterday's level: the last day observed before the forecast was made. The usual for the season: the middle one of the earlier years' days within a week of the date. In the charts, the bars are 95% intervals: where two overlap, the difference may be chance. All of it as `,
    { text: 'data', href: skillPath(slug) },
    '.',
  ]);
}

/** What the section shows once the answer is in: the sentences, the charts with a legend naming only their lines, the fine print. */
export function skillBody(skill: ForecastSkill, c: CategorySkill | undefined, slug: string, width: number, place: string): Element[] {
  if (!c) return [h('p', 'No forecast has been checked here yet.', { class: 'skill-sentence' }), methodNote(skill, slug)];
  const { svg, drawn } = skillChart(c, width);
  const legend = seriesLegend(drawn.map((l) => ({ label: l.label, colour: l.colour, dashed: l.dash !== '' })));
  const outlook = outlookChart(c, width);
  const providers = providersSentence(skill, c, place);
  const ahead = outlookSentence(c);
  const scores = scoresLine(c);
  return [
    sentence(skillSentences(skill, c)),
    ...(providers ? [h('p', providers, { class: 'skill-providers' })] : []),
    ...(ahead ? [h('p', ahead, { class: 'skill-outlook' })] : []),
    ...(scores.length > 0 ? [fine(scores)] : []),
    ...(drawn.length > 0 ? [svg, legend] : []),
    ...(outlook ? [outlook] : []),
    methodNote(skill, slug),
  ];
}

/**
 * The section beside the forecast, folded: its first opening fetches the city's answer and draws
 * it for `width` (280 to 560 px); a failed fetch says so, and the next opening tries again.
 */
export function skillSection(
  slug: string,
  today: Levels | undefined,
  seasons: SeasonAnswer | undefined,
  width: number,
  name: string,
): HTMLElement {
  const details = h('details', undefined, { class: 'skill' });
  details.append(h('summary', 'How good has this forecast been?'));
  const body = h('div', undefined, { class: 'skill-body' });
  details.append(body);
  let asked = false;
  details.addEventListener('toggle', () => {
    if (!details.open || asked) return;
    asked = true;
    body.replaceChildren(h('p', 'Loading…', { role: 'status' }));
    fetchSkill(slug).then(
      (skill) =>
        body.replaceChildren(
          ...(skill
            ? skillBody(skill, skillCategory(skill, today, seasons), slug, width, name)
            : [h('p', 'No forecast has been checked here yet.', { class: 'skill-sentence' })]),
        ),
      () => {
        asked = false;
        body.replaceChildren(
          h('p', "The forecast's record could not be loaded. Close this and open it again to try again.", { class: 'notice' }),
        );
      },
    );
  });
  return details;
}
