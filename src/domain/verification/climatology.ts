/**
 * A city's climatology of one category: the days of earlier years around the same date. The
 * reference forecast "climatology" (verification-references.ts) and the outlook (outlook.ts) both
 * read it (docs/data.md, "Forecast skill").
 *
 * A pollen calendar, the simplest forecast from observations, is the mean or median of the earlier
 * years' concentrations on the same date, best on data smoothed with a moving mean or median
 * (Šikoparija, Marko, Panić, Jakovetić & Radišić, "How to prepare a pollen calendar for
 * forecasting daily pollen concentrations of Ambrosia, Betula and Poaceae?", BioSense Institute,
 * Novi Sad: its abstract also finds four earlier years the largest step in accuracy).
 * Here each earlier year gives the days within WINDOW_DAYS of the same date: a deployment holds
 * a few years at most, too few days of one date to count levels from, so neighbouring dates are
 * pooled, as ECMWF pools re-forecasts from several start dates around a date for its model climate
 * (https://confluence.ecmwf.int/plugins/viewsource/viewpagesrc.action?pageId=540939099). A week
 * either side was measured against 3, 15 and 30 days on the sample provider's 2025, from its two
 * earlier years (Atlanta, Chicago, Austin, Seattle; tree, grass, weed): the ranked probability
 * score of the levels it gives was the lowest in 8 of the 12, and its Heidke score about that of the
 * narrowest window's; wider windows blur a season's rise and fall.
 */
import { civilDate, dayOfDate, isLeapYear } from '../dates.js';
import { type SeasonSeries, seriesSpan } from '../seasons/year.js';
import { LEVEL_INDEX } from '../species/risk.js';

/** Days either side of the same date that each earlier year contributes. */
export const WINDOW_DAYS = 7;

/** The day of a calendar date (month 1..12) in `year`; 29 February is 28 February in a common year. */
const sameDateIn = (year: number, month: number, date: number): number =>
  dayOfDate(year, month, month === 2 && date === 29 && !isLeapYear(year) ? 28 : date);

/** The same calendar date `years` years before `day` (29 February becomes 28 February). */
export function sameDateYearsBefore(day: number, years: number): number {
  const [thisYear, month, date] = civilDate(day);
  return sameDateIn(thisYear - years, month, date);
}

/**
 * A day's climatological sample: each member (a day of an earlier year) with its year, daily mean
 * and NAB level (its index in RISK_LABELS), in one array of numbers, not an object per member:
 * the outlooks scored over two years ask for a sample of every day, of some thirty members, from
 * each climatology of a city and category (one per season timing).
 */
export class Sample {
  constructor(
    readonly length: number,
    /** Member i's day, year, value and level at 4i to 4i + 3. */
    private readonly members: Float64Array,
  ) {}

  day(i: number): number {
    return this.members[4 * i]!;
  }

  year(i: number): number {
    return this.members[4 * i + 1]!;
  }

  value(i: number): number {
    return this.members[4 * i + 2]!;
  }

  /** The member's level, as its index in RISK_LABELS. */
  level(i: number): number {
    return this.members[4 * i + 3]!;
  }
}

export interface ClimatologyOptions {
  /** Days either side of the date (WINDOW_DAYS). */
  windowDays?: number;
  /**
   * This year's season timing against each earlier year, in days, by that year (positive: this
   * year's season is later, so the day that matches today in that year is earlier), at most
   * MAX_SHIFT_DAYS either way. Years absent are not shifted. The key is the calendar year of the
   * earlier date: a tree season year begins on 1 October (seasons.ts), so from October a date's
   * season year is the next calendar year, and its start difference is that season year's.
   */
  shiftDays?: ReadonlyMap<number, number>;
}

/**
 * The largest season timing difference taken: pollen seasons move by days or weeks from one year
 * to the next, never by months. It also keeps every earlier year's window more than a week
 * before the date, so that a climatology never reads the days an outlook forecasts.
 */
export const MAX_SHIFT_DAYS = 90;

/**
 * A series' days with a value and a level, by day from its first: value, level index and
 * log10(1 + value), the level -1 where a day has none. Made once per series: a city's category is
 * read by a climatology for each season timing, and each reads every day's window many times.
 */
interface Dense {
  first: number;
  values: Float64Array;
  levels: Int8Array;
  logs: Float64Array;
}

const DENSE = new WeakMap<SeasonSeries, Dense>();

