/**
 * A route carries an endpoint's whole contract: its path, its query parameters, the schema of its
 * answer, its OpenAPI operation, its line in llms.txt, the MCP tool that mirrors it and its static
 * forms. The OpenAPI document, llms.txt, the 400s and the MCP tools are all made from the route
 * list (routes.ts), so an endpoint is one module and one entry there.
 */
import type * as z from 'zod';
import type { StaticForm } from './forms.js';
import type { Answer, ApiContext, Handler } from './handler.js';
import { type Params, parseQuery, type QueryOf } from './query.js';

export type Json = Record<string, unknown>;

/** A response the operation documents besides 200: when it happens, and its body. */
export interface Documented {
  description: string;
  /** A schema of the response registry (api/schemas.ts), a union of them, or plain JSON Schema. */
  schema: z.ZodType | Json;
}

/** The OpenAPI operation of a route; its parameters and 200 schema come from the route itself. */
export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  /** The 200's description (default: OK, with the data's Cache-Control). */
  ok?: string;
  /** The media type of the answer (default application/json). */
  type?: string;
  /** Other media types the 200 may come in (CSV, a calendar), with their schemas. */
  alternatives?: Record<string, Json>;
  /** The 400's description, where the default does not say enough. */
  badRequest?: string;
  notFound?: Documented;
  unavailable?: Documented;
  /** A file of the render, not answered by a function: no 405 or 500 of its own. */
  file?: true;
}

/** The MCP tool that mirrors a route: it calls the handler and returns its object. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The arguments (zod shapes); without them, one optional string per query parameter. */
  input?: z.ZodRawShape;
  /** The query the arguments stand for (default: each argument as text). */
  query?: (args: Record<string, unknown>) => Record<string, string | number | undefined>;
  /** An argument's name where it is not its parameter's (`cities` for `city`). */
  args?: Record<string, string>;
  /** The answer's schema where the route's is not an object (a union of bodies). */
  output?: z.ZodObject;
  /** What the tool adds to an answer (a hint to narrow a truncated range). */
  finish?: (body: Json, args: Record<string, unknown>) => Json;
  /** Calls a provider (the forecast): not a closed world. */
  openWorld?: true;
  /** A few words llms.txt adds after the tool's name. */
  note?: string;
}

export interface Route {
  path: string;
  params: Params;
  /** The schema of a 200 JSON answer. */
  response?: z.ZodType;
  /** Documented in OpenAPI when it has an operation. */
  doc?: Operation;
  /** The route's line in llms.txt. */
  llms?: string;
  tool?: Tool;
  /** In matching order: a file name without parameters before a `{city}` one it would also match. */
  forms: readonly StaticForm[];
  /** Answers that change only with a deploy, though not rendered (the CDN keeps them until the next). */
  untilDeploy?: true;
  /** Parses the query by `params`, then answers. */
  handler: Handler;
}

/** The request as given: its query (for links that repeat it) and, over HTTP, its origin. */
export interface Given {
  query: URLSearchParams;
  /** `https://host`, absent in a render and in MCP's calls. */
  origin?: string;
}

export interface RouteSpec<P extends Params> extends Omit<Route, 'params' | 'forms' | 'handler'> {
  params: P;
  forms?: readonly StaticForm[];
  /** The answer, from the checked query. Throws an ApiError for what no check of one parameter can see. */
  handle: (query: QueryOf<P>, ctx: ApiContext, given: Given) => Answer | Promise<Answer>;
}

/** A route from its spec: its handler reads the parameters in the order they are listed. */
export function route<P extends Params>({ handle, forms, ...spec }: RouteSpec<P>): Route {
  return {
    ...spec,
    forms: forms ?? [],
    handler: (query, ctx, origin) => handle(parseQuery(spec.params, query, ctx), ctx, { query, origin }),
  };
}
