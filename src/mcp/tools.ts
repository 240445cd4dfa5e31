/**
 * The MCP server: read-only tools over the same handlers as the HTTP API, so an agent and a
 * browser get the same answers. Each route with a tool is one (its handler's object, no JSON
 * round trip); find_city and explain_risk are the two of MCP's own. Each tool returns
 * `structuredContent` and a JSON text copy.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { JsonRows } from '../api/contract/answer.js';
import { cityRow } from '../api/contract/answer-fields.js';
import { type ApiContext, withSettings } from '../api/contract/context.js';
import { ApiError } from '../api/contract/error.js';
import { API_VERSION } from '../api/contract/identity.js';
import { argumentOf, MAX_TEXT, saying, textOf } from '../api/contract/query.js';
import { RISK_RULES } from '../api/contract/risk-rules.js';
import { type Json, type Route, toolArguments } from '../api/contract/route.js';
import { DEFAULT_MAX_KM, MAX_KM, MAX_NEAREST, nearestRoute, Origin } from '../api/endpoints/nearest.js';
import { whenFetched } from '../api/http/fetch-rounds.js';
import { dataUnavailable, type ErrorLog } from '../api/http/respond.js';
import { ROUTES } from '../api/routes.js';
import { citiesByName, MAX_NAME_MATCHES, type NameQuery, NameQueryError, parseNameQuery } from '../domain/city-search.js';
import { City } from '../domain/schemas.js';
import { RISK_LABELS, THRESHOLDS } from '../domain/species/risk.js';
import { listed } from '../domain/words.js';
import { ShardUnavailable } from '../store/shards/shard-format.js';

export { MCP_RANGE_CAP } from '../api/endpoints/pollen-range.js';

/** MCP find_city: by name (no distances), or by point or ZIP code (the rows of /api/nearest). */
export const FindCityResult = z.object({
  origin: Origin.optional(),
  max_km: z.number().optional(),
  limit: z.number().optional(),
  cities: z.array(City.extend({ distance_km: z.number().optional() })),
  hint: z.string().optional(),
});

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

const text = (body: Json): CallToolResult => ({ structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] });
const failure = (...lines: string[]): CallToolResult => ({ isError: true, content: lines.map((line) => ({ type: 'text', text: line })) });

/**
 * An API error as a tool error: the argument at fault named as the tool calls it, or the message
 * as it is; and when the error's body says more than its message (the years held, the nearest
 * slug), that body as JSON.
 */
function toolError(route: Route, error: ApiError): CallToolResult {
  const { error: _message, ...more } = error.body;
  const detail = Object.keys(more).length > 0 ? [JSON.stringify(error.body)] : [];
  if (!error.at) return failure(error.message, ...detail);
  const argument = route.tool?.args?.[error.at.param]?.name ?? error.at.param;
  if (error.at.expected !== undefined) return failure(`Invalid argument '${argument}': expected ${error.at.expected}`);
  const hint = (more as { code?: unknown }).code === 'UNSUPPORTED_CITY' ? ': call list_cities for the supported slugs' : '';
  return failure(`${error.message} (argument '${argument}'${hint})`, ...detail);
}

/**
 * A route's answer to a query as a tool result: the handler's own object, read from a store whose
 * shards are all fetched first where it is fetched (api/http/fetch-rounds.ts).
 */
export async function callRoute(route: Route, ctx: ApiContext, query: URLSearchParams): Promise<CallToolResult> {
  const log: ErrorLog = (message, error) => console.error(message, error);
  try {
    return await whenFetched(ctx, (c, l) => callOnce(route, c, query, l), log);
  } catch (error) {
    log(`MCP: ${route.path} failed`, error instanceof ShardUnavailable ? error.message : error);
    return failure(error instanceof ShardUnavailable ? dataUnavailable().message : 'Internal server error');
  }
}

async function callOnce(route: Route, ctx: ApiContext, query: URLSearchParams, log: ErrorLog): Promise<CallToolResult> {
  let answer: Awaited<ReturnType<Route['handler']>>;
  try {
    answer = await route.handler(query, ctx);
  } catch (error) {
    if (error instanceof ApiError) return toolError(route, error);
    if (error instanceof ShardUnavailable) throw error;
    log(`MCP: ${route.path} failed`, error);
    return failure('Internal server error');
  }
  if ('text' in answer) throw new Error(`${route.path} does not answer JSON`);
  const body = answer.body instanceof JsonRows ? answer.body.value() : answer.body;
  if (typeof body !== 'object' || body === null) throw new Error(`${route.path} does not answer a JSON object`);
  return text(body as Json);
}

