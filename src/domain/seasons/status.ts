/**
 * Where a season stands, by a concentration definition (docs/data.md, "Seasons"; docs/decisions.md,
 * "Seasons").
 *
 * The percentage method (seasons.ts) needs the year's total, so it can only be applied once a year
 * is over: Bastl et al. 2018 ("Defining pollen seasons: background and recommendations", Curr
 * Allergy Asthma Rep 18:73, doi:10.1007/s11882-018-0829-z) recommend percentage definitions for
 * retrospective use and concentration definitions for prospective use. The concentration
 * definition here is the EAACI one (Pfaar et al. 2017, "Defining pollen exposure times for clinical
 * trials of allergen immunotherapy for pollen-induced rhinoconjunctivitis - an EAACI position
 * paper", Allergy 72:713-722, doi:10.1111/all.13092):
 *
 * - the season starts on the first day of the first period of 5 days within 7 consecutive days on
 *   which the daily mean is at least a threshold, the 5 days summing to at least ten times it;
 * - it ends on the last day of the last such period.
 *
 * Read as the AeRobiology R package's `calculate_ps(method = "clinical")` reads it (cran/AeRobiology,
 * R/calculate_ps.R, 2.0.x): a start is a day at or above the threshold whose 7 days from it hold 5
 * such days whose 5 highest values sum to at least the sum; an end is such a day whose 7 days up to
 * it do. A day without a value counts as below the threshold.
 *
 * While the year is under way, "the last such period" is only the last so far: the season is said
 * to have ended once a whole window of 7 days has followed it without another, and that end is
 * provisional (pollen may return and move it) until the year is complete.
 */
import { dayString } from '../dates.js';
import type { SeasonStatus } from '../schemas.js';

/** A category's daily means by day number; days without a value are absent. */
export type DailyMeans = ReadonlyMap<number, { value: number }>;

/** The EAACI criterion for a pollen type: 5 days of 7 with at least `daily` grains/m³, summing to at least `sum`. */
export interface ExposureRule {
  /** The pollen type the criterion was written for. */
  taxon: 'birch' | 'grass' | 'cypress' | 'ragweed';
  daily: number;
  sum: number;
}

/** Days at or above the threshold that make a period. */
export const PERIOD_DAYS = 5;
/** The consecutive days they must fall in. */
export const WINDOW_DAYS = 7;

/**
 * The EAACI thresholds (Pfaar et al. 2017, as cran/AeRobiology R/calculate_ps.R sets them for each
 * `type`; thomaslt1992/AeroPollen's clinical_thresholds.yaml has the same). Each category takes the
 * criterion of the taxon that stands for it:
 *
 * - tree and its species: birch's (10, sum 100). Birch and grass are the two whose criteria were
 *   checked against symptom diaries (Karatzas et al. 2018 in Germany; Pfaar et al. 2020, "Pollen
 *   season is reflected on symptom load for grass and birch pollen-induced allergic rhinitis in
 *   different geographic areas", Allergy, PMID 31721236, in Austria, Finland and France), and
 *   10 grains/m³ lies within the 8-25 that Comtois & Gagnon 1988 found as tree thresholds in
 *   Montreal (pollen.utulsa.edu, Exposure-Symptoms summaries). The Cypress / Juniper / Cedar species
 *   (mountain cedar is a juniper) takes cypress's (20, sum 200); in Thessaloniki that criterion found
 *   no season in 10% of 30 years (Karatzas et al. 2019, Aerobiologia 35:659-669), so a year may
 *   have none.
 * - grass and its species: grass's (3, sum 30); Comtois & Gagnon found 4-12.
 * - ragweed, weed and the weed species: ragweed's (3, sum 30). The provider's US weed pollen is
 *   ragweed; Comtois & Gagnon found 1-3 grains/m³ for ragweed, so 3 is the cautious end. Hoffmann
 *   et al. 2020 (Allergy, doi:10.1111/all.14153) applied the criteria to Ambrosia and Artemisia,
 *   among seven taxa in six Mediterranean cities, and found seasons cut into segments by low days:
 *   a season may end here and start again within a year, and its end moves with it.
 *
 * These are the provider's modelled concentrations for a point, not the Hirst-trap counts the
 * thresholds were set on: a modelled series is smoother, and may cross them on other days.
 */
