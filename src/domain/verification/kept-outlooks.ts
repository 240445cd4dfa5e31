/**
 * Outlooks as issued (docs/data.md, "The outlook", "Forecast skill"): each day, for each city and
 * graded category, what the store knew and said, kept so that it is verified later as it was
 * issued, never made again from what the store holds by then.
 *
 * An issue day's record holds, for each category:
 * - whether the season was under way (season-known.ts), for scores "in season";
 * - persistence, the last complete day observed before it (verification-references.ts);
 * - the outlook to 7 days ahead, as level counts (outlook.ts), with what it read;
 * - at each lead, what was served: the outlook where it had beaten climatology (its RPSS interval above 0) over the
 *   trailing window at that lead, else climatology; and the window's skill it was chosen on. An
 *   outlook made again for a past day (the sample's, so that a new deployment has scores at once)
 *   was never served, and says so (null).
 *
 * Climatology, the other reference, is kept by target day: made once, by the first issue that
 * reaches the day (7 days before it), from the earlier years around its date as the store held
 * them: the level counts the outlook is scored against, and the median day the categorical
 * scores compare with.
 */
import { type DayValues, dailyRowOf } from '../day-values.js';
import type { OutlookSkill } from '../schemas.js';
import { SeasonKnown } from '../seasons/known.js';
import { type SeasonSeries, seasonCategories, seasonSeries } from '../seasons/year.js';
import type { Graded } from '../species/risk.js';
import { GRADED } from '../species/risk.js';
import { type IssuedOutlook, type LevelCounts, OUTLOOK_LEADS, Outlooks } from './outlook.js';
import { persistenceOn } from './references.js';
import type { DayLevel } from './scores.js';
import { observedSeries } from './target-days.js';

/** What a lead served: the outlook's probabilities, or climatology's. */
export type Served = 'outlook' | 'climatology';

/** The outlook's skill over the trailing window at a lead, as it stood when what to serve was chosen. */
export type Decision = Pick<OutlookSkill, 'days' | 'rpss' | 'rpss_interval' | 'beats_climatology' | 'reason'>;

/** What an issue day knew and said of one category. */
export interface KeptCategory {
  inSeason: boolean;
  persistence: (DayLevel & { day: number }) | null;
  outlook: IssuedOutlook;
  /** What each lead served; null where nothing was (an outlook made again). */
  served: Array<Served | null>;
  /** The skill each lead's choice was made on; null where none was made. */
  decisions: Array<Decision | null>;
}

/** How a kept outlook came: issued by a build (and served), or made again for a past day (never served). */
export type OutlookOrigin = 'build' | 'made again';

/** What one issue day issued, for one city. */
export interface KeptOutlook {
  issueDay: number;
  /** The provider of the days it read. */
  source: string;
  origin: OutlookOrigin;
  categories: Partial<Record<Graded, KeptCategory>>;
}

/** Climatology of one category on one target day: its level counts, and its median day (none without members). */
export interface FrozenClimatology extends LevelCounts {
  median: DayLevel | null;
}

/** Climatology of every graded category on one target day, made by the first issue that reached it. */
export interface KeptClimatology {
  day: number;
  categories: Partial<Record<Graded, FrozenClimatology>>;
}

/** What an issue makes before anything is chosen: each category's record without what was served. */
export type Undecided = Omit<KeptCategory, 'served' | 'decisions'>;

const SEASONS = new Map(seasonCategories([]).map((c) => [c.name, c]));

/**
 * Issues a city's outlooks and climatologies from its UTC days (oldest first), each reading only
 * the days before its issue day: the outlook (anomaly, weights, season timing), persistence and
 * the season's state; a climatology reads earlier years only. Made once for many issue days.
 */
export class CityIssuer {
  private readonly categories: Array<{
    category: Graded;
    observed: SeasonSeries;
    outlooks: Outlooks;
    known: SeasonKnown;
  }>;

  constructor(days: readonly DayValues[]) {
    const rows = days.map((v) => ({ day: v.day, row: dailyRowOf(v) }));
    this.categories = GRADED.map((category) => {
      const observed = observedSeries(days, category);
      return {
        category,
        observed,
        outlooks: new Outlooks(observed, category),
        // Season timing as the seasons answers measure it: on the daily rows.
        known: new SeasonKnown(seasonSeries(rows, SEASONS.get(category)!), category),
      };
    });
  }

  /** The observed days of a category as verification reads them. */
  observed(category: Graded): SeasonSeries {
    return this.categories.find((c) => c.category === category)!.observed;
  }

  /** What `issueDay` knew and said of each category: a category without a day observed before it is left out. */
  issue(issueDay: number): Partial<Record<Graded, Undecided>> {
    const out: Partial<Record<Graded, Undecided>> = {};
    for (const c of this.categories) {
      if (c.observed.size === 0) continue;
      const known = c.known.on(issueDay);
      out[c.category] = {
        inSeason: known.inSeason,
        persistence: persistenceOn(c.observed, issueDay),
        outlook: c.outlooks.issue(issueDay, { shiftDays: known.shifts }),
      };
    }
    return out;
  }

  /** Climatology of each category on target day `day`, as the earlier years held it. */
  climatology(day: number): KeptClimatology {
    const categories: KeptClimatology['categories'] = {};
    for (const c of this.categories) {
      if (c.observed.size === 0) continue;
      const { members, counts, median } = c.outlooks.climatology(day);
      categories[c.category] = { members, counts, median: median ?? null };
    }
    return { day, categories };
  }
}

/** Leads' choices all null: an outlook made again, never served. */
export const unserved = (u: Undecided): KeptCategory => ({
  ...u,
  served: new Array<Served | null>(OUTLOOK_LEADS).fill(null),
  decisions: new Array<Decision | null>(OUTLOOK_LEADS).fill(null),
});

/**
 * What to serve at each lead: the outlook where its skill over the trailing window at that lead
 * beat climatology, its RPSS interval above 0 (outlook.ts, outlookSkill), else climatology.
 */
export function chooseServed(u: Undecided, skills: readonly OutlookSkill[]): KeptCategory {
  return {
    ...u,
    served: skills.map((s) => (s.beats_climatology === true ? 'outlook' : 'climatology')),
    decisions: skills.map(({ days, rpss, rpss_interval, beats_climatology, reason }) => ({
      days,
      rpss,
      rpss_interval,
      beats_climatology,
      reason,
    })),
  };
}
