/** The one error type of the API: it knows its status and its JSON body. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Readonly<Record<string, string | number | readonly number[]>> = {},
    /** Response headers the error calls for, such as `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** The query parameter at fault, and what it expects: MCP names its own argument from them. */
    readonly at?: { readonly param: string; readonly expected?: string },
  ) {
    super(message);
  }

  toJSON(): Record<string, string | number | readonly number[]> {
    return { error: this.message, ...this.extra };
  }
}

/** 400 with the contract's message shape: `Invalid parameter '<name>': expected <what>`. */
export const invalidParameter = (name: string, expected: string): ApiError =>
  new ApiError(400, `Invalid parameter '${name}': expected ${expected}`, {}, {}, { param: name, expected });

/** 404 UNSUPPORTED_CITY, pointing to where supported slugs are listed. */
export const unsupportedCity = (slug: string): ApiError =>
  new ApiError(
    404,
    `Unsupported city '${slug}'. Supported cities are listed by GET /api/cities and by the MCP tool list_cities.`,
    { code: 'UNSUPPORTED_CITY', city: slug, supportedCities: '/api/cities', mcpTool: 'list_cities' },
    {},
    { param: 'city' },
  );

/** 404 for a store with no observations yet. */
export const noData = (): ApiError => new ApiError(404, 'No observations are available yet');
