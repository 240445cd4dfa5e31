/**
 * A route carries an endpoint's whole contract: its path, its query parameters (each a schema:
 * query.ts), the schema of its answer and of its errors, its OpenAPI operation, its line in
 * llms.txt, the MCP tool that mirrors it and its static forms. The OpenAPI document, llms.txt, the
 * 400s, the MCP tools and the rendered files are all made from the route list (routes.ts), so an
 * endpoint is one module and one entry there.
 */
import * as z from 'zod';
import type { Answer, JsonAnswer } from './answer.js';
import type { ApiContext } from './context.js';
import { ApiError, InvalidParameterError } from './error.js';
import { type Format, type Formats, mediaType, type RequestQuery } from './format.js';
import { argumentOf, boundsOf, metaOf, type Param, type Params, parseQuery, type QueryOf, saying, valueSchema } from './query.js';
import type { StaticForm, Unit } from './static-forms.js';

export type Json = Record<string, unknown>;

/** A response the operation documents besides 200: when it happens, and its body. */
export interface Documented {
  description: string;
  /** A named schema (domain/schema-names.ts), a union of them, or plain JSON Schema. */
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
  /** The 400's description, where the default does not say enough. */
  badRequest?: string;
  notFound?: Documented;
  unavailable?: Documented;
  /** A file of the render, not answered by a function: no 405 or 500 of its own. */
  file?: true;
}

/** How the MCP tool takes one of its route's parameters, where not as the parameter itself. */
export interface ToolArgument {
  /** Its name, where it is not the parameter's (`cities` for `city`). */
  name?: string;
  /** A narrower schema of the value (a tool's smaller limit). */
  schema?: z.ZodType;
  /** Said to agents instead of the parameter's description. */
  description?: string;
  /** The value when the argument is left out, where it is not the parameter's default. */
  fallback?: unknown;
}

/** The MCP tool that mirrors a route: its arguments are the route's parameters, and it returns the handler's object. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  /** Per parameter, how the tool takes it. */
  args?: Readonly<Record<string, ToolArgument>>;
  /** The answer's schema, where the tool adds to the route's (a hint); a union of bodies is merged into one object (mcp/tools.ts). */
  output?: z.ZodObject;
  /** What the tool adds to an answer (a hint to narrow a truncated range). */
  finish?: (body: Json, args: Record<string, unknown>) => Json;
  /** Calls a provider (the forecast): not a closed world. */
  openWorld?: true;
  /** A few words llms.txt adds after the tool's name. */
  note?: string;
}

/** `origin` (`https://host`) is the request's where there is one: absent in a render and in MCP's in-process calls. */
export type Handler = (query: URLSearchParams, ctx: ApiContext, origin?: string) => Promise<Answer<unknown>>;

export interface Route {
  path: string;
  params: Params;
  /** The schema of a 200 answer (a text answer's is a string). */
  response: z.ZodType;
  /** Documented in OpenAPI when it has an operation. */
  doc?: Operation;
  /** The route's line in llms.txt. */
  llms?: string;
  tool?: Tool;
  /** The formats it offers besides JSON, by the name `format=` takes (contract/format.ts). */
  formats?: Formats<never>;
  /** In matching order: a file name without parameters before a `{city}` one it would also match. */
  forms: readonly StaticForm[];
  /** Answers that change only with a deploy, though not rendered (the CDN keeps them until the next). */
  untilDeploy?: true;
  /** Answered from the site file alone, never the stored data (so never its 503 DATA_UNAVAILABLE). */
  siteFileOnly?: true;
  /** Checks the query by `params`, then answers. */
  handler: Handler;
}

/** The request as the handler sees it, and the format asked for (undefined: JSON). */
export interface HandlerRequest<B> extends RequestQuery {
  format?: Format<B>;
}

export interface RouteSpec<P extends Params, R extends z.ZodType>
  extends Omit<Route, 'params' | 'forms' | 'handler' | 'response' | 'formats'> {
  params: P;
  /** The schema of a 200 answer: the handler's body is typed by it. */
  response: R;
  /** The formats it offers besides JSON, each written from the handler's answer; `params.format` chooses. */
  formats?: Formats<z.output<R>>;
  forms?: readonly StaticForm[];
  /** The answer, from the checked query. Throws an ApiError for what no check of one parameter can see. */
  handle: (query: QueryOf<P>, ctx: ApiContext, asked: HandlerRequest<z.output<R>>) => Answer<z.output<R>> | Promise<Answer<z.output<R>>>;
}

/**
 * A route from its spec: its handler checks the parameters in the order they are listed, answers,
 * and where another format is asked writes the answer in it.
 */
