/**
 * A city's scores at one lead over one period's rows (forecast-skill.ts gives the periods): the
 * forecast and each reference present on at least half of its days, on the days they share; each
 * provider's forecast side by side on the days they all share; the outlook and what was served.
 * Every table of a period is resampled on the same days, seeded by the period's key.
 */
import { dayString } from '../dates.js';
import { OUTLOOK_LEADS } from './outlook.js';
import { outlookSkill } from './outlook-skill.js';
import { type PairColumns, SERVED_CODE } from './pairs.js';
import { scoreSample } from './score-sample.js';
import { type Levels, MIN_PAIRS } from './scores.js';
import type { SideBySide, SkillScores } from './skill-schemas.js';

/**
 * The key a period's resampling is seeded with: its city and period (bootstrap.ts). Every table of
 * the period with as many days resamples the same blocks, whatever its category and lead: the
 * categories of a city are observed on the same days.
 */
export const skillKey = (city: string, period: string): string => `${city} ${period}`;

/** Why no forecast is scored at a lead: none kept reaches it. */
const beyond = (reach: number, providers: number): string =>
  `${providers > 1 ? "the furthest provider's forecast" : "the provider's forecast"} reaches lead ${reach - 1} (${24 * (reach - 1)} hours): beyond it, only the outlook is scored`;

/** Why the outlook has no score at a lead: it forecasts to OUTLOOK_LEADS - 1 days ahead. */
const OUTLOOK_BEYOND = `the outlook reaches lead ${OUTLOOK_LEADS - 1}: beyond it, only the providers' forecasts are scored`;

/** The rows of `c` at `indexes` as a sample's columns. */
function levelsAt(values: Float64Array, levels: ArrayLike<number>, indexes: readonly number[]): Levels {
  // Loops, not TypedArray.from with a map function, which V8 runs several times slower.
  const out = { values: new Float64Array(indexes.length), levels: new Uint8Array(indexes.length) };
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k]!;
    out.values[k] = values[i]!;
    out.levels[k] = levels[i]!;
  }
  return out;
}

/** The outlook's skill at `lead` on the rows given (every one with its and climatology's score), and what was served's. */
export function outlookOver(c: PairColumns, lead: number, rows: readonly number[], key: string) {
  if (lead >= OUTLOOK_LEADS) {
    const none = { ...outlookSkill([], [], key), reason: OUTLOOK_BEYOND };
    return { outlook: none, served: none };
  }
  const rps: number[] = [];
  const climatology: number[] = [];
  const servedRps: number[] = [];
  const servedClimatology: number[] = [];
  const outlookRps = c.outlookRps[lead]!;
  const served = c.served[lead]!;
  const observed: number[] = [];
  const servedObserved: number[] = [];
  let withClimatology = 0;
  for (const i of rows) {
    const [o, k] = [outlookRps[i]!, c.climatologyRps[i]!];
    if (!Number.isNaN(k)) withClimatology++;
    if (Number.isNaN(o) || Number.isNaN(k)) continue;
    rps.push(o);
    climatology.push(k);
    observed.push(c.observedLevel[i]!);
    if (served[i]! < 0) continue;
    servedRps.push(served[i] === SERVED_CODE.outlook ? o : k);
    servedClimatology.push(k);
    servedObserved.push(c.observedLevel[i]!);
  }
  // The store's first year has no earlier one: no outlook and no climatology, which "0 paired days" would not say.
  const firstYear =
    rows.length > 0 && withClimatology === 0
      ? `no earlier year holds days around these dates (the store's first year): no outlook or climatology was issued for any of the ${rows.length} days`
      : null;
  const scored = (a: number[], b: number[], levels: number[]) => {
    const skill = outlookSkill(a, b, key, levels);
    return firstYear === null ? skill : { ...skill, reason: firstYear };
  };
  return { outlook: scored(rps, climatology, observed), served: scored(servedRps, servedClimatology, servedObserved) };
}

/** Why a reference is left out: present on fewer than half of the `of` days with a forecast at the lead. */
function leftOut(name: 'persistence' | 'climatology', present: number, of: number): string {
  const days = `${of} days with a forecast at this lead, fewer than half`;
  return name === 'persistence'
    ? `a complete day observed before the issue day was held on only ${present} of the ${days}`
    : present === 0
      ? `no earlier year holds days around these dates (the store's first year): no climatology on any of the ${of} days with a forecast at this lead`
      : `an earlier year holds days around the date on only ${present} of the ${days}`;
}

/**
 * Which references are compared on `paired` rows (the days with a forecast at this lead): each
 * present on at least half of them; why the others are left out, counted on those same days and
 * saying so, since `days` is what the compared references leave of them.
 */
function referencesOn(c: PairColumns, lead: number, paired: readonly number[]) {
  const persistenceLevel = c.persistenceLevel[lead]!;
  const withPersistence = paired.filter((i) => persistenceLevel[i]! >= 0).length;
  const withClimatology = paired.filter((i) => c.climatologyLevel[i]! >= 0).length;
  const persistence = withPersistence > 0 && 2 * withPersistence >= paired.length;
  const climatology = withClimatology > 0 && 2 * withClimatology >= paired.length;
  const left_out: SkillScores['left_out'] = {};
  if (!persistence && paired.length > 0) left_out.persistence = leftOut('persistence', withPersistence, paired.length);
  if (!climatology && paired.length > 0) left_out.climatology = leftOut('climatology', withClimatology, paired.length);
  const days = paired.filter((i) => (!persistence || persistenceLevel[i]! >= 0) && (!climatology || c.climatologyLevel[i]! >= 0));
  return { persistence, climatology, left_out, days };
}

