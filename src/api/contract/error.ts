/**
 * The one error type of the API: it knows its status, its JSON body and the named schema the body
 * is (ErrorBody unless it says another), which the route's operation must document for the status.
 */
import * as z from 'zod';
import { named } from '../../domain/schema-names.js';

/** What a client branches on: every error body has one (an extension of the contract, whose Error has only `error`). */
const codeOf = <C extends string>(code: C) => z.literal(code).describe('What the error is, to branch on (an extension of the contract).');

/** The errors of no endpoint in particular: an unknown path, a method other than GET, a failure. */
export const ErrorBody = named(
  'Error',
  'An error: its message, and its code (NO_ENDPOINT for an unknown path, METHOD_NOT_ALLOWED, INTERNAL_ERROR, DATA_UNAVAILABLE for stored data that cannot be read now, with Retry-After, RANGE_NOT_SATISFIABLE for a byte range past the end of a file, with Content-Range).',
  z.object({
    error: z.string(),
    code: z
      .enum(['NO_ENDPOINT', 'METHOD_NOT_ALLOWED', 'INTERNAL_ERROR', 'DATA_UNAVAILABLE', 'RANGE_NOT_SATISFIABLE'])
      .describe('What the error is, to branch on (an extension of the contract).'),
  }),
);

export const UnsupportedCityError = named(
  'UnsupportedCityError',
  'The city slug is not supported; closest names the nearest supported slug when one is close.',
  z.object({
    error: z.string(),
    code: z.literal('UNSUPPORTED_CITY'),
    city: z.string(),
    supportedCities: z.literal('/api/cities'),
    mcpTool: z.literal('list_cities'),
    closest: z.string().optional().describe('The supported slug nearest the one asked for (an extension of the contract).'),
  }),
);

export type ErrorBody = z.infer<typeof ErrorBody>;
/** Every error body: its message and its code. */
export type AnyErrorBody = { error: string; code: string };

export interface ErrorOptions {
  /** Response headers the error calls for, such as `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The query parameter at fault, and what it expects: MCP names its own argument from them. */
  readonly at?: { readonly param: string; readonly expected?: string };
  /** The named schema of the body, where it is not ErrorBody. */
  readonly schema?: z.ZodType;
}

export class ApiError<B extends AnyErrorBody = AnyErrorBody> extends Error {
  readonly headers: Readonly<Record<string, string>>;
  readonly at?: ErrorOptions['at'];
  readonly schema: z.ZodType;

  constructor(
    readonly status: number,
    readonly body: B,
    options: ErrorOptions = {},
  ) {
    super(body.error);
    this.headers = options.headers ?? {};
    this.at = options.at;
    this.schema = options.schema ?? ErrorBody;
  }

  toJSON(): B {
    return this.body;
  }
}

/** An error of no endpoint in particular (ErrorBody). */
export const plainError = (status: number, code: ErrorBody['code'], message: string, options?: ErrorOptions): ApiError<ErrorBody> =>
  new ApiError(status, { error: message, code }, options);

/**
 * A kind of error whose body is its message and its code: the named schema a route documents,
 * and the ApiError made with it (so the route's check knows the body for what it is).
 */
export function errorKind<C extends string>(id: string, code: C, description: string) {
  const schema = named(id, description, z.object({ error: z.string(), code: codeOf(code) }));
  return {
    schema,
    error: (status: number, message: string, options: Omit<ErrorOptions, 'schema'> = {}) =>
      new ApiError(status, { error: message, code }, { ...options, schema }),
  };
}

export const NoData = errorKind('NoDataError', 'NO_DATA', 'Nothing is stored yet, so there is no latest date to answer for.');

export const InvalidParameterError = named(
  'InvalidParameterError',
  "A query parameter is malformed, out of range, too long or repeated: the contract's Error, its message naming the parameter and what it expects.",
  z.object({
    error: z.string(),
    code: codeOf('INVALID_PARAMETER'),
    parameter: z.string().describe('The parameter at fault (an extension of the contract).'),
  }),
);

/** 400 with the contract's message shape, `Invalid parameter '<name>': expected <what>`, and a code naming the parameter. */
export const invalidParameter = (name: string, expected: string): ApiError<z.infer<typeof InvalidParameterError>> =>
  new ApiError(
    400,
    { error: `Invalid parameter '${name}': expected ${expected}`, code: 'INVALID_PARAMETER', parameter: name },
    { at: { param: name, expected }, schema: InvalidParameterError },
  );

/** 404 UNSUPPORTED_CITY, pointing to where supported slugs are listed, and to the nearest one when it is close. */
export const unsupportedCity = (slug: string, closest?: string): ApiError<z.infer<typeof UnsupportedCityError>> =>
  new ApiError(
    404,
    {
      error: `Unsupported city '${slug}'.${closest ? ` Did you mean '${closest}'?` : ''} Supported cities are listed by GET /api/cities and by the MCP tool list_cities.`,
      code: 'UNSUPPORTED_CITY',
      city: slug,
      supportedCities: '/api/cities',
      mcpTool: 'list_cities',
      ...(closest ? { closest } : {}),
    },
    { at: { param: 'city' }, schema: UnsupportedCityError },
  );

/** 404 for a store with no observations yet. */
export const noData = (): ApiError => NoData.error(404, 'No observations are available yet');
