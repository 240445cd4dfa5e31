/**
 * A city's forecast skill (docs/data.md, "Forecast skill", "The outlook"): the forecasts kept for
 * it scored against its observed days by lead day, beside persistence and climatology, over the
 * trailing window and each season year; the outlook scored on the days before; and the outlook
 * served now, climatology's where the outlook does not beat it. Also the paired days as rows, so
 * that anyone can compute every score again (the bulk forecast-pairs file).
 *
 * Everything is on UTC days, from the days given (the served days): a score is made only from
 * what the pairs file publishes.
 */
import { categorySeasons } from './city-seasons.js';
import { MAX_SHIFT_DAYS } from './climatology.js';
import { civilDate, DAY_MS, dayNumber, dayString, isoTime } from './dates.js';
import { ClimatologyReference, OUTLOOK_LEADS, type OutlookPair, outlook, outlookPairs, outlookSkill } from './outlook.js';
import type { Graded } from './risk.js';
import type { CategorySeason, OutlookSkill, SkillTable } from './schemas.js';
import {
  type DatedRow,
  type SeasonCategory,
  type SeasonSeries,
  seasonCategories,
  seasonSeries,
  seasonYearOf,
  seasonYearsOf,
  yearsHeld,
} from './seasons.js';
import type { CategorySkill, ForecastSkill, ServedOutlook, SkillScores } from './skill-schemas.js';
import { MIN_PAIRS, type Pair, skill } from './verification.js';
import { type KeptDay, latestAtLead, pairsOf } from './verification-days.js';
import { climatologyPairs, persistencePairs } from './verification-references.js';

/** Days of the trailing window. */
export const WINDOW_DAYS = 90;
/** Leads a forecast is scored at: a 48-hour forecast reaches the second day after its issue day. */
export const FORECAST_LEADS = 3;

/** How a kept forecast came: the build's own call, the forecast function's fetch, or a provider's past forecast made again. */
export type KeptOrigin = 'build' | 'function' | 'made again';

/** A forecast as the store keeps it: when it was issued, how it came, and the UTC days it covered enough. */
export interface KeptForecast {
  issuedAt: number;
  origin: KeptOrigin;
  days: readonly KeptDay[];
}

export interface SkillInputs {
  city: string;
  /** The provider of the observed days and the forecasts, and whether its values are simulated. */
  provider: string | null;
  simulated: boolean;
  /** The city's UTC daily rows of the served days, oldest first. */
  rows: readonly DatedRow[];
  /** The forecasts kept for the city. */
  forecasts: readonly KeptForecast[];
}

/** One city, category and UTC day of the pairs file: what was observed, and what each forecast said. */
export interface PairRow {
  city: string;
  category: Graded;
  day: number;
  seasonYear: number;
  inWindow: boolean;
  observed: { value: number; level: string };
  climatology: { value: number; level: string } | null;
  /** The forecast at each lead below FORECAST_LEADS that reached the day, with when it was issued. */
  forecast: Array<{ value: number; level: string; issuedAt: number } | null>;
  /** The ranked probability score of the outlook issued `lead` days before, at each lead. */
  outlookRps: Array<number | null>;
  /** Climatology's ranked probability score on the day (the same at every lead). */
  climatologyRps: number | null;
}

const CATEGORIES = seasonCategories([]).filter((c): c is SeasonCategory & { name: Graded } =>
  ['tree', 'grass', 'weed', 'ragweed'].includes(c.name),
);

/** A period's days, inclusive. */
interface Period {
  from: number;
  to: number;
}
const within = (p: Period) => (x: { day: number }) => x.day >= p.from && x.day <= p.to;

/**
 * The season timing an outlook issued on a day could know: this season year's start against each
 * complete earlier year's, once it had started before that day, keyed (as Climatology takes it) by
 * the calendar year of the same date in the earlier year; none before the start. Made once for
 * each season year, calendar year and side of the start: the days of one are scored together.
 */
class ShiftsKnown {
  private readonly made = new Map<string, { shifts: Map<number, number>; key: string }>();
  /** Each season year's start, as a day number. */
  private readonly starts = new Map<number, number>();

