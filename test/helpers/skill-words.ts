/**
 * What the city panel's skill section should say, worked out from the API's answers alone (not
 * from the page's code): the category it speaks of and the sentence it reads as.
 */
import { expect } from 'vitest';

export type Json = Record<string, any>;

export const LEVELS = ['None', 'Low', 'Moderate', 'High', 'Very High'];

/** Two decimals, a tiny score three, never "-0.00" (as the page says a score). */
export const fixed = (v: number) => (Math.abs(v) < 0.005 && v !== 0 ? v.toFixed(3) : v.toFixed(2).replace(/^-0\.00$/, '0.00'));

/** An interval's bound as the page says it: two significant digits, 0 as "0". */
export const bound = (v: number) => (v === 0 ? '0' : v.toFixed(Math.max(2, 1 - Math.floor(Math.log10(Math.abs(v))))));

const SIMULATED = "Simulated skill (the sample provider's forecast errors are invented): ";
export const leadOne = (c: Json): Json => c.leads.find((l: Json) => l.lead === 1).window;

/** A table's days with pollen (observed above None: columns 1 to 4) and those forecast at the level observed. */
export function counted(table: number[][]): { days: number; right: number } {
  let days = 0;
  let right = 0;
  for (let f = 0; f < 5; f++)
    for (let o = 1; o < 5; o++) {
      days += table[f]![o]!;
      if (f === o) right += table[f]![o]!;
    }
  return { days, right };
}

/** Why a table without a score of levels tells too little, from its observed days by level. */
function narrow(table: number[][], name: string): string {
  const byLevel = LEVELS.map((_, o) => table.reduce((n, row) => n + row[o]!, 0));
  const seen = LEVELS.filter((_, o) => byLevel[o]! > 0);
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const count = (level: string) => days(byLevel[LEVELS.indexOf(level)]!);
  if (seen.length === 1)
    return `the ${name} pollen was ${seen[0]} on all ${count(seen[0]!)}: with nothing else to tell, a right forecast cannot be told from a lucky one`;
  if (seen.length === 2)
    return `the ${name} pollen was only ${seen[0]} or ${seen[1]} (${seen[0]} on ${count(seen[0]!)}, ${seen[1]} on ${count(seen[1]!)}): too narrow a range to judge the forecast's levels`;
  const above = byLevel.slice(1).reduce((a, b) => a + b, 0);
  if (above < 10) return `the ${name} pollen was above None on only ${days(above)}: too few to judge the forecast's levels`;
  // Else a level observed on fewer than 5 days.
  const rare = LEVELS.filter((_, o) => byLevel[o]! > 0 && byLevel[o]! < 5).map((level) => `${level} on only ${count(level)}`);
  return `the ${name} pollen was ${rare.join(' and ')}: too few to judge the forecast's levels by`;
}

/** The sentence a category's answer at lead 1 reads as, on the sample provider, from the answer's tables and intervals. */
export function expectedSentence(skill: Json, c: Json): string {
  const w = leadOne(c);
  const last = `the last ${skill.window.days} days`;
  const name = c.category;
  if (!w.forecast) return `${SIMULATED}no ${name} forecast made the day before has been checked here in ${last}.`;
  const f = counted(w.forecast.table);
  const checked = w.days < skill.window.days ? `, of the ${w.days} that could be checked,` : ',';
  if (f.days === 0) return `${SIMULATED}in ${last}${checked} ${narrow(w.forecast.table, name)}.`;
  const refs = [
    ...(w.persistence ? [["yesterday's level", counted(w.persistence.table)] as const] : []),
    ...(w.climatology ? [['the usual for the season', counted(w.climatology.table)] as const] : []),
  ];
  // One comparison, one set of days: every table has the same days with pollen.
  for (const [, r] of refs) expect(r.days).toBe(f.days);
  const said = refs.map(([n, r], i) => (i === 0 ? `${n} would have been right on ${r.right}` : `${n} on ${r.right}`));
  const first = `${SIMULATED}on the ${f.days} days with ${name} pollen in ${last}${checked} the forecast made the day before had the level right on ${f.right}${said.length ? `; ${said.join(' and ')}` : ''}.`;
  if (w.reason) return `${first} That is too few to judge the forecast by yet: ${w.reason}.`;
  if (w.forecast.gerrity === null) return `${first} That is too little to judge the forecast by: ${narrow(w.forecast.table, name)}.`;
  // The answer's verdicts, one for each reference compared, in its words.
  const verdicts = (w.forecast.verdicts ?? []).map((v: Json) =>
    v.verdict === null
      ? `could not be compared with ${v.reference === 'persistence' ? "yesterday's level" : 'the usual for the season'}`
      : `was ${v.words}`,
  );
  expect(verdicts.length).toBe((w.persistence ? 1 : 0) + (w.climatology ? 1 : 0));
  return verdicts.length
    ? `${first} Counting how far off each miss was, over all ${w.days} days checked, the forecast ${verdicts.join(', and ')}.`
    : first;
}

/** The category the page should speak of, from the API's answers: the highest level today, then in season, then the most days scored. */
export async function categoryToSpeakOf(json: (path: string) => Promise<Json>, slug: string, skill: Json): Promise<Json> {
  const days = await json(`/api/forecast?city=${slug}&aggregate=day&timezone=local`);
  const seasons = await json(`/api/season?city=${slug}&timezone=local`);
  const today = days.rows[0] as Json;
  const inSeason = (c: string) => seasons.categories.some((s: Json) => s.category === c && s.status.state === 'in season');
  const ranked = (skill.categories as Json[])
    .filter((c) => c.category !== 'ragweed')
    .map((c) => {
      const w = c.leads.find((l: Json) => l.lead === 1).window;
      return {
        c,
        r: [LEVELS.indexOf(today[`peak_risk_${c.category}`]), inSeason(c.category) ? 1 : 0, w.forecast?.gerrity === null ? 0 : w.days],
      };
    })
    .sort((a, b) => b.r[0] - a.r[0] || b.r[1] - a.r[1] || b.r[2] - a.r[2]);
  return ranked[0]!.c as Json;
}
