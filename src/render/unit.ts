/**
 * One unit of a render (the files made once, a city's, or a day's), in a worker or in-process:
 * its files reused from the render cache while what they are made from is unchanged, else
 * rendered through the handlers.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiContext } from '../api/context.js';
import { respondWith } from '../api/http.js';
import type { Route } from '../api/routes.js';
import { fileFor, formsOf, type Unit } from '../api/static-forms.js';
import type { PlannedUnit } from './inputs.js';
import type { CachedUnit, RenderCache } from './render-cache.js';

/** An enumerated request did not answer 200: nothing of this render is served. */
export class RenderError extends Error {}

export interface Written {
  files: number;
  bytes: number;
  /** Of the files, those written anew (the others are hard links to the render cache's). */
  made: number;
}

/** Writes files under a folder, creating each folder once; records the files of a unit with their SHA-256. */
export class FileWriter {
  readonly written: Written = { files: 0, bytes: 0, made: 0 };
  private readonly made = new Set<string>();
  private recorded: Record<string, string> | undefined;

  constructor(readonly folder: string) {}

  /** Counts a file put in the folder by other means (a hard link to the render cache). */
  count(bytes: number): void {
    this.written.files++;
    this.written.bytes += bytes;
  }

  put(file: string, body: string | Uint8Array): void {
    const path = join(this.folder, file);
    const dir = dirname(path);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    writeFileSync(path, body);
    this.written.made++;
    this.count(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    if (this.recorded) this.recorded[file] = createHash('sha256').update(body).digest('hex');
  }

  /** The files `write` puts, with their SHA-256. */
  async record(write: () => Promise<void>): Promise<Record<string, string>> {
    this.recorded = {};
    try {
      await write();
      return this.recorded;
    } finally {
      this.recorded = undefined;
    }
  }
}

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
