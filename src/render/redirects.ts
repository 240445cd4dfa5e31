/**
 * `_redirects`, generated from the route list. First match wins. The rules engine ignores extra
 * query parameters, while Netlify's guidance says a query rule may match only exactly its
 * parameters; the rules give the right answer under both readings:
 * - per route, per-city literal rules (two parameters before one, for the lenient reading), then
 *   a rule sending any other `city` to the fallback function (an unsupported city is a 404, never
 *   another form's file), then date-only rules;
 * - no parameterless file rule for these routes: whatever matches none of the above (no
 *   parameters, or parameters no rule takes exactly) reaches the fallback function through
 *   netlify.toml's `/api/*`, and the function answers the original request from the same handler;
 * - a route with local-day forms has their rules first (`timezone=local` literal in each), then a
 *   `timezone=:timezone` rule to the fallback function, then the rules above;
 * - before all of them, a rule to the fallback function for each parameter no form renders
 *   (`/api/season?year=`), so that no per-city rule answers a request that has it.
 */

import { DATA_PREFIX, formParams, type StaticForm } from '../api/contract/static-forms.js';
import { ROUTES, type Route } from '../api/routes.js';

const rewrite = (from: string, query: string[], to: string) => [from, ...query, to, '200'].join(' ');
const target = (file: string, literals: Record<string, string>) =>
  `/${file.replace(/\{(\w+)\}/g, (_, name: string) => literals[name] ?? `:${name}`)}`;

/** The query-string rules of one API route, for the slugs served: its local-day forms first. */
export function routeRules(route: Route, cities: readonly string[]): string[] {
  const fallback = `/${DATA_PREFIX}/fallback${route.path.slice('/api'.length)}`;
  const plain = route.forms.filter((f) => !f.fixed);
  const shapes = plain.map(formParams);
  const variants = [...new Map(route.forms.filter((f) => f.fixed).map((f) => [JSON.stringify(f.fixed), f.fixed!])).values()];
  // A parameter no form renders (season's year, category) makes the request the function's,
  // whatever else it has: under the lenient reading, no per-city rule may take it.
  const unrendered = Object.keys(route.params).filter(
    (name) => !route.forms.some((f) => formParams(f).includes(name) || Object.hasOwn(f.fixed ?? {}, name)),
  );
  return [
    ...(route.forms.length > 0 ? unrendered.map((name) => rewrite(route.path, [`${name}=:${name}`], fallback)) : []),
    ...variants.flatMap((fixed) =>
      variantRules(
        route,
        route.forms.filter((f) => JSON.stringify(f.fixed) === JSON.stringify(fixed)),
        shapes,
        fixed,
        cities,
      ),
    ),
    // Any other value of a fixed parameter (`timezone=UTC`, a typo) is the function's: UTC answered as without it, the rest refused.
    ...[...new Set(variants.flatMap((fixed) => Object.keys(fixed)))].map((name) => rewrite(route.path, [`${name}=:${name}`], fallback)),
    ...variantRules(route, plain, shapes, {}, cities),
  ];
}

/**
 * The rules of one variant of a route's forms (the plain ones, or those with a fixed parameter):
 * per-city literal rules (two parameters before one, for the lenient reading), then a rule sending
 * any other `city` to the fallback function, then date-only rules. A shape the variant does not
 * render (a city's local day) goes to the fallback function first, so that no rule of a shorter
 * shape takes it.
 */
function variantRules(
  route: Route,
  forms: readonly StaticForm[],
  shapes: readonly string[][],
  fixed: Record<string, string>,
  cities: readonly string[],
): string[] {
  const fallback = `/${DATA_PREFIX}/fallback${route.path.slice('/api'.length)}`;
  const literal = Object.entries(fixed).map(([k, v]) => `${k}=${v}`);
  const rendered = forms.map((f) => ({ file: f.file, params: formParams(f) }));
  const byCity = rendered.filter((f) => f.params.includes('city')).sort((a, b) => b.params.length - a.params.length);
  const query = (params: readonly string[], city?: string) => [
    ...params.map((p) => (p === 'city' && city ? `city=${city}` : `${p}=:${p}`)),
    ...literal,
  ];
  const rules: string[] = [];
  for (const shape of shapes.filter((p) => p.includes('city') && !rendered.some((f) => f.params.join() === p.join()))) {
    rules.push(rewrite(route.path, query(shape), fallback));
  }
  for (const city of cities) for (const f of byCity) rules.push(rewrite(route.path, query(f.params, city), target(f.file, { city })));
  if (shapes.some((p) => p.includes('city'))) rules.push(rewrite(route.path, query(['city']), fallback));
  for (const f of rendered.filter((f) => !f.params.includes('city') && f.params.length > 0))
    rules.push(rewrite(route.path, query(f.params), target(f.file, {})));
  return rules;
}

/** Parameterless rules: these are static, so they live in netlify.toml (tests keep the two in step). */
export function staticRules(): Array<{ from: string; to: string }> {
  return ROUTES.filter((r) => r.path.startsWith('/api/')).flatMap((r) => {
    const plain = r.forms.find((f) => formParams(f).length === 0);
    return plain ? [{ from: r.path, to: `/${plain.file}` }] : [];
  });
}

/** The whole generated `_redirects` file for the slugs served. */
export function redirectsFile(cities: readonly string[]): string {
  const routes = ROUTES.filter((r) => r.path.startsWith('/api/') && r.forms.some((f) => formParams(f).length > 0));
  return ['# Generated by `build render` from src/api/routes.ts; do not edit.', ...routes.flatMap((r) => routeRules(r, cities)), ''].join(
    '\n',
  );
}
