/**
 * Every answer parses with its own route's schemas, as zod reads them: each file the render wrote
 * for a sample store (every form of every route) with the route's response schema, and the
 * functions' answers, errors included, with the schema the route documents for their status.
 * The OpenAPI document is checked against the same bodies elsewhere (test/helpers/openapi.ts);
 * this is the schema the handler's type comes from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ErrorBody } from '../../src/api/contract/error.js';
import { errorSchema } from '../../src/api/contract/route.js';
import { requestForFile } from '../../src/api/http/file-requests.js';
import { API_ROUTES, findRoute, type Route } from '../../src/api/routes.js';
import { useSite } from '../helpers/site.js';

const site = useSite();

/** Every file under a folder, as paths from it. */
function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(root, join(dir, e.name)) : [relative(root, join(dir, e.name))],
  );
}

/** The schema a route's answer of this status must parse with: its response, or the error its operation documents. */
function schemaFor(route: Route, status: number): z.ZodType {
  // /api/health answers its body with 503 when the data is stale.
  if (status === 200 || (status === 503 && route.path === '/api/health')) return route.response;
  const documented = errorSchema(route, status);
  expect(documented, `${route.path} documents no ${status}`).toBeDefined();
  return documented!;
}

/** Parses a body, failing with the request and zod's issues. */
function expectParses(schema: z.ZodType, body: unknown, what: string): void {
  const parsed = schema.safeParse(body);
  expect(parsed.success, `${what}: ${parsed.error?.message}`).toBe(true);
}

describe('every answer parses with its route schema', () => {
  it("every rendered file of every form, with its route's response schema", () => {
    const checked = new Map<string, number>();
    for (const file of filesUnder(join(site.publish, 'data'))) {
      if (!file.endsWith('.json')) continue;
      // A route's own file (the bulk manifest), or a rendered answer of an /api/ route.
      const route = findRoute(`/data/${file}`) ?? findRoute(requestForFile(`/data/${file}`, new URLSearchParams())?.path ?? '');
      expect(route, `data/${file} stands for no route`).toBeDefined();
      expectParses(route!.response!, JSON.parse(readFileSync(join(site.publish, 'data', file), 'utf8')), `data/${file}`);
      checked.set(route!.path, (checked.get(route!.path) ?? 0) + 1);
    }
    // Each route with forms had files checked.
    const rendered = API_ROUTES.filter((r) => r.forms.length > 0).map((r) => r.path);
    expect([...checked.keys()].sort()).toEqual(rendered.sort());
  });

  const requests = [
    '/api/pollen?city=austin&date=2025-04-02&timezone=local',
    '/api/pollen-range?from=2025-04-01&to=2025-04-03&city=austin,wichita',
    '/api/pollen-range?from=2025-04-01&to=2025-04-04&aggregate=day&timezone=local',
    '/api/pollen-range?from=2025-04-01&to=2025-04-09&limit=3',
    '/api/forecast?city=austin',
    '/api/forecast?city=honolulu&aggregate=day&timezone=local',
    '/api/alerts?city=austin&min=low',
    '/api/forecast-map?day=tomorrow',
    '/api/nearest?zip=78701&limit=3',
    '/api/nearest?lat=36.15&lon=-95.99',
    '/api/health',
    '/api/season?city=austin&category=grass&year=2025',
    '/api/weather?city=austin&date=2025-03-01',
    '/api/map-data?date=2020-01-01',
    // Errors: each with the schema its route documents for the status.
    '/api/pollen?city=atlantis',
    '/api/pollen?date=2025-02-30',
    '/api/pollen-range?from=2025-04-03&to=2025-04-01',
    '/api/season?city=austin&year=2019',
    '/api/season?city=tulsa',
    '/api/nearest?lat=25&lon=-150',
    '/api/nearest?zip=10008',
    '/api/forecast?city=xanadu',
    '/api/alerts?city=austin&format=pdf',
    '/api/forecast-map?day=soon',
    '/api/nope',
  ];

  it.each(requests)('%s, answered by a function', async (url) => {
    const res = await site.get(url, { headers: { 'accept-encoding': 'identity' } });
    const body = await res.json();
    const route = findRoute(new URL(url, 'http://x').pathname);
    if (!route) {
      expect(res.status).toBe(404);
      expectParses(ErrorBody, body, url);
      return;
    }
    expectParses(schemaFor(route, res.status), body, `${url} (${res.status})`);
  });

  it('the requests above reach every route that no rendered file answers', () => {
    const reached = new Set(requests.map((u) => new URL(u, 'http://x').pathname));
    for (const route of API_ROUTES.filter((r) => r.forms.length === 0)) expect(reached, route.path).toContain(route.path);
  });
});
