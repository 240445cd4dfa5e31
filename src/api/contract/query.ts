/**
 * Query parameters. Each is one zod schema from the query's text to the value its handler
 * receives: the schema is the check (any issue is the 400 `Invalid parameter '<name>': expected
 * <expected>`), its JSON Schema is the OpenAPI parameter's, its output side is the MCP tool's
 * argument with the same bounds, and its output type is the handler's query. What the schema
 * cannot say of itself (the 400's wording, the description, whether a value may be repeated) is
 * its entry in `QUERY`, a registry of its own, so none of it prints into the JSON Schema.
 *
 * A text parameter (a slug, a date) is a string schema; one whose value is not text (a number, a
 * list) is a codec from text to that value, so an MCP argument is written back to text by the
 * same codec. `parseQuery` reads a route's parameters in order, so the first bad one is named.
 */
import * as z from 'zod';
import { invalidParameter } from './error.js';

export interface ParamMeta {
  /**
   * What a valid value looks like: the 400 says `Invalid parameter '<name>': expected <expected>`.
   * Written from the schema where it is a few words, a whole number or a date (`boundsOf`).
   */
  readonly expected: string;
  /** The value as llms.txt writes it after `name=` (`none|day`, `1..50000`, `YYYY-MM-DD`); written from the schema where it can be. */
  readonly shape: string;
  /** OpenAPI's description of the parameter, and the MCP argument's unless its tool says otherwise. */
  readonly description: string;
  /**
   * Left out of the request llms.txt writes for its route (`false`): a continuation, or the
   * alternative to other parameters, which the route's text then names.
   */
  readonly listed?: false;
  /** Given twice, it is refused (400) rather than its last value taken. */
  readonly once?: boolean;
  /** The longest text it takes (default MAX_TEXT), refused (400) before anything else reads it. */
  readonly maxLength?: number;
}

/**
 * The longest text a parameter takes unless it says otherwise: a slug, a date or an instant, a
 * number, a word. A request's work is then bounded before its values are read: an unknown slug's
 * nearest-slug search, for one, costs its length times each slug's.
 */
export const MAX_TEXT = 64;

/** The longest text a parameter takes. */
export const maxLengthOf = (schema: Param): number => metaOf(schema).maxLength ?? MAX_TEXT;

/** The metadata of every parameter schema. */
export const QUERY = z.registry<ParamMeta>();

/** A query parameter: the query's text (undefined when absent) in, the handler's value out. */
export type Param<T = unknown> = z.ZodType<T, string | undefined>;
/** A route's parameters, by name, in the order they are checked. */
export type Params = Readonly<Record<string, Param>>;
/** The values a route's handler receives: one per parameter, checked. */
export type QueryOf<P extends Params> = { readonly [K in keyof P]: z.output<P[K]> };

/** What a parameter's schema says of itself: what it expects and its shape, where its bounds tell them. */
export function boundsOf(schema: z.ZodType): Partial<Pick<ParamMeta, 'expected' | 'shape'>> {
  const value = valueSchema(schema);
  if (value instanceof z.ZodEnum) return { expected: oneOfWords(value.options.map(String)), shape: value.options.join('|') };
  if (value instanceof z.ZodNumber && value.isInt && value.minValue !== null && value.maxValue !== null)
    return { expected: `an integer from ${value.minValue} to ${value.maxValue}`, shape: `${value.minValue}..${value.maxValue}` };
  if (value instanceof z.ZodNumber && value.minValue !== null && value.maxValue !== null)
    return { shape: `${value.minValue}..${value.maxValue}` };
  if (value instanceof z.ZodArray) {
    const item = boundsOf(value.element as z.ZodType).shape;
    return item === undefined ? {} : { shape: `${item},...` };
  }
  return {};
}

/**
 * A parameter: its schema, registered with what its 400 and its docs say. `expected` and `shape`
 * may be left to the schema's bounds (`boundsOf`), so a bound is written once.
 */
export function param<S extends Param>(
  schema: S,
  meta: Omit<ParamMeta, 'expected' | 'shape'> & Partial<Pick<ParamMeta, 'expected' | 'shape'>>,
): S {
  const bounds = boundsOf(schema);
  const expected = meta.expected ?? bounds.expected;
  const shape = meta.shape ?? bounds.shape;
  if (expected === undefined || shape === undefined)
    throw new Error(`a parameter (${meta.description}) must say what it expects and its shape`);
  // Metadata belongs to a schema instance: two parameters sharing one would share their texts.
  if (QUERY.has(schema)) throw new Error(`the schema of '${expected}' is another parameter's already: make one of its own`);
  QUERY.add(schema, { ...meta, expected, shape });
  return schema;
}

/** The metadata of a parameter schema. */
export function metaOf(schema: Param): ParamMeta {
  const meta = QUERY.get(schema);
  if (!meta) throw new Error('a query parameter must be made with param()');
  return meta;
}

/** Text to an integer from `min` to `max`: digits only (no sign, exponent or space). */
export const integer = (min: number, max: number) =>
  z.codec(z.string().regex(/^\d{1,16}$/), z.number().int().min(min).max(max), { decode: Number, encode: String });

/** Text to a decimal number: written out (no exponent, no hex); bounds on the number. */
export const decimal = <N extends z.ZodNumber>(number: N) =>
  z.codec(z.string().regex(/^[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})$/), number, {
    decode: (text) => Number(text) as z.input<N>,
    // A tiny number prints with an exponent (1e-7), which the text refuses.
    encode: (n) => (/e/i.test(String(n)) ? n.toFixed(20) : String(n)),
  });

