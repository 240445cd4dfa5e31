/**
 * The words of the city panel's forecast skill (/api/forecast-skill, docs/data.md, "Forecast
 * skill"), without the page: on how many of the window's days with pollen the forecast made the
 * day before had the level right, beside what yesterday's level and the usual for the season would
 * have had, all counted from the answer's contingency tables; whether the forecast did better than
 * those, by the answer's verdicts; which provider did better where several are kept; whether the
 * outlook beat the usual for the season after tomorrow; and, for the fine print, the scores.
 * Every number is the API's, or a sum of its tables' cells.
 */

import type { SkillTable } from '../../domain/schemas.js';
import { boundText, scoreText } from '../../domain/verification/score-text.js';
import { MIN_ABOVE_NONE, MIN_LEVEL_DAYS } from '../../domain/verification/scores.js';
import type { CategorySkill, ForecastSkill, SkillScores } from '../../domain/verification/skill-schemas.js';
import { REFERENCE_WORDS } from '../../domain/verification/verdicts.js';
import { capitalized, listed } from '../../domain/words.js';
import type { DayRow, ForecastDay, SeasonAnswer } from './api.js';
import { ORDER } from './risk.js';

/** Today's levels, by which the section picks the category it speaks of. */
export type Levels = Pick<ForecastDay | DayRow, 'peak_risk_tree' | 'peak_risk_grass' | 'peak_risk_weed'>;
const NAMES = { tree: 'tree', grass: 'grass', weed: 'weed' } as const;

/** The lead the sentences speak of: the next day, the one people plan for. */
export const LEAD = 1;

export const windowAt = (c: CategorySkill, lead: number): SkillScores | undefined => c.leads.find((l) => l.lead === lead)?.window;

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

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** The days of a table by the level observed (its columns), None to Very High. */
const observedByLevel = (table: readonly (readonly number[])[]): number[] =>
  ORDER.map((_, o) => table.reduce((sum, row) => sum + (row[o] ?? 0), 0));

/**
 * Of a contingency table (forecast level by row, observed level by column): the days observed
 * above None (the days with pollen), and those of them forecast at the level observed.
 */
export function pollenDays(table: readonly (readonly number[])[]): { days: number; right: number } {
  const observed = observedByLevel(table);
  return {
    days: observed.slice(1).reduce((a, b) => a + b, 0),
    right: ORDER.slice(1).reduce((sum, _, i) => sum + (table[i + 1]?.[i + 1] ?? 0), 0),
  };
}

/**
 * Why a table without a score of levels tells nothing of the forecast, in words a reader checks
 * against the season: the pollen observed stayed in one level, in two, or above None on few days
 * (the API's reasons, docs/data.md "Forecast skill").
 */
export function tooNarrow(table: readonly (readonly number[])[], name: string): string | undefined {
  const observed = observedByLevel(table);
  const seen = ORDER.flatMap((level, o) => (observed[o]! > 0 ? [{ level, days: observed[o]! }] : []));
  if (seen.length === 1)
    return `the ${name} pollen was ${seen[0]!.level} on all ${days(seen[0]!.days)}: with nothing else to tell, a right forecast cannot be told from a lucky one`;
  if (seen.length === 2)
    return `the ${name} pollen was only ${seen[0]!.level} or ${seen[1]!.level} (${seen.map((x) => `${x.level} on ${days(x.days)}`).join(', ')}): too narrow a range to judge the forecast's levels`;
  // With three levels or more observed, a table without a score of levels has few days above None, or a level seen on few days.
  const above = observed.slice(1).reduce((a, b) => a + b, 0);
  if (seen.length > 2 && observed[0]! > 0 && above < MIN_ABOVE_NONE)
    return `the ${name} pollen was above None on only ${days(above)}: too few to judge the forecast's levels`;
  const rare = seen.filter((x) => x.days < MIN_LEVEL_DAYS).map((x) => `${x.level} on only ${days(x.days)}`);
  return rare.length > 0 ? `the ${name} pollen was ${listed(rare)}: too few to judge the forecast's levels by` : undefined;
}

/** The references as people say them. */
export const YESTERDAY = REFERENCE_WORDS.persistence;
export const USUAL = REFERENCE_WORDS.climatology;

/** A table's verdicts in words: "was better than yesterday's level", "could not be compared with ..." (the API's verdicts). */
const verdictPhrases = (t: SkillTable): string[] =>
  (t.verdicts ?? []).map((v) => (v.verdict === null ? `could not be compared with ${REFERENCE_WORDS[v.reference]}` : `was ${v.words}`));

