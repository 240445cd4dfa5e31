/**
 * The one route list. Each route is an endpoint's whole contract (route.ts); the renderer renders
 * its static forms, the functions and the local server match on its path, and the OpenAPI
 * document, llms.txt and the MCP tools are made from it. Adding an endpoint is one module and one
 * entry here.
 */

import * as z from 'zod';
import { type Route, route } from './contract/route.js';
import { once } from './contract/static-forms.js';
import { llmsText } from './documents/llms.js';
import { openApiDocument } from './documents/openapi.js';
import { alertsRoute } from './endpoints/alerts.js';
import { availableDatesRoute } from './endpoints/available-dates.js';
import { bulkManifestRoute } from './endpoints/bulk-manifest.js';
import { citiesRoute } from './endpoints/cities.js';
import { forecastRoute } from './endpoints/forecast.js';
import { forecastMapRoute } from './endpoints/forecast-map.js';
import { forecastSkillRoute } from './endpoints/forecast-skill.js';
import { healthRoute } from './endpoints/health.js';
import { latestDateRoute } from './endpoints/latest-date.js';
import { mapDataRoute } from './endpoints/map-data.js';
import { nearestRoute } from './endpoints/nearest.js';
import { pollenRoute } from './endpoints/pollen.js';
import { pollenRangeRoute } from './endpoints/pollen-range.js';
import { seasonRoute } from './endpoints/season.js';
import { weatherRoute } from './endpoints/weather.js';

export type { Route } from './contract/route.js';

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
  forecastMapRoute,
  forecastSkillRoute,
  alertsRoute,
  bulkManifestRoute,
  healthRoute,
];

const openapi = () => ({ body: openApiDocument(API_ROUTES) });
/** The OpenAPI document: a JSON object of its own standard (3.1), not described in itself. */
const OpenApiDocument = z.record(z.string(), z.unknown()).describe('The OpenAPI 3.1 document of the API.');
/** The discovery documents, made from the endpoints. */
const DISCOVERY: readonly Route[] = [
  route({
    path: '/openapi.json',
    params: {},
    response: OpenApiDocument,
    forms: [{ file: 'openapi.json', unit: 'once', enumerate: once }],
    handle: openapi,
  }),
  route({
    path: '/.well-known/openapi.json',
    params: {},
    response: OpenApiDocument,
    forms: [{ file: '.well-known/openapi.json', unit: 'once', enumerate: once }],
    handle: openapi,
  }),
  route({
    path: '/llms.txt',
    params: {},
    response: z.string().describe('llms.txt: the endpoints in a line each, as plain text.'),
    forms: [{ file: 'llms.txt', unit: 'once', enumerate: once }],
    handle: (_query, ctx) => ({ text: llmsText(API_ROUTES, ctx.cities.size), contentType: 'text/plain; charset=utf-8' }),
  }),
];

export const ROUTES: readonly Route[] = [...API_ROUTES, ...DISCOVERY];

const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

/** The route at a path, if any. */
export function findRoute(path: string): Route | undefined {
  return BY_PATH.get(path);
}
