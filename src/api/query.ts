/**
 * Query parameters, each defined once: what a valid value looks like (the end of the 400's
 * message), how its text is read, and how OpenAPI and MCP describe it. A route lists its
 * parameters; `parseQuery` reads them in that order, so the first bad one is the one named.
 */
import type * as z from 'zod';
import type { CitySet } from '../domain/cities.js';
import { invalidParameter } from './error.js';

/** What reading a parameter may look at: the cities served. */
export interface QueryContext {
  readonly cities: CitySet;
}

export interface Param<T> {
  /** What a valid value looks like: the 400 says `Invalid parameter '<name>': expected <expected>`. */
  readonly expected: string;
  /** OpenAPI's description of the parameter. */
  readonly description: string;
  /** The value as the API documents it: OpenAPI's schema, its default included. */
  readonly schema: z.ZodType;
  readonly required: boolean;
  /** Given twice, it is refused (400) rather than its last value taken. */
  readonly once: boolean;
  /** The value of the text given, or undefined when absent: checked, or an ApiError naming `name`. */
  readonly parse: (text: string | undefined, name: string, ctx: QueryContext) => T;
}

export type Params = Readonly<Record<string, Param<unknown>>>;
/** The values a route's handler receives: one per parameter, checked. */
export type QueryOf<P extends Params> = { readonly [K in keyof P]: P[K] extends Param<infer T> ? T : never };

export interface ParamSpec<T> {
  expected: string;
  description: string;
  schema: z.ZodType;
  once?: boolean;
  /** The value of a text given, or undefined when it is none (a 400 naming the parameter); may throw an ApiError of its own (a 404). */
  read: (text: string, ctx: QueryContext) => T | undefined;
}

function param<T, A>(spec: ParamSpec<T>, required: boolean, absent: () => A): Param<T | A> {
  return {
    expected: spec.expected,
    description: spec.description,
    schema: spec.schema,
    required,
    once: spec.once ?? false,
    parse: (text, name, ctx) => {
      if (text === undefined) {
        if (required) throw invalidParameter(name, spec.expected);
        return absent();
      }
      const value = spec.read(text, ctx);
      if (value === undefined) throw invalidParameter(name, spec.expected);
      return value;
    },
  };
}

/** A parameter that may be left out: undefined when it is. */
export const optional = <T>(spec: ParamSpec<T>): Param<T | undefined> => param(spec, false, () => undefined);
/** A parameter that takes `fallback` when left out. */
export const withDefault = <T>(spec: ParamSpec<T>, fallback: T): Param<T> => param(spec, false, () => fallback);
/** A parameter that must be given: its absence is a 400 naming it. */
export const required = <T>(spec: ParamSpec<T>): Param<T> => param(spec, true, () => undefined as never);

/**
 * The value of a parameter, undefined when absent. When it is repeated the last value counts:
 * that is the one Netlify's rules engine matches, so static files and functions agree.
 */
export function lastValue(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

/** The value of a parameter that may be given at most once (the strict endpoints: pollen-range, nearest, alerts). */
export function onlyValue(query: URLSearchParams, name: string, expected: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw invalidParameter(name, `${expected}, given once`);
  return values[0];
}

/** Every parameter of `params` read from the query, in order; unknown parameters are ignored. */
export function parseQuery<P extends Params>(params: P, query: URLSearchParams, ctx: QueryContext): QueryOf<P> {
  const values: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params)) {
    values[name] = p.parse(p.once ? onlyValue(query, name, p.expected) : lastValue(query, name), name, ctx);
  }
  return values as QueryOf<P>;
}
