/** One unit of a render (the files made once, a city's, or a day's), in a worker or in-process. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { respondWith } from '../api/http.js';
import { fileFor, formsOf, type Route, type Unit } from '../api/routes.js';
import type { ApiContext } from '../api/handler.js';

/** An enumerated request did not answer 200: nothing of this render is served. */
export class RenderError extends Error {}

export interface Written {
  files: number;
  bytes: number;
}

/** Writes files under a folder, creating each folder once. */
export class FileWriter {
  readonly written: Written = { files: 0, bytes: 0 };
  private readonly made = new Set<string>();

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
    this.written.files++;
    this.written.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  }
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