export const EXPOSURE_RULES: Readonly<Record<ExposureRule['taxon'], ExposureRule>> = {
  birch: { taxon: 'birch', daily: 10, sum: 100 },
  grass: { taxon: 'grass', daily: 3, sum: 30 },
  cypress: { taxon: 'cypress', daily: 20, sum: 200 },
  ragweed: { taxon: 'ragweed', daily: 3, sum: 30 },
};

/** The criterion a category is measured with: tree, grass, weed, ragweed, or a species column (`tree_oak`). */
export function exposureRule(category: string): ExposureRule {
  if (/^tree_.*(cypress|juniper|cedar)/.test(category)) return EXPOSURE_RULES.cypress;
  if (category === 'tree' || category.startsWith('tree_')) return EXPOSURE_RULES.birch;
  if (category === 'grass' || category.startsWith('grass_')) return EXPOSURE_RULES.grass;
  return EXPOSURE_RULES.ragweed;
}

/** Whether the days `first`..`last` hold a period: 5 at or above the threshold whose 5 highest sum to the rule's sum. */
function holdsPeriod(series: DailyMeans, first: number, last: number, rule: ExposureRule): boolean {
  const high: number[] = [];
  for (let day = first; day <= last; day++) {
    const v = series.get(day)?.value;
    if (v !== undefined && v >= rule.daily) high.push(v);
  }
  if (high.length < PERIOD_DAYS) return false;
  return (
    high
      .sort((a, b) => b - a)
      .slice(0, PERIOD_DAYS)
      .reduce((a, b) => a + b, 0) >= rule.sum
  );
}

const atOrAbove = (series: DailyMeans, day: number, rule: ExposureRule) => (series.get(day)?.value ?? -1) >= rule.daily;

/** The first day of the first period and the last day of the last one in `from`..`to`, or null. */
export function exposureSpan(series: DailyMeans, from: number, to: number, rule: ExposureRule): { start: number; end: number } | null {
  let start: number | null = null;
  for (let day = from; day <= to && start === null; day++)
    if (atOrAbove(series, day, rule) && holdsPeriod(series, day, Math.min(day + WINDOW_DAYS - 1, to), rule)) start = day;
  if (start === null) return null;
  // The start's own period ends within its window, so an end exists and is not before the start.
  for (let day = to; day >= start; day--)
    if (atOrAbove(series, day, rule) && holdsPeriod(series, Math.max(day - WINDOW_DAYS + 1, from), day, rule)) return { start, end: day };
  return { start, end: start };
}

/**
 * Where a category's season stands in a year (`from`..`to`) on the latest data day: not started,
 * in season, ended (a window of 7 days after its last period, or the year over), or, in a year
 * that is over, no season at all. `complete`: whether the year is over with enough days, which
 * makes the answer final.
 */
export function seasonStatus(
  series: DailyMeans,
  window: { from: number; to: number },
  latest: number,
  complete: boolean,
  category: string,
): SeasonStatus {
  const rule = exposureRule(category);
  const closed = window.to <= latest;
  const span = exposureSpan(series, window.from, Math.min(window.to, latest), rule);
  const ended = span !== null && (closed || latest - span.end >= WINDOW_DAYS);
  return {
    state: span === null ? (closed ? 'no season' : 'not started') : ended ? 'ended' : 'in season',
    start: span === null ? null : dayString(span.start),
    end: span !== null && ended ? dayString(span.end) : null,
    provisional: !complete,
    criterion: { taxon: rule.taxon, daily: rule.daily, sum: rule.sum },
  };
}