/** The query a tool's arguments stand for: each argument written as its parameter's text. */
export function queryOf(route: Route, args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const { param, name, fallback } of toolArguments(route)) {
    const value = args[name] ?? fallback;
    if (value !== undefined) query.set(param, textOf(route.params[param]!, value));
  }
  return query;
}

/**
 * An answer's schema as the one object an MCP tool's output schema must be: a union of objects
 * (an endpoint answering one of several bodies) as one object with every key of any, each key
 * that some body lacks optional, and each key's schemas joined (one, where they say the same).
 */
export function oneObject(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  const options = schema instanceof z.ZodUnion ? (schema.options as z.ZodType[]) : [];
  if (options.length === 0 || !options.every((o) => o instanceof z.ZodObject))
    throw new Error('an MCP tool answers an object, or one of several objects');
  const shapes = (options as z.ZodObject[]).map((o) => o.shape as Record<string, z.ZodType>);
  const keys = [...new Set(shapes.flatMap((shape) => Object.keys(shape)))];
  const said = (s: z.ZodType) => JSON.stringify(z.toJSONSchema(s, { unrepresentable: 'any' }));
  return z.object(
    Object.fromEntries(
      keys.map((key) => {
        const held = shapes.flatMap((shape) => (key in shape ? [shape[key]!] : []));
        const distinct = held.filter((s, i) => held.findIndex((t) => said(t) === said(s)) === i);
        const joined = distinct.length === 1 ? distinct[0]! : z.union(distinct);
        return [key, held.length === shapes.length ? joined : joined.optional()];
      }),
    ),
  );
}

/**
 * A tool's arguments as one object that refuses any other, naming it: an argument a tool does not
 * take would otherwise be dropped unseen (get_pollen_range given `city` for `cities` answered
 * every city). `renamed` maps a route's parameter to the argument that stands for it.
 */
export function strictArguments<S extends z.ZodRawShape>(shape: S, renamed: Readonly<Record<string, string>> = {}) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const unknown = issue.keys.map((key) => (renamed[key] ? `'${key}' (give it as '${renamed[key]}')` : `'${key}'`));
      return `Unknown argument${unknown.length === 1 ? '' : 's'} ${listed(unknown)}: the arguments are ${listed(Object.keys(shape).map((k) => `'${k}'`))}`;
    },
  });
}

/** Registers the tool of a route: its arguments become the route's query, its answer the handler's object. */
function registerRouteTool(server: McpServer, ctx: ApiContext, route: Route): void {
  const tool = route.tool!;
  const args = toolArguments(route);
  const renamed = Object.fromEntries(args.filter((a) => a.name !== a.param).map((a) => [a.param, a.name]));
  const input = strictArguments(Object.fromEntries(args.map((a) => [a.name, a.schema])), renamed);
  const config = {
    title: tool.title,
    description: tool.description,
    outputSchema: tool.output ?? oneObject(route.response),
    annotations: tool.openWorld ? { ...READ_ONLY, openWorldHint: true } : READ_ONLY,
  };
  const call = async (args: Record<string, unknown>) => {
    const result = await callRoute(route, ctx, queryOf(route, args));
    return tool.finish && result.structuredContent ? text(tool.finish(result.structuredContent, args)) : result;
  };
  if (args.length === 0) server.registerTool(tool.name, config, () => call({}));
  else server.registerTool(tool.name, { ...config, inputSchema: input }, (args: Record<string, unknown>) => call(args));
}

const EXPLANATION = {
  scale: 'NAB (allergy-reporting bureau) risk labels, grains/m³',
  labels: [...RISK_LABELS],
  thresholds: { tree: [...THRESHOLDS.tree], grass: [...THRESHOLDS.grass], weed: [...THRESHOLDS.weed], ragweed: [...THRESHOLDS.ragweed] },
  // The rules as the OpenAPI document gives them; their first, the thresholds in words, is `thresholds` here.
  rules: RISK_RULES.slice(1),
};

/**
 * find_city's arguments by point or ZIP code: /api/nearest's parameters, with their bounds, and
 * what find_city adds to their meaning.
 */
const nearestArguments = {
  lat: argumentOf(nearestRoute.params.lat).describe('Latitude, WGS84 decimal degrees (with lon).'),
  lon: argumentOf(nearestRoute.params.lon).describe('Longitude, WGS84 decimal degrees (with lat).'),
  zip: argumentOf(nearestRoute.params.zip).describe(
    'A five-digit US ZIP code, such as "78701"; post-office-box ZIP codes have no area and are not found.',
  ),
  limit: argumentOf(nearestRoute.params.limit).describe(
    `Most cities, 1 to ${MAX_NEAREST}: by default 1 by position or ZIP, ${MAX_NAME_MATCHES} by name.`,
  ),
  max_km: argumentOf(nearestRoute.params.max_km).describe(
    `With lat and lon or zip: the farthest a city may be, above 0 and at most ${MAX_KM} km (default ${DEFAULT_MAX_KM}).`,
  ),
};

