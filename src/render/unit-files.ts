/**
 * One unit of a render (the files made once, a city's, or a day's), in a worker or in-process:
 * its files reused from the render cache while what they are made from is unchanged, else
 * rendered through the handlers.
 */
import type { ApiContext } from '../api/context.js';
import { respondWith } from '../api/http.js';
import type { Route } from '../api/routes.js';
import { fileFor, formsOf, type Unit } from '../api/static-forms.js';
import type { FileWriter } from './file-writer.js';
import type { PlannedUnit } from './input-digests.js';
import type { CachedUnit, RenderCache } from './render-cache.js';
import { RenderError } from './render-error.js';

/**
 * Puts a unit's files under the writer's folder: the render cache's when made from the same
 * inputs, else rendered. Says what they were made from, for the next render's cache.
 */
export async function renderOrReuse(
  { unit, inputs }: PlannedUnit,
  routes: readonly Route[],
  ctx: ApiContext,
  out: FileWriter,
  cache: RenderCache | undefined,
): Promise<{ key: string; unit: CachedUnit; reused: boolean } | undefined> {
  if (!cache || !inputs) {
    await renderUnit(unit, routes, ctx, out);
    return undefined;
  }
  const { key, digest } = inputs;
  const cached = cache.unit(key, digest, out.folder);
  if (cached) {
    for (const bytes of cached.bytes) out.count(bytes);
    return { key, unit: cached.unit, reused: true };
  }
  return { key, unit: { digest, files: await out.record(() => renderUnit(unit, routes, ctx, out)) }, reused: false };
}

/** Renders every form of the unit's kind (city-day forms on the days the budget takes): each of its requests must answer 200. */
export async function renderUnit(unit: Unit, routes: readonly Route[], ctx: ApiContext, out: FileWriter): Promise<void> {
  for (const { route, form } of formsOf(routes, unit.kind)) {
    if (form.perCityDay && !(unit.kind === 'date' && unit.cityDays)) continue;
    for (const params of form.enumerate(ctx.store, unit)) {
      const query = new URLSearchParams({ ...params, ...form.fixed });
      const answer = await respondWith(route, { method: 'GET', path: route.path, query }, ctx, () => {});
      if (answer.status !== 200 || typeof answer.body !== 'string') {
        throw new RenderError(
          `${route.path}?${query} answered ${answer.status}${typeof answer.body === 'string' ? `: ${answer.body.slice(0, 200)}` : ''}; the previous render stays served`,
        );
      }
      out.put(fileFor(form, params), answer.body);
    }
  }
}