/** The sample's skill is invented: said first, so that it is not read as evidence. */
const opening = (skill: ForecastSkill, rest: string): string =>
  skill.simulated ? `Simulated skill (the sample provider's forecast errors are invented): ${rest}` : capitalized(rest);

/** What yesterday's level and the usual for the season would have had right, of those the answer gives. */
function referencesRight(w: SkillScores): string {
  const said = [
    ...(w.persistence ? [{ name: YESTERDAY, right: pollenDays(w.persistence.table).right }] : []),
    ...(w.climatology ? [{ name: USUAL, right: pollenDays(w.climatology.table).right }] : []),
  ];
  return said.length === 0
    ? ''
    : `; ${listed(said.map((r, i) => (i === 0 ? `${r.name} would have been right on ${r.right}` : `${r.name} on ${r.right}`)))}`;
}

/**
 * Whether the forecast did better than the references over every day checked, as the answer's
 * verdicts say (from the interval of the difference of their scores of levels on the same
 * resampled days; said plainly: a miss by more levels counts more), or why that cannot be told.
 */
function verdict(w: SkillScores, f: SkillTable, name: string): string {
  if (w.reason) return ` That is too few to judge the forecast by yet: ${w.reason}.`;
  if (f.gerrity === null || !f.gerrity_interval) {
    const why = f.gerrity === null ? (tooNarrow(f.table, name) ?? f.score_reasons.gerrity) : f.score_reasons.gerrity_interval;
    return why ? ` That is too little to judge the forecast by: ${why}.` : '';
  }
  const refs = verdictPhrases(f);
  if (refs.length === 0) return '';
  return ` Counting how far off each miss was, over all ${days(w.days)} checked, the forecast ${refs.join(', and ')}.`;
}

/**
 * The section's sentence: on how many of the window's days with pollen the forecast made the day
 * before had the level right, and yesterday's level and the usual for the season (those the
 * answer gives); then whether the forecast did better than they, or why it cannot be told.
 */
export function skillSentence(skill: ForecastSkill, c: CategorySkill): string {
  return skillSentences(skill, c).join('');
}

/** The section's sentence in its two parts: the days right, and the verdict (empty where there is none) after a space. */
export function skillSentences(skill: ForecastSkill, c: CategorySkill): [string, string] {
  const name = c.category;
  const w = windowAt(c, LEAD);
  const last = `the last ${skill.window.days} days`;
  const f = w?.forecast;
  if (!w || !f) return [opening(skill, `no ${name} forecast made the day before has been checked here in ${last}.`), ''];
  const pollen = pollenDays(f.table);
  const checked = w.days < skill.window.days ? `, of the ${w.days} that could be checked,` : '';
  if (pollen.days === 0)
    return [opening(skill, `in ${last}${checked || ','} ${tooNarrow(f.table, name) ?? `no day had ${name} pollen`}.`), ''];
  const first = `on the ${days(pollen.days)} with ${name} pollen in ${last}${checked || ','} the forecast made the day before had the level right on ${pollen.right}${referencesRight(w)}.`;
  return [opening(skill, first), verdict(w, f, name)];
}

type Scored = { name: string; scores: SkillTable; gerrity: number; interval: readonly number[] };

/** The providers compared side by side at the next day, with a score of levels and its interval, best first. */
function scoredSideBySide(c: CategorySkill): { days: number; scored: Scored[]; persistence: SkillTable | null } | undefined {
  const side = windowAt(c, LEAD)?.side_by_side;
  if (!side || side.reason) return undefined;
  const scored = side.providers
    .flatMap((p): Scored[] => {
      const f = p.forecast;
      return f?.gerrity != null && f.gerrity_interval
        ? [{ name: capitalized(p.provider), scores: f, gerrity: f.gerrity, interval: f.gerrity_interval }]
        : [];
    })
    .sort((a, b) => b.gerrity - a.gerrity);
  return scored.length < 2 ? undefined : { days: side.days, scored, persistence: side.persistence };
}

/**
 * Which provider's forecast made the day before did better in `place`, on the days of the window
 * they all forecast: how many of those days with pollen each had right, and whether each did
 * better than yesterday's level (the answer's verdicts). Undefined unless two providers or more have
 * such a score there: a provider with a forecast on fewer days than a score needs is not named.
 */