/**
 * The most bytes of one tool's answer, decided before its rows are read (the range cuts its rows to
 * fit, with truncated and a next link): a result holds the answer twice, as structuredContent and
 * as its JSON text (escaped, so longer), and is built whole, so 2,000,000 bytes keeps a result
 * within the 6 MB a function may answer buffered ("Buffered request/response payload: 6 MB",
 * docs.netlify.com/build/functions/configuration).
 */
export const MCP_MAX_BODY_BYTES = 2_000_000;

/** A fresh server with every tool; the HTTP transport builds one per request. */
export function createMcpServer(context: ApiContext, routes: readonly Route[] = ROUTES): McpServer {
  const ctx = withSettings(context, { maxBodyBytes: Math.min(context.settings.maxBodyBytes, MCP_MAX_BODY_BYTES) });
  const server = new McpServer({ name: 'pollen-api', version: API_VERSION });
  for (const route of routes) if (route.tool) registerRouteTool(server, ctx, route);
  registerFindCity(server, ctx);
  server.registerTool(
    'explain_risk',
    {
      title: 'How risk levels are graded',
      description: 'The NAB thresholds per category and the rules that turn grains/m³ into None, Low, Moderate, High or Very High.',
      outputSchema: z.object({
        scale: z.string(),
        labels: z.array(z.string()),
        thresholds: z.record(z.string(), z.array(z.number())),
        rules: z.array(z.string()),
      }),
      annotations: READ_ONLY,
    },
    () => text(EXPLANATION),
  );
  return server;
}

/** find_city: by name (MCP's own search), or by point or ZIP code (/api/nearest's answer). */
function registerFindCity(server: McpServer, ctx: ApiContext): void {
  server.registerTool(
    'find_city',
    {
      title: 'Find a city by name, position or ZIP code',
      description:
        'Start here: the city slug the other tools take, for a place the user names, a position or a US ZIP code. Give one of: name (case and accents ignored; exact names first, then names starting with it, then names containing it; "Columbus, OH" or the state argument narrows it; no distances), lat and lon, or zip (the served cities within max_km, nearest first, with distance_km, as GET /api/nearest answers).',
      inputSchema: strictArguments({
        // Bounded as the API's text parameters are, so that a search costs at most MAX_TEXT characters.
        name: saying(z.string().max(MAX_TEXT), `expected a city name of at most ${MAX_TEXT} characters, such as "Columbus, OH"`)
          .optional()
          .describe('A city name, such as "St. Louis" or "Columbus, OH".'),
        state: saying(z.string().max(MAX_TEXT), 'expected the USPS code of a state or DC, such as "OH"')
          .optional()
          .describe('USPS code of a state or DC, such as "OH": only with name.'),
        ...nearestArguments,
      }),
      outputSchema: FindCityResult,
      annotations: READ_ONLY,
    },
    async ({ name, state, lat, lon, zip, limit, max_km }) => {
      if (name === undefined) {
        if (state !== undefined) return failure("Argument 'state' narrows a name: give it with argument 'name'.");
        if (lat === undefined && lon === undefined && zip === undefined)
          return failure("Give argument 'name', arguments 'lat' and 'lon', or argument 'zip'.");
        return callRoute(nearestRoute, ctx, queryOf(nearestRoute, { lat, lon, zip, limit, max_km }));
      }
      const other = (['lat', 'lon', 'zip', 'max_km'] as const).find((k) => ({ lat, lon, zip, max_km })[k] !== undefined);
      if (other) return failure(`Argument '${other}' does not go with argument 'name': search by name, by lat and lon, or by zip.`);
      return citiesNamed(ctx, name, state, limit as number | undefined);
    },
  );
}

/** The served cities named like `name` (in `state`), at most `limit`, or a hint where none is. */
function citiesNamed(ctx: ApiContext, name: string, state: string | undefined, limit: number | undefined): CallToolResult {
  let query: NameQuery;
  try {
    query = parseNameQuery(name, state);
  } catch (error) {
    if (error instanceof NameQueryError) return failure(`Invalid argument '${error.argument}': expected ${error.message}`);
    throw error;
  }
  const found = citiesByName(ctx.cities.list, query)
    .slice(0, limit ?? MAX_NAME_MATCHES)
    .map(cityRow);
  if (found.length > 0) return text({ cities: found });
  return text({
    cities: found,
    // The name is the caller's own: not said back (the result holds its text twice, as structuredContent and its JSON copy).
    hint: `No served city is named like that${query.state ? ` in ${query.state}` : ''}: try lat and lon or zip (the nearest served city), or list_cities.`,
  });
}
