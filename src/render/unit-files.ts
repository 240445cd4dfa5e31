/**
 * One unit of a render (the files made once, a city's, or a day's), in a worker or in-process:
 * its files reused from the render cache while what they are made from is unchanged, else
 * rendered through the handlers.
 */
import type { ApiContext } from '../api/contract/context.js';
import { formsOf } from '../api/contract/route.js';
import { fileFor, type Unit } from '../api/contract/static-forms.js';
import { respondByRoute } from '../api/http/respond.js';
import type { Route } from '../api/routes.js';
import type { FileRecord } from '../output/file-records.js';
import type { FileWriter } from '../output/file-writer.js';
import { RenderError } from '../output/render-error.js';
import type { PlannedUnit } from './cache/input-digests.js';
import type { CachedUnit, RenderCache } from './cache/render-cache.js';

/** One request of a unit, and the file its answer goes to. */
interface UnitRequest {
  route: Route;
  query: URLSearchParams;
  file: string;
}

/** Every request of a unit: each form of its kind (city-day forms on the days the budget takes), each parameter set. */
function requestsOf(unit: Unit, routes: readonly Route[], ctx: ApiContext): UnitRequest[] {
  const requests: UnitRequest[] = [];
  for (const { route, form } of formsOf(routes, unit.kind)) {
    if (form.perCityDay && !(unit.kind === 'date' && unit.cityDays)) continue;
    for (const params of form.enumerate(ctx.store, unit))
      requests.push({ route, query: new URLSearchParams({ ...params, ...form.fixed }), file: fileFor(form, params) });
  }
  return requests;
}

/**
 * Puts a unit's files under the writer's folder: the render cache's when made from the same
 * inputs and they are the files the unit writes, else rendered. Says what they were made from
 * and records them, for the next render's cache.
 */
export async function renderOrReuse(
  { unit, inputs }: PlannedUnit,
  routes: readonly Route[],
  ctx: ApiContext,
  out: FileWriter,
  cache: RenderCache | undefined,
  records: Map<string, FileRecord> | undefined,
): Promise<{ key: string; unit: CachedUnit; reused: boolean } | undefined> {
  const requests = requestsOf(unit, routes, ctx);
  if (!records || !inputs) {
    await renderRequests(requests, ctx, out);
    return undefined;
  }
  const { key, digest } = inputs;
  const files = requests.map((r) => r.file);
  const cached = cache?.unit(key, digest, files, out.folder);
  if (cached) {
    for (const [file, record] of cached) {
      out.count(record[1]);
      records.set(file, record);
    }
    return { key, unit: { digest, files }, reused: true };
  }
  await out.recording(records, () => renderRequests(requests, ctx, out));
  return { key, unit: { digest, files }, reused: false };
}

/** Renders requests: each must answer 200. */
async function renderRequests(requests: readonly UnitRequest[], ctx: ApiContext, out: FileWriter): Promise<void> {
  for (const { route, query, file } of requests) {
    const answer = await respondByRoute(route, { method: 'GET', path: route.path, query }, ctx, () => {});
    if (answer.status !== 200 || typeof answer.body !== 'string') {
      throw new RenderError(
        `${route.path}?${query} answered ${answer.status}${typeof answer.body === 'string' ? `: ${answer.body.slice(0, 200)}` : ''}; the previous render stays served`,
      );
    }
    out.put(file, answer.body);
  }
}
