/**
 * Output formats, as Datasette's output renderers are: a route's handler answers JSON, and a
 * route that offers other formats (CSV, a calendar, a feed) declares a renderer for each, which
 * writes that format from the handler's answer. The `format` parameter, the OpenAPI media types of
 * the 200 and the MCP tools' JSON-only arguments all follow from the formats a route declares.
 */
import { Chunks, type Fields, type JsonAnswer, JsonRows, pieces, type RowOf, type TextAnswer } from './answer.js';
import { anyCase, oneOfWords, type Param, param } from './query.js';

/** The request as given: its query (for links that repeat it) and, over HTTP, its origin. */
export interface RequestQuery {
  query: URLSearchParams;
  /** `https://host`, absent in a render and in MCP's calls. */
  origin?: string;
}

/** How a format writes an answer that comes row by row: the text before the rows, and each row's (which may read the answer's head). */
export interface RowText<B> {
  head: string;
  line: (row: RowOf<B>, head: Fields<B>) => string;
}

/** A format besides JSON that a route offers, and its renderer. */
export interface Format<B> {
  /** The Content-Type of its answers. */
  readonly contentType: string;
  /** The 200's schema in this media type, as the OpenAPI document shows it. */
  readonly schema: Record<string, unknown>;
  /**
   * For an answer written row by row: how this format writes a row, so that the handler sizes the
   * answer (and cuts it before a byte limit) as it will be written.
   */
  readonly rows?: RowText<B>;
  /** The answer in this format, written from the handler's JSON answer (whose headers it keeps, its own added). */
  render(answer: JsonAnswer<B>, given: RequestQuery): TextAnswer;
}

/** A route's formats besides JSON, by the name `format=` takes. */
export type Formats<B> = Readonly<Record<string, Format<B>>>;

/** The media type of a Content-Type, without its parameters: `text/csv` of `text/csv; charset=utf-8`. */
export const mediaType = (contentType: string): string => contentType.split(';')[0]!.trim();

/**
 * The `format` parameter of a route offering formats besides JSON (`names`, each a key of the
 * route's `formats`): `json` (the default) or one of them, in any case, given once. `what` says
 * what each is.
 */
export function formatParam<const N extends string>(names: readonly N[], what: string): Param<'json' | N> {
  const all: ReadonlyArray<'json' | N> = ['json', ...names];
  const expected = oneOfWords(all);
  const schema = anyCase<string>(all).default('json') as Param<'json' | N>;
  return param(schema, { expected, description: `${expected} (any case): ${what}`, once: true });
}

/** A row-by-row answer's text in a format: its head, then each of the rows the JSON answer holds. */
export function rowsText<T extends { rows: readonly unknown[] }>(answer: JsonAnswer<T>, text: RowText<T>): Chunks {
  const body = answer.body;
  const [head, rows]: [Fields<T>, () => Iterable<RowOf<T>>] =
    body instanceof JsonRows
      ? [body.head as Fields<T>, body.rows as () => Iterable<RowOf<T>>]
      : [body as Fields<T>, () => (body as T).rows as Iterable<RowOf<T>>];
  return new Chunks(() =>
    pieces(
      text.head,
      rows(),
      (r) => text.line(r, head),
      () => '',
    ),
  );
}

/** The schema of a format whose answer is text to OpenAPI. */
export const TEXT = { type: 'string' } as const;