/**
 * Forecasts scored on `days` with the references compared, on the same days and resamples: the
 * forecasts' tables, then persistence's and climatology's (null where left out).
 */
function scoreWith(
  c: PairColumns,
  lead: number,
  forecasts: readonly Levels[],
  refs: { persistence: boolean; climatology: boolean; days: readonly number[] },
  key: string,
) {
  const all = [...forecasts];
  if (refs.persistence) all.push(levelsAt(c.persistenceValue[lead]!, c.persistenceLevel[lead]!, refs.days));
  if (refs.climatology) all.push(levelsAt(c.climatologyValue, c.climatologyLevel, refs.days));
  const n = forecasts.length;
  const references = {
    ...(refs.persistence ? { persistence: n } : {}),
    ...(refs.climatology ? { climatology: refs.persistence ? n + 1 : n } : {}),
  };
  const scored = scoreSample(levelsAt(c.observedValue, c.observedLevel, refs.days), all, key, references);
  return {
    days: scored.days,
    reason: scored.reason,
    forecasts: scored.tables.slice(0, n),
    persistence: refs.persistence ? scored.tables[n]! : null,
    climatology: refs.climatology ? scored.tables[refs.persistence ? n + 1 : n]! : null,
  };
}

/**
 * Each provider's forecast at one lead over one period's rows, side by side: those with a forecast
 * on at least MIN_PAIRS of the rows are scored on the days they all share, with the references
 * on the same days; the others say why not (beyond their reach, or too few days).
 */
function sideBySide(c: PairColumns, lead: number, rows: readonly number[], key: string): SideBySide {
  const entries = c.providers.map((p) => {
    const level = p.level[lead];
    const present = level ? rows.filter((i) => level[i]! >= 0) : [];
    return { p, reaches: level !== undefined, present };
  });
  const compared = entries.filter((e) => e.present.length >= MIN_PAIRS);
  const shared = rows.filter((i) => compared.every((e) => e.p.level[lead]![i]! >= 0));
  const refs =
    compared.length === 0 || lead >= c.reach
      ? { persistence: false, climatology: false, left_out: {}, days: [] }
      : referencesOn(c, lead, shared);
  const scored =
    compared.length === 0
      ? null
      : scoreWith(
          c,
          lead,
          compared.map((e) => levelsAt(e.p.value[lead]!, e.p.level[lead]!, refs.days)),
          refs,
          key,
        );
  return {
    days: scored?.days ?? 0,
    reason:
      scored === null
        ? lead >= c.reach
          ? beyond(c.reach, c.providers.length)
          : `no provider's forecast reaches ${MIN_PAIRS} of these days at this lead`
        : scored.reason,
    providers: entries.map((e) => {
      const k = compared.indexOf(e);
      return {
        provider: e.p.provider,
        days: e.present.length,
        reason: !e.reaches
          ? `its kept forecasts reach lead ${e.p.level.length - 1}: none reaches lead ${lead}`
          : k < 0
            ? `a forecast at this lead on only ${e.present.length} of the days: fewer than min_pairs`
            : scored!.reason,
        forecast: k < 0 ? null : scored!.forecasts[k]!,
      };
    }),
    persistence: scored?.persistence ?? null,
    climatology: scored?.climatology ?? null,
    left_out: refs.left_out,
  };
}

/**
 * The scores at one lead over one period's rows: the forecast, and each reference present on at
 * least half of its days, on the days they share; each provider's side by side on the days they
 * share; the outlook and what was served on theirs.
 */
export function scoresOver(
  c: PairColumns,
  lead: number,
  rows: readonly number[],
  period: { from: number; to: number; id: string },
  city: string,
  mixed: boolean,
): SkillScores {
  const key = skillKey(city, period.id);
  const base = {
    from: dayString(period.from),
    to: dayString(period.to),
    ...outlookOver(c, lead, rows, key),
    side_by_side: sideBySide(c, lead, rows, key),
  };
  if (lead >= c.reach)
    return {
      ...base,
      days: 0,
      reason: beyond(c.reach, c.providers.length),
      forecast: null,
      persistence: null,
      climatology: null,
      left_out: {},
      ...(mixed ? { by_provider: [] } : {}),
    };
  const forecastLevel = c.forecastLevel[lead]!;
  const paired = rows.filter((i) => forecastLevel[i]! >= 0);
  const refs = referencesOn(c, lead, paired);
  const scored = scoreWith(c, lead, [levelsAt(c.forecastValue[lead]!, forecastLevel, refs.days)], refs, key);
  return {
    ...base,
    days: scored.days,
    reason: scored.reason,
    forecast: scored.forecasts[0]!,
    persistence: scored.persistence,
    climatology: scored.climatology,
    left_out: refs.left_out,
    ...(mixed ? { by_provider: byProvider(c, refs.days) } : {}),
  };
}

/** How many times each provider comes in `sources`, in the order each first comes. */
export function tally(sources: Iterable<string>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const s of sources) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts];
}

/** The days of `rows` by the provider of each (its observed day, and its forecast), in the order they first come. */
const byProvider = (c: PairColumns, rows: readonly number[]): Array<{ provider: string; days: number }> =>
  tally(rows.map((i) => c.provider[i]!)).map(([provider, days]) => ({ provider, days }));
