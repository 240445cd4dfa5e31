/**
 * The one route list. Each route is an endpoint's whole contract (route.ts); the renderer renders
 * its static forms, the functions and the local server match on its path, and the OpenAPI
 * document, llms.txt and the MCP tools are made from it. Adding an endpoint is one module and one
 * entry here.
 */
import { alertsRoute } from './alerts.js';
import { availableDatesRoute } from './available-dates.js';
import { bulkManifestRoute } from './bulk-manifest.js';
import { citiesRoute } from './cities.js';
import { llmsText } from './discovery.js';
import { forecastRoute } from './forecast.js';
import { type FormParams, once, type StaticForm, type Unit } from './forms.js';
import { healthRoute } from './health.js';
import { latestDateRoute } from './latest-date.js';
import { mapDataRoute } from './map-data.js';
import { nearestRoute } from './nearest.js';
import { openApiDocument } from './openapi.js';
import { pollenRoute } from './pollen.js';
import { pollenRangeRoute } from './pollen-range.js';
import { type Route, route } from './route.js';
import { seasonRoute } from './season.js';
import type { StoreReader } from '../store/reader.js';
import { weatherRoute } from './weather.js';

export { DATA_PREFIX, LOCAL, type StaticForm, type Unit } from './forms.js';
export type { Route } from './route.js';
/** The parameters of one static answer, by name. */
export type Params = FormParams;

/** The endpoints, in the order the OpenAPI document and llms.txt list them. */
export const API_ROUTES: readonly Route[] = [
  citiesRoute,
  nearestRoute,
  availableDatesRoute,
  latestDateRoute,
  pollenRoute,
  mapDataRoute,
  weatherRoute,
  pollenRangeRoute,
  seasonRoute,
  forecastRoute,
  alertsRoute,
  bulkManifestRoute,
  healthRoute,
];

const openapi = () => ({ body: openApiDocument(API_ROUTES) });
/** The discovery documents, made from the endpoints. */
const DISCOVERY: readonly Route[] = [
  route({ path: '/openapi.json', params: {}, forms: [{ file: 'openapi.json', unit: 'once', enumerate: once }], handle: openapi }),
  route({
    path: '/.well-known/openapi.json',
    params: {},
    forms: [{ file: '.well-known/openapi.json', unit: 'once', enumerate: once }],
    handle: openapi,
  }),
  route({
    path: '/llms.txt',
    params: {},
    forms: [{ file: 'llms.txt', unit: 'once', enumerate: once }],
    handle: (_query, ctx) => ({ body: llmsText(API_ROUTES, ctx.cities.size), contentType: 'text/plain; charset=utf-8' }),
  }),
];

export const ROUTES: readonly Route[] = [...API_ROUTES, ...DISCOVERY];

const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

/** The route at a path, if any. */
export function findRoute(path: string): Route | undefined {
  return BY_PATH.get(path);
}

/**
 * The units of a render of this store: once, each city served, each UTC day with data, newest
 * first; a day's city-day files are in the render from `cityDaysFrom` on.
 */
export function* unitsOf(store: StoreReader, cities: readonly string[], cityDaysFrom = -Infinity): Generator<Unit> {
  yield { kind: 'once' };
  for (const city of cities) yield { kind: 'city', city };
  const pollenDays = new Set(store.pollen.daysWithData());
  const weatherDays = new Set(store.weather.days());
  for (const day of [...new Set([...pollenDays, ...weatherDays])].sort((a, b) => b - a)) {
    yield { kind: 'date', day, pollen: pollenDays.has(day), weather: weatherDays.has(day), cityDays: day >= cityDaysFrom };
  }
}

/** Each route's forms that a unit of this kind renders, city-day forms included. */
export function* formsOf(routes: readonly Route[], kind: Unit['kind']): Generator<{ route: Route; form: StaticForm }> {
  for (const route of routes) for (const form of route.forms) if (form.unit === kind) yield { route, form };
}

/** The parameter names of a form, in the order they appear in its file. */
export function formParams(form: StaticForm): string[] {
  return [...form.file.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The file of a form for a parameter set. */
export function fileFor(form: StaticForm, params: Params): string {
  return form.file.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}
