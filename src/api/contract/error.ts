/**
 * The one error type of the API: it knows its status, its JSON body and the named schema the body
 * is (ErrorBody unless it says another), which the route's operation must document for the status.
 */
import * as z from 'zod';
import { named } from '../../domain/schema-names.js';

export const ErrorBody = named('Error', 'An error.', z.object({ error: z.string() }));

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

export interface ErrorOptions {
  /** Response headers the error calls for, such as `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The query parameter at fault, and what it expects: MCP names its own argument from them. */
  readonly at?: { readonly param: string; readonly expected?: string };
  /** The named schema of the body, where it is not ErrorBody. */
  readonly schema?: z.ZodType;
}

export class ApiError<B extends ErrorBody = ErrorBody> extends Error {
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

/** An error whose body is only its message. */
export const plainError = (status: number, message: string, options?: ErrorOptions): ApiError =>
  new ApiError(status, { error: message }, options);

export const InvalidParameterError = named(
  'InvalidParameterError',
  "A query parameter is malformed, out of range, too long or repeated: the contract's Error, its message naming the parameter and what it expects.",
  z.object({
    error: z.string(),
    code: z.literal('INVALID_PARAMETER').describe('An extension of the contract.'),
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
export const noData = (): ApiError => plainError(404, 'No observations are available yet');