export function providersSentence(skill: ForecastSkill, c: CategorySkill, place: string): string | undefined {
  const side = scoredSideBySide(c);
  if (!side) return undefined;
  const { scored } = side;
  const pollen = pollenDays(scored[0]!.scores.table).days;
  const rights = scored.map(
    (p, i) => `${p.name}'s${i === 0 ? ' forecast made the day before had the level right' : ''} on ${pollenDays(p.scores.table).right}`,
  );
  const yesterday = side.persistence ? ` (${YESTERDAY}: ${pollenDays(side.persistence.table).right})` : '';
  // Each provider against yesterday's level, as the answer's verdicts say: two providers' own intervals overlapping or not is no verdict.
  const against = scored.flatMap((p) => {
    const v = p.scores.verdicts?.find((x) => x.reference === 'persistence');
    return v?.verdict ? [`${p.name}'s was ${v.words}`] : [];
  });
  const all = scored.length === 2 ? 'both' : `all ${scored.length}`;
  // The section's first sentence has said already when the skill is simulated.
  return `In ${place}, on the ${days(side.days)} in the last ${skill.window.days} that ${all} providers forecast, ${pollen} had ${c.category} pollen: ${listed(rights)}${yesterday}.${against.length > 0 ? ` Counting how far off each miss was, ${listed(against)}.` : ''}`;
}

/** Leads as people read them: `2 to 4`, `2, 3 and 6`. */
function leadRuns(leads: readonly number[]): string {
  const runs: number[][] = [];
  for (const lead of leads) {
    const run = runs.at(-1);
    if (run && run.at(-1) === lead - 1) run.push(lead);
    else runs.push([lead]);
  }
  return listed(runs.flatMap((r) => (r.length > 2 ? [`${r[0]} to ${r.at(-1)}`] : r.map(String))));
}

/**
 * Whether the outlook served after tomorrow is its own or the usual for the season: the served
 * outlook's choice at each lead from 2 (the outlook's where it beat the usual over the window).
 * Undefined when the answer has no outlook served.
 */
export function outlookSentence(c: CategorySkill): string | undefined {
  const after = (c.outlook?.days ?? []).filter((d) => d.lead > LEAD);
  if (after.length === 0) return undefined;
  const own = after.filter((d) => d.served === 'outlook').map((d) => d.lead);
  const usual = after.filter((d) => d.served === 'climatology').map((d) => d.lead);
  const start = `For ${c.category} pollen on the days after tomorrow,`;
  if (own.length === 0) return `${start} the outlook has not done better than ${USUAL}, so the usual is what the 7-day strip shows.`;
  if (usual.length === 0) return `${start} the outlook has done better than ${USUAL}, and the 7-day strip shows it.`;
  return `${start} the outlook has done better than ${USUAL} ${leadRuns(own)} days ahead, and the 7-day strip shows it there; ${leadRuns(usual)} days ahead it has not, so the strip shows the usual.`;
}

/** A part of the fine print: text, or a link. */
export type Words = string | { text: string; href: string };

const bracketed = (interval: readonly number[] | null): string =>
  interval ? ` (${boundText(interval[0]!)} to ${boundText(interval[1]!)})` : '';
const withInterval = (t: SkillTable): string => (t.gerrity === null ? 'none' : `${scoreText(t.gerrity)}${bracketed(t.gerrity_interval)}`);

/** The forecast's differences from the references, with their intervals: what its verdicts are read from. */
const differences = (t: SkillTable): string[] =>
  (t.verdicts ?? []).flatMap((v) =>
    v.difference === null ? [] : [`less ${REFERENCE_WORDS[v.reference]}'s, ${scoreText(v.difference)}${bracketed(v.difference_interval)}`],
  );

/**
 * The fine print's scores, for those who want them: the score of levels with its 95% interval of
 * the forecast made the day before, of the references and of the providers side by side, named
 * once with a link to the glossary. Empty where the forecast has no such score.
 */
export function scoresLine(c: CategorySkill): Words[] {
  const w = windowAt(c, LEAD);
  const f = w?.forecast;
  if (!w || !f || f.gerrity === null) return [];
  const refs = [
    ...(w.persistence ? [`${YESTERDAY} ${withInterval(w.persistence)}`] : []),
    ...(w.climatology ? [`${USUAL} ${withInterval(w.climatology)}`] : []),
  ];
  const side = scoredSideBySide(c);
  const providers = side
    ? ` Side by side on the ${days(side.days)} they all forecast: ${side.scored.map((p) => `${p.name} ${withInterval(p.scores)}`).join(', ')}.`
    : '';
  return [
    'The score of levels (',
    { text: 'Gerrity skill score', href: '#glossary' },
    `) of the ${c.category} forecast made the day before: ${withInterval(f)}${refs.length ? `; ${refs.join('; ')}` : ''}, in brackets the 95% interval.${differences(f).length ? ` The forecast's score ${listed(differences(f))}: the verdicts above are those differences' intervals, made on the same resampled days.` : ''} It is counted over all ${days(w.days)} checked, None days too (which are easy to get right), and a miss by two levels counts more than a miss by one: 1 is perfect, 0 no better than chance.${providers}`,
  ];
}
