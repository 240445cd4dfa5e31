/**
 * The deploy's file budget. Netlify diffs every file of every deploy and its CLI uploads five at
 * a time; Cloudflare Pages takes 20,000 files on its free plan (docs/deploying.md, "The file budget"). So a
 * render writes at most `DEPLOY_MAX_FILES` files: always the files made once, each city's, and
 * each day's across cities (what people read most), then the city-day files of the newest whole
 * days that fit. The fallback function answers every other city-day from the same handler.
 */

import { formsOf } from '../api/contract/route.js';
import type { StaticForm, Unit } from '../api/contract/static-forms.js';
import type { Route } from '../api/routes.js';
import { dayString } from '../domain/dates.js';
import { RenderError } from '../output/render-error.js';
import type { StoreReader } from '../store/reader.js';

export interface FilePlan {
  /** At most this many files in the publish folder. */
  budget: number;
  /** Files every render writes whatever the budget (site files and `_redirects` included). */
  always: number;
  /** City-day files of the days that fit. */
  cityDayFiles: number;
  /** How many newest days have their city-day files rendered. */
  cityDayDays: number;
  /** The oldest day with city-day files rendered (Infinity when none is). */
  cityDaysFrom: number;
}

/**
 * Counts what a render of `store` would write (`extraFiles`: the files written besides the
 * routes' forms) and chooses the newest days whose city-day files fit `budget`. Refuses, before
 * anything is written, a store whose always-rendered files alone exceed it.
 */
export function planFiles(
  store: StoreReader,
  routes: readonly Route[],
  units: Iterable<Unit>,
  extraFiles: number,
  budget: number,
): FilePlan {
  let perStore = extraFiles; // the files made once, and each city's
  const count = (form: StaticForm, unit: Unit) => {
    let n = 0;
    for (const _ of form.enumerate(store, unit)) n++;
    return n;
  };
  const days: Array<{ day: number; always: number; unit: Unit }> = [];
  for (const unit of units) {
    const day = unit.kind === 'date' ? { day: unit.day, always: 0, unit } : undefined;
    for (const { form } of formsOf(routes, unit.kind)) {
      if (form.perCityDay) continue; // counted below, for the newest days only
      if (!day) perStore += count(form, unit);
      else day.always += count(form, unit);
    }
    if (day) days.push(day);
  }
  /** A day's city-day files: counted only for the days the budget may take, newest first. */
  const cityDayFiles = ({ unit }: { unit: Unit }) => {
    let n = 0;
    for (const { form } of formsOf(routes, 'date')) if (form.perCityDay) n += count(form, unit);
    return n;
  };
  days.sort((a, b) => b.day - a.day);
  const always = days.reduce((sum, d) => sum + d.always, perStore);
  if (always > budget) {
    let fit = 0;
    for (let used = perStore; fit < days.length && used + days[fit]!.always <= budget; fit++) used += days[fit]!.always;
    const fewer =
      fit === 0
        ? 'no day fits even then: serve fewer cities, or raise DEPLOY_MAX_FILES'
        : `${fit} days fit: serve at most ${fit} days (SERVE_DAYS=${fit}), fewer cities, or raise DEPLOY_MAX_FILES`;
    throw new RenderError(
      `the files rendered in every deploy (${always}: ${perStore} made once or per city, and ${always - perStore} for ${days.length} days across cities) exceed DEPLOY_MAX_FILES=${budget}; ${fewer}. Nothing was written.`,
    );
  }
  let used = always;
  let taken = 0;
  for (; taken < days.length; taken++) {
    const files = cityDayFiles(days[taken]!);
    if (used + files > budget) break;
    used += files;
  }
  return { budget, always, cityDayFiles: used - always, cityDayDays: taken, cityDaysFrom: taken === 0 ? Infinity : days[taken - 1]!.day };
}

/** The plan in a few words, for the render's summary. */
export function formatPlan(plan: FilePlan): string {
  const span =
    plan.cityDayDays === 0
      ? 'no city-day files'
      : `the city-day files of the newest ${plan.cityDayDays} days (from ${dayString(plan.cityDaysFrom)})`;
  return `${plan.always + plan.cityDayFiles} of DEPLOY_MAX_FILES=${plan.budget} files: ${plan.always} always, and ${span}`;
}