  constructor(
    private readonly seasons: ReadonlyMap<number, CategorySeason>,
    private readonly category: string,
  ) {
    for (const [year, season] of seasons) if (season.season?.start) this.starts.set(year, dayNumber(season.season.start));
  }

  /** The timing known on `issueDay`, and a key that is the same for the same timing. */
  on(issueDay: number): { shifts: Map<number, number>; key: string } {
    const year = seasonYearOf(this.category, issueDay);
    const start = this.starts.get(year);
    const started = start !== undefined && start < issueDay;
    const calendarYear = civilDate(issueDay)[0];
    const memo = `${year} ${calendarYear} ${started}`;
    let known = this.made.get(memo);
    if (!known) {
      const shifts = new Map<number, number>();
      if (started)
        for (const earlier of this.seasons.get(year)!.comparison.years) {
          const days = earlier.start_difference_days;
          if (days !== null && Math.abs(days) <= MAX_SHIFT_DAYS) shifts.set(calendarYear - (year - earlier.year), days);
        }
      this.made.set(memo, (known = { shifts, key: JSON.stringify([...shifts]) }));
    }
    return known;
  }
}

/** The outlooks issued on each of the days, each with the timing it could know, paired with what was observed. */
function pastOutlooks(series: SeasonSeries, category: Graded, known: ShiftsKnown, issueDays: Iterable<number>): OutlookPair[] {
  // Issue days that know the same timing are scored together, on one climatology; a day none of
  // whose targets has an earlier year around its date (a store's first year) gives no pair.
  const reference = new ClimatologyReference(series, category);
  const pairable = (day: number) => {
    for (let t = day; t < day + OUTLOOK_LEADS; t++) if (series.has(t) && reference.has(t)) return true;
    return false;
  };
  const groups = new Map<string, { shifts: Map<number, number>; days: number[] }>();
  for (const day of issueDays) {
    if (!pairable(day)) continue;
    const { shifts, key } = known.on(day);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { shifts, days: [] }));
    group.days.push(day);
  }
  return [...groups.values()].flatMap((g) => outlookPairs(series, category, g.days, { shiftDays: g.shifts }, reference));
}

/** Pairs by day, in an array from the first pair's day: every lead and period looks days up in them. */
class PairsByDay {
  private readonly first: number;
  private readonly at: Array<Pair | undefined>;

  /** `pairs` in order of day. */
  constructor(pairs: readonly Pair[]) {
    this.first = pairs[0]?.day ?? 0;
    this.at = new Array<Pair | undefined>(pairs.length === 0 ? 0 : pairs.at(-1)!.day - this.first + 1);
    for (const p of pairs) this.at[p.day - this.first] = p;
  }

  get(day: number): Pair | undefined {
    const i = day - this.first;
    return i >= 0 && i < this.at.length ? this.at[i] : undefined;
  }
}

/** A reference's pairs on the days given, in their order. */
function pairsOn(pairs: PairsByDay, days: readonly number[]): Pair[] {
  const found: Pair[] = [];
  for (const day of days) {
    const pair = pairs.get(day);
    if (pair) found.push(pair);
  }
  return found;
}

/**
 * Climatology's scores on a period's reference days, made again only when the days differ from
 * the last asked for the period: climatology's pairs do not depend on the lead, and every lead
 * scores nearly the same days (those observed, with an outlook or a forecast at the lead).
 */
class ClimatologyScores {
  private readonly last = new Map<string, { days: readonly number[]; table: SkillTable }>();

  constructor(private readonly pairs: PairsByDay) {}

  on(period: Period, days: readonly number[]): SkillTable {
    const key = `${period.from} ${period.to}`;
    const last = this.last.get(key);
    if (last && last.days.length === days.length && last.days.every((d, i) => d === days[i])) return last.table;
    const table = skill(pairsOn(this.pairs, days));
    this.last.set(key, { days, table });
    return table;
  }
}

