/**
 * What the city panel's skill section should say, worked out from the API's answers alone (not
 * from the page's code): the category it speaks of and the sentence it reads as.
 */

export type Json = Record<string, any>;

export const LEVELS = ['None', 'Low', 'Moderate', 'High', 'Very High'];
export const INTRO = "Simulated skill (the sample provider's forecast errors are invented): over the last 90 days";

/** Two decimals, a tiny score three, never "-0.00" (as the page says a score). */
export const fixed = (v: number) => (Math.abs(v) < 0.005 && v !== 0 ? v.toFixed(3) : v.toFixed(2).replace(/^-0\.00$/, '0.00'));

/** How the forecast compares with a reference, by their intervals: better or worse only when they do not overlap. */
function compared(f: number[], r: number[] | null, name: string): string {
  if (!r) return `could not be compared with ${name}`;
  if (f[0]! > r[1]!) return `did better than ${name}`;
  if (f[1]! < r[0]!) return `did worse than ${name}`;
  return `was not clearly better or worse than ${name}`;
}

/** The sentence a category's answer at lead 1 reads as, on the sample provider. */
export function expectedSentence(c: Json): string {
  const w = c.leads.find((l: Json) => l.lead === 1).window;
  if (w.reason) return `${INTRO}, the ${c.category} forecast a day ahead cannot be scored here yet: ${w.reason}.`;
  const f = w.forecast;
  if (f.gerrity === null) {
    // The observed days by level: the table's columns.
    const byLevel = LEVELS.map((_, o) => f.table.reduce((n: number, row: number[]) => n + row[o]!, 0));
    const seen = LEVELS.filter((_, o) => byLevel[o]! > 0);
    const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
    const count = (level: string) => days(byLevel[LEVELS.indexOf(level)]!);
    if (seen.length === 1)
      return `${INTRO}, the ${c.category} pollen was ${seen[0]} on all ${count(seen[0]!)}: with nothing else to tell, a right forecast cannot be told from a lucky one.`;
    if (seen.length === 2)
      return `${INTRO}, the ${c.category} pollen was only ${seen[0]} or ${seen[1]} (${seen[0]} on ${count(seen[0]!)}, ${seen[1]} on ${count(seen[1]!)}): too narrow a range to judge the forecast's levels.`;
    return `${INTRO}, the ${c.category} pollen was above None on only ${days(byLevel.slice(1).reduce((a, b) => a + b, 0))}: too few to judge the forecast's levels.`;
  }
  const [low, high] = f.gerrity_interval;
  const yesterday = w.persistence
    ? compared(f.gerrity_interval, w.persistence.gerrity_interval, "yesterday's level")
    : "could not be compared with yesterday's level";
  const usual = w.climatology
    ? compared(f.gerrity_interval, w.climatology.gerrity_interval, 'the usual for the season')
    : 'could not be compared with the usual for the season (no earlier year around these dates)';
  return `${INTRO}, the ${c.category} forecast for the next day scored ${fixed(f.gerrity)} on levels (1 perfect, 0 no skill; 95% interval ${fixed(low)} to ${fixed(high)}): it ${yesterday}, and ${usual}.`;
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

/**
 * The sentence comparing providers side by side at lead 1 in `place`, or undefined: from the
 * answer's `side_by_side`, the providers with a Gerrity score and interval there, best first; none
 * unless two or more (a provider on too few days has no score, and is not named).
 */
export function expectedProvidersSentence(skill: Json, c: Json, place: string): string | undefined {
  const side = c.leads.find((l: Json) => l.lead === 1).window.side_by_side;
  if (side.reason) return undefined;
  const name = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
  const scored = (side.providers as Json[])
    .filter((p) => p.forecast && p.forecast.gerrity !== null && p.forecast.gerrity_interval)
    .sort((a, b) => b.forecast.gerrity - a.forecast.gerrity);
  if (scored.length < 2) return undefined;
  const [a, b] = scored as [Json, Json];
  const clear = a.forecast.gerrity_interval[0] > b.forecast.gerrity_interval[1];
  const verdict = clear
    ? `did better than ${name(b.provider)}'s`
    : `was not clearly better than ${name(b.provider)}'s (their 95% intervals overlap)`;
  const rest = scored
    .slice(2)
    .map((p) => `, ${name(p.provider)}'s ${fixed(p.forecast.gerrity)}`)
    .join('');
  const persistence = side.persistence?.gerrity;
  const yesterday = persistence == null ? '' : `; yesterday's level scored ${fixed(persistence)} on the same days`;
  const over = skill.simulated
    ? INTRO.replace('last 90 days', `last ${skill.window.days} days`)
    : `Over the last ${skill.window.days} days`;
  const all = scored.length === 2 ? 'both' : String(scored.length);
  return `${over} in ${place}, on the ${side.days} days all ${all} providers forecast, ${name(a.provider)}'s ${c.category} forecast for the next day ${verdict}: Gerrity score of levels ${fixed(a.forecast.gerrity)} against ${fixed(b.forecast.gerrity)}${rest} (1 perfect, 0 no skill)${yesterday}.`;
}