/** `'a' or 'b'`, `one of 'a', 'b', 'c'`: what a parameter of a few words expects. */
export const oneOfWords = (words: readonly string[]): string => {
  const quoted = words.map((w) => `'${w}'`);
  return quoted.length === 2 ? quoted.join(' or ') : `one of ${quoted.join(', ')}`;
};

/**
 * The words in any case as a pattern, `^(?:[Hh][Ii][Gg][Hh]|...)$`: JSON Schema's patterns are
 * ECMA-262's, with no flag to ignore case, so each letter is a class of its two cases.
 */
export const anyCasePattern = (words: readonly string[]): string =>
  `^(?:${words
    .map((word) =>
      [...word]
        .map((c) =>
          c.toLowerCase() === c.toUpperCase() ? c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : `[${c.toUpperCase()}${c.toLowerCase()}]`,
        )
        .join(''),
    )
    .join('|')})$`;

/**
 * The pattern of the text a value is read from, where the value's schema is narrower than the
 * text (a word taken in any case, read as one spelling): the OpenAPI document describes that text
 * (a generated client must send `high` as the server takes it), while an MCP argument takes the
 * value itself.
 */
export const TEXT_PATTERN = new WeakMap<object, string>();

/** `value`, registered as read from text matching `pattern`. */
export function readFrom<S extends z.ZodType>(value: S, pattern: string): S {
  TEXT_PATTERN.set(value, pattern);
  return value;
}

/** One of a few words, in any case: `high` reads as `High`. */
export const anyCase = <const T extends string>(words: readonly T[]) =>
  z.codec(z.string(), readFrom(z.enum(words as [T, ...T[]]), anyCasePattern(words)), {
    // A word that is none of them stays as it is, for the enum to refuse.
    decode: (text) => (words.find((w) => w.toLowerCase() === text.toLowerCase()) ?? text) as T,
    encode: (word) => word,
  });

/** A comma-separated list of items, at least one. */
export const commaList = <I extends z.ZodType<unknown, string>>(item: I) =>
  z.codec(z.string(), z.array(item).min(1), {
    decode: (text) => text.split(',') as Array<z.input<I>>,
    encode: (items) => items.map(String).join(','),
  });

/**
 * The value of a parameter, undefined when absent. When it is repeated the last value counts:
 * that is the one Netlify's rules engine matches, so static files and functions agree.
 */
export function lastValue(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

/** Every parameter of `params` read from the query, in order; unknown parameters are ignored. */
export function parseQuery<P extends Params>(params: P, query: URLSearchParams): QueryOf<P> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(params)) {
    const { expected, once } = metaOf(schema);
    const given = query.getAll(name);
    const longest = maxLengthOf(schema);
    if (given.some((text) => text.length > longest)) throw invalidParameter(name, `${expected}, at most ${longest} characters`);
    if (once && given.length > 1) throw invalidParameter(name, `${expected}, given once`);
    const parsed = schema.safeParse(given.at(-1));
    if (!parsed.success) throw invalidParameter(name, expected);
    values[name] = parsed.data;
  }
  return values as QueryOf<P>;
}

/**
 * The schema an argument of the MCP tool takes: the parameter's value, with its bounds, optional
 * unless required; a value it refuses is said, as the 400 says it, to expect `expected`.
 */
export function argumentOf(schema: Param): z.ZodType {
  const required = !schema.safeParse(undefined).success;
  const value = textBounded(valueSchema(schema), maxLengthOf(schema));
  const said = saying(value, `expected ${metaOf(schema).expected}`);
  return required ? said : said.optional();
}

/**
 * A schema whose every issue, a union's options' and a list's items' included, says `message`:
 * the words of the 400, where the validator would say `Too big: expected number to be <=2000`.
 */
export function saying<S extends z.ZodType>(schema: S, message: string): S {
  const def =
    schema instanceof z.ZodUnion
      ? { ...schema.def, options: schema.options.map((o) => saying(o as z.ZodType, message)) }
      : schema instanceof z.ZodArray
        ? { ...schema.def, element: saying(schema.element as z.ZodType, message) }
        : schema.def;
  return schema.clone({ ...def, error: () => message } as typeof schema.def) as S;
}

/** A value that is text bounded as the query's text is (a number or a list is bounded by its own schema). */
export function textBounded(value: z.ZodType, longest: number): z.ZodType {
  if (!(value instanceof z.ZodString && value.maxLength === null)) return value;
  const bounded = value.max(longest);
  // Read from the same text as the value it bounds.
  const pattern = TEXT_PATTERN.get(value);
  return pattern === undefined ? bounded : readFrom(bounded, pattern);
}

/**
 * The schema of a parameter's value as an argument gives it, outside its default or optional
 * wrapper: a codec's output (the number its text stands for), a transform's input (the date a
 * handler receives as a day number).
 */
export function valueSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return valueSchema(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodCodec) return schema.out as z.ZodType;
  if (schema instanceof z.ZodPipe) return valueSchema(schema.in as z.ZodType);
  return schema;
}

/** An argument's value as query text, by the parameter's own codec. */
export function textOf(schema: z.ZodType, value: unknown): string {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return textOf(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodCodec) return z.encode(schema, value as never) as string;
  return String(value);
}