/** The scores at one lead over one period. */
function scores(
  period: Period,
  lead: number,
  forecast: readonly Pair[],
  outlooks: readonly OutlookPair[],
  persistence: PairsByDay,
  climatology: ClimatologyScores,
): SkillScores {
  const inPeriod = within(period);
  const paired = forecast.filter(inPeriod);
  const scored = outlooks.filter(inPeriod);
  const referenceDays = lead < FORECAST_LEADS ? paired.map((p) => p.day) : scored.map((p) => p.day);
  return {
    from: dayString(period.from),
    to: dayString(period.to),
    forecast: skill(paired),
    persistence: skill(pairsOn(persistence, referenceDays)),
    climatology: climatology.on(period, referenceDays),
    reference_days: lead < FORECAST_LEADS ? 'forecast' : 'outlook',
    outlook: outlookSkill(scored),
  };
}

/** Why the served probabilities are the outlook's or climatology's, from the outlook's skill at the lead over the window. */
function servedBecause(s: OutlookSkill): string {
  if (s.beats_climatology === null)
    return `no score of the outlook at this lead over the last ${WINDOW_DAYS} days (${s.reason}): climatology is served`;
  const score = `RPSS ${s.rpss!.toFixed(2)} over ${s.pairs} days`;
  return s.beats_climatology
    ? `the outlook beat climatology at this lead over the last ${WINDOW_DAYS} days (${score})`
    : `the outlook did not beat climatology at this lead over the last ${WINDOW_DAYS} days (${score}): climatology is served`;
}

/** The outlook issued the day after `latest`, each day's probabilities the outlook's where it beat climatology, else climatology's. */
function servedOutlook(
  series: SeasonSeries,
  category: Graded,
  known: ShiftsKnown,
  latest: number,
  skills: readonly OutlookSkill[],
): ServedOutlook {
  const issueDay = latest + 1;
  const { days, category: _c, ...own } = outlook(series, category, issueDay, { shiftDays: known.on(issueDay).shifts });
  const climate = outlook(series, category, issueDay, { anomaly: false }).days;
  return {
    ...own,
    days: days.map((d, lead) => {
      const skillAt = skills[lead]!;
      const served = skillAt.beats_climatology === true ? 'outlook' : 'climatology';
      const climatology = climate[lead]!.probabilities;
      return {
        date: d.date,
        lead,
        probabilities: served === 'outlook' ? d.probabilities : climatology,
        served,
        why: servedBecause(skillAt),
        outlook: d.probabilities,
        climatology,
        rpss: skillAt.rpss,
      };
    }),
  };
}