export function route<P extends Params, R extends z.ZodType = z.ZodType<Json>>({
  handle,
  forms,
  formats,
  ...spec
}: RouteSpec<P, R>): Route & { params: P } {
  if (formats && !sameWords(formatNames(spec.params.format), ['json', ...Object.keys(formats)]))
    throw new Error(`${spec.path}: its format parameter (formatParam) must take its formats' names, and only them`);
  const formatOf = (q: QueryOf<P>): Format<z.output<R>> | undefined => formats?.[(q as { format?: string }).format ?? 'json'];
  return {
    ...spec,
    ...(formats ? { formats: formats as Formats<never> } : {}),
    forms: forms ?? [],
    handler: documentedErrors(spec, async (query, ctx, origin) => {
      const q = parseQuery(spec.params, query);
      const format = formatOf(q);
      const answer = await handle(q, ctx, { query, origin, format });
      if (!format) return answer;
      if (!('body' in answer)) throw new Error(`${spec.path} answered text where ${mediaType(format.contentType)} is written from JSON`);
      const text = format.render(answer as JsonAnswer<z.output<R>>, { query, origin });
      return { ...text, headers: { ...answer.headers, ...text.headers } };
    }),
  };
}

/** The schema a route documents for an error status: 400's is InvalidParameterError wherever there are parameters. */
export function errorSchema(route: Pick<Route, 'doc' | 'params'>, status: number): z.ZodType | undefined {
  if (status === 400) return Object.keys(route.params).length > 0 ? InvalidParameterError : undefined;
  return { 404: route.doc?.notFound, 503: route.doc?.unavailable }[status]?.schema as z.ZodType | undefined;
}

/** Whether a schema is `documented` or one of its options. */
const within = (schema: z.ZodType, documented: z.ZodType | undefined): boolean =>
  documented === schema || (documented instanceof z.ZodUnion && documented.options.some((o) => within(schema, o as z.ZodType)));

/**
 * A handler that answers only the errors its route documents: one thrown with a body of another
 * schema, or with a status the operation does not document, is a 500 and is logged, so that the
 * OpenAPI document, the MCP tools and the answers cannot drift apart.
 */
function documentedErrors(route: Pick<Route, 'doc' | 'params' | 'path'>, handler: Handler): Handler {
  if (!route.doc) return handler;
  return async (query, ctx, origin) => {
    try {
      return await handler(query, ctx, origin);
    } catch (error) {
      if (error instanceof ApiError && !within(error.schema, errorSchema(route, error.status)))
        throw new Error(`${route.path} answered ${error.status} with a body its operation does not document: ${error.message}`);
      throw error;
    }
  };
}

/** The words a format parameter takes (none where there is no such parameter). */
const formatNames = (param: Param | undefined): string[] => {
  const words = param && valueSchema(param);
  return words instanceof z.ZodEnum ? words.options.map(String) : [];
};
const sameWords = (a: readonly string[], b: readonly string[]) => [...a].sort().join() === [...b].sort().join();

/** One argument of a route's MCP tool: the parameter it stands for, its name and its schema. */
export interface ToolArgumentOf {
  param: string;
  name: string;
  schema: z.ZodType;
  /** The value a left-out argument takes, where it is not the parameter's default. */
  fallback?: unknown;
}

/**
 * The arguments of a route's MCP tool (or of a call to its handler from MCP, as find_city calls
 * /api/nearest's): one per parameter the tool does not omit, with the
 * parameter's value schema and bounds (or the tool's narrower one), optional unless the
 * parameter is required, described as the parameter is unless the tool says otherwise.
 */
export function toolArguments(route: Route): ToolArgumentOf[] {
  const tool = route.tool;
  return (
    Object.entries(route.params)
      // A tool answers JSON: the format is HTTP's choice.
      .filter(([name]) => !(route.formats && name === 'format'))
      .map(([param, schema]) => {
        const given = tool?.args?.[param];
        // A tool's narrower bound is refused in the words the 400 would use for it (`expected an integer from 1 to 2000`).
        const narrower = given?.schema && saying(given.schema, `expected ${boundsOf(given.schema).expected ?? metaOf(schema).expected}`);
        const value = narrower ? (schema.safeParse(undefined).success ? narrower.optional() : narrower) : argumentOf(schema);
        return {
          param,
          name: given?.name ?? param,
          schema: value.describe(given?.description ?? metaOf(schema).description),
          ...(given?.fallback === undefined ? {} : { fallback: given.fallback }),
        };
      })
  );
}

/** Each route's forms that a unit of this kind renders, city-day forms included. */
export function* formsOf(routes: readonly Route[], kind: Unit['kind']): Generator<{ route: Route; form: StaticForm }> {
  for (const route of routes) for (const form of route.forms) if (form.unit === kind) yield { route, form };
}