function dense(series: SeasonSeries): Dense {
  let made = DENSE.get(series);
  if (made) return made;
  const span = seriesSpan(series);
  // An empty series starts nowhere: every window ends before it.
  const [first, length] = span ? [span.first, span.last - span.first + 1] : [Number.POSITIVE_INFINITY, 0];
  made = {
    first,
    values: new Float64Array(length).fill(Number.NaN),
    levels: new Int8Array(length).fill(-1),
    logs: new Float64Array(length),
  };
  for (const [day, v] of series) {
    if (v.risk === null) continue;
    const i = day - first;
    made.values[i] = v.value;
    made.levels[i] = LEVEL_INDEX[v.risk];
    made.logs[i] = Math.log10(1 + v.value);
  }
  DENSE.set(series, made);
  return made;
}

/** The climatologies made of each series (Climatology.of). */
const MADE = new WeakMap<SeasonSeries, Map<string, Climatology>>();

/** The days of a category's series, read by date from earlier years. */
export class Climatology {
  private readonly dense: Dense;
  readonly windowDays: number;
  private readonly shiftDays: ReadonlyMap<number, number>;
  private readonly logMeans = new Map<number, number | undefined>();
  /** Each day's sample, made once: an outlook scored over a year asks for each target day at every lead. */
  private readonly samples = new Map<number, Sample>();
  /** Where a sample's members are gathered before they are copied into one of its own size. */
  private gathered = new Float64Array(256);

  /**
   * The climatology of a series with these options, made once: an outlook's reference, the
   * climatology reference forecast and each season timing that shifts no year read the same
   * samples, and every sample is made once per climatology.
   */
  static of(series: SeasonSeries, options: ClimatologyOptions = {}): Climatology {
    let made = MADE.get(series);
    if (!made) MADE.set(series, (made = new Map()));
    const shifts = [...(options.shiftDays ?? [])].sort(([a], [b]) => a - b);
    const key = `${options.windowDays ?? WINDOW_DAYS} ${shifts.map(([year, days]) => `${year}:${days}`).join(' ')}`;
    let climatology = made.get(key);
    if (!climatology) made.set(key, (climatology = new Climatology(series, options)));
    return climatology;
  }

  constructor(series: SeasonSeries, options: ClimatologyOptions = {}) {
    this.dense = dense(series);
    this.windowDays = options.windowDays ?? WINDOW_DAYS;
    this.shiftDays = options.shiftDays ?? new Map();
    for (const [year, days] of this.shiftDays)
      if (!(Math.abs(days) <= MAX_SHIFT_DAYS))
        throw new RangeError(`a season shift of ${days} days against ${year} is beyond ±${MAX_SHIFT_DAYS}`);
  }

  /**
   * Each earlier year's window around the same date as `day`, that year's centre moved back by
   * its shift, as indexes into the dense series (clipped to it): `visit(from, to, year)`, from the
   * latest year back, each window's days in order.
   */
  private windows(day: number, visit: (from: number, to: number, year: number) => void): void {
    const [thisYear, month, date] = civilDate(day);
    const { first, levels } = this.dense;
    for (let year = thisYear - 1; ; year--) {
      const centre = sameDateIn(year, month, date) - this.shiftOf(year);
      if (centre + this.windowDays < first) return;
      const from = Math.max(0, centre - this.windowDays - first);
      const to = Math.min(levels.length - 1, centre + this.windowDays - first);
      if (from <= to) visit(from, to, year);
    }
  }

  /** The days with a value within the window around the same date as `day` in each earlier year, that year's centre moved back by its shift. */
  sample(day: number): Sample {
    let sample = this.samples.get(day);
    if (!sample) {
      const { first, values, levels } = this.dense;
      let n = 0;
      this.windows(day, (from, to, year) => {
        if (4 * (n + to - from + 1) > this.gathered.length) {
          const larger = new Float64Array(Math.max(2 * this.gathered.length, 4 * (n + to - from + 1)));
          larger.set(this.gathered);
          this.gathered = larger;
        }
        const g = this.gathered;
        for (let i = from; i <= to; i++) {
          const level = levels[i]!;
          if (level < 0) continue;
          const at = 4 * n++;
          g[at] = first + i;
          g[at + 1] = year;
          g[at + 2] = values[i]!;
          g[at + 3] = level;
        }
      });
      this.samples.set(day, (sample = new Sample(n, this.gathered.slice(0, 4 * n))));
    }
    return sample;
  }

  /** The mean of log10(1 + value) over `day`'s sample; undefined for an empty one. */
  logMean(day: number): number | undefined {
    if (!this.logMeans.has(day)) {
      const { levels, logs } = this.dense;
      let [sum, n] = [0, 0];
      this.windows(day, (from, to) => {
        for (let i = from; i <= to; i++) {
          if (levels[i]! < 0) continue;
          sum += logs[i]!;
          n++;
        }
      });
      this.logMeans.set(day, n === 0 ? undefined : sum / n);
    }
    return this.logMeans.get(day);
  }

  /** The shift taken for an earlier year, in days. */
  shiftOf(year: number): number {
    return this.shiftDays.get(year) ?? 0;
  }
}