/** A category's skill and its rows of the pairs file. */
function categorySkill(
  inputs: SkillInputs,
  category: SeasonCategory & { name: Graded },
  /** The forecasts' target days at each lead below FORECAST_LEADS (latestAtLead). */
  kept: ReadonlyArray<readonly KeptDay[]>,
  window: Period,
): { skill: CategorySkill; rows: PairRow[] } {
  const { rows: daily } = inputs;
  const c = category.name;
  const series = seasonSeries(daily, category);
  const latest = window.to;
  const known = new ShiftsKnown(categorySeasons(daily, category, latest), c);
  const days = [...series.keys()].sort((a, b) => a - b);
  const first = daily[0]?.day ?? latest;
  const outlooks = pastOutlooks(
    series,
    c,
    known,
    Array.from({ length: Math.max(0, latest - first) }, (_, i) => first + 1 + i),
  );
  const outlooksAt = Array.from({ length: OUTLOOK_LEADS }, (): OutlookPair[] => []);
  for (const p of outlooks) outlooksAt[p.lead]!.push(p);
  const byLead = outlooksAt.map((atLead, lead) => {
    const forecast = lead < FORECAST_LEADS ? pairsOf(kept[lead]!, c, series) : [];
    const persistence = new PairsByDay(persistencePairs(series, days, lead));
    return { lead, forecast, outlooks: atLead, persistence };
  });
  const climatology = new PairsByDay(climatologyPairs(series, days));
  // Each day's season year, once: the days are in order, so a year's days are a run of them.
  const yearOf = seasonYearsOf(c, days);
  const years = yearsHeld(series, c).map((year) => ({ year, from: days[yearOf.indexOf(year)]!, to: days[yearOf.lastIndexOf(year)]! }));
  const climatologyScores = new ClimatologyScores(climatology);
  const leads = byLead.map(({ lead, forecast, outlooks: o, persistence }) => ({
    lead,
    window: scores(window, lead, forecast, o, persistence, climatologyScores),
    years: years.map((y) => ({ year: y.year, ...scores(y, lead, forecast, o, persistence, climatologyScores) })),
  }));
  const outlook = servedOutlook(
    series,
    c,
    known,
    latest,
    leads.map((l) => l.window.outlook),
  );

  // The pairs file: one row per observed day, with every forecast and score it takes part in.
  const forecastOn = byLead.slice(0, FORECAST_LEADS).map(({ forecast }) => new PairsByDay(forecast));
  const rpsOn = new Map<number, { outlook: Array<number | null>; climatology: number }>();
  for (const p of outlooks) {
    let r = rpsOn.get(p.day);
    if (!r)
      rpsOn.set(
        p.day,
        (r = {
          outlook: new Array<number | null>(OUTLOOK_LEADS).fill(null),
          climatology: p.rps_climatology,
        }),
      );
    r.outlook[p.lead] = p.rps;
  }
  const rows = days.map((day, i): PairRow => {
    const seen = series.get(day)!;
    const clim = climatology.get(day)?.forecast;
    const rps = rpsOn.get(day);
    return {
      city: inputs.city,
      category: c,
      day,
      seasonYear: yearOf[i]!,
      inWindow: day >= window.from && day <= window.to,
      observed: { value: seen.value, level: seen.risk! },
      climatology: clim ? { value: clim.value, level: clim.level } : null,
      forecast: forecastOn.map((on) => {
        const p = on.get(day);
        return p ? { value: p.forecast.value, level: p.forecast.level, issuedAt: p.issuedAt! } : null;
      }),
      outlookRps: rps?.outlook ?? new Array<number | null>(OUTLOOK_LEADS).fill(null),
      climatologyRps: rps?.climatology ?? null,
    };
  });
  return { skill: { category: c, leads, outlook }, rows };
}

/** Counts of the forecasts kept: how many, on how many days, when, and how they came. */
function archiveOf(forecasts: readonly KeptForecast[]): ForecastSkill['archive'] {
  const issued = forecasts.map((f) => f.issuedAt);
  const count = (origin: KeptOrigin) => forecasts.filter((f) => f.origin === origin).length;
  return {
    forecasts: forecasts.length,
    issue_days: new Set(issued.map((t) => Math.floor(t / DAY_MS))).size,
    first_issued: issued.length === 0 ? null : isoTime(Math.min(...issued)),
    last_issued: issued.length === 0 ? null : isoTime(Math.max(...issued)),
    by: { build: count('build'), function: count('function'), made_again: count('made again') },
  };
}

/** A city's forecast skill, and its rows of the pairs file. */
export function citySkill(inputs: SkillInputs): { skill: ForecastSkill; rows: PairRow[] } {
  const latest = inputs.rows.at(-1)?.day;
  const base = {
    city: inputs.city,
    provider: inputs.provider,
    ...(inputs.simulated ? { simulated: true as const } : {}),
    days: 'UTC' as const,
    min_pairs: MIN_PAIRS,
    archive: archiveOf(inputs.forecasts),
  };
  if (latest === undefined)
    return { skill: { ...base, latest: null, window: { days: WINDOW_DAYS, from: null, to: null }, categories: [] }, rows: [] };
  const window = { from: latest - WINDOW_DAYS + 1, to: latest };
  const targets = inputs.forecasts.flatMap((f) => f.days);
  const kept = Array.from({ length: FORECAST_LEADS }, (_, lead) => latestAtLead(targets, lead));
  const made = CATEGORIES.map((c) => categorySkill(inputs, c, kept, window));
  return {
    skill: {
      ...base,
      latest: dayString(latest),
      window: { days: WINDOW_DAYS, from: dayString(window.from), to: dayString(window.to) },
      categories: made.map((m) => m.skill),
    },
    rows: made.flatMap((m) => m.rows),
  };
}
