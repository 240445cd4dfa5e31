/**
 * What a handler answers: a JSON body typed by its route's schema (whole, or written row by row),
 * or text in a media type of its own (CSV, a calendar, a feed, llms.txt).
 */

/** A body produced piece by piece, so a large answer is never held whole. */
export class Chunks {
  constructor(readonly read: () => Iterable<string>) {}
}

export type Fields<T> = Partial<Omit<T, 'rows'>>;
export type RowOf<T> = T extends { rows: ReadonlyArray<infer R> } ? R : never;

/**
 * A JSON object whose rows are written one at a time, `{...head, "rows": [...], ...tail}`, the tail
 * made once the last row is known: streamed over HTTP, and whole for MCP, from the same rows.
 */
export class JsonRows<T extends { rows: readonly unknown[] }> {
  constructor(
    readonly head: Fields<T>,
    readonly rows: () => Iterable<RowOf<T>>,
    readonly tail: (last: RowOf<T> | undefined) => Fields<T> = () => ({}),
  ) {}

  /** The text, in pieces of about 64 KiB. */
  *read(): Generator<string> {
    let last: RowOf<T> | undefined;
    yield* pieces(
      openRows(this.head),
      this.rows(),
      (r) => (last === undefined ? '' : ',') + JSON.stringify((last = r)),
      () => closeRows(this.tail(last)),
    );
  }

  /** The whole object, as JSON.parse would read the text back. */
  value(): T {
    const rows = [...this.rows()];
    return { ...this.head, rows, ...this.tail(rows.at(-1)) } as unknown as T;
  }
}

/** The text of a head up to its rows' first: `{"from":...,"rows":[`. */
export const openRows = (head: object): string => `${JSON.stringify(head).slice(0, -1)}${Object.keys(head).length > 0 ? ',' : ''}"rows":[`;
/** The text after the rows: `],"next":...}`. */
export const closeRows = (tail: object): string =>
  `]${Object.entries(tail)
    .map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join('')}}`;

const PIECE = 64 * 1024;

/** Text in pieces of about 64 KiB: the head, each row, the tail (written once the rows are). */
export function* pieces<T>(head: string, rows: Iterable<T>, line: (row: T) => string, tail: () => string): Generator<string> {
  let buffer = head;
  for (const r of rows) {
    buffer += line(r);
    if (buffer.length >= PIECE) {
      yield buffer;
      buffer = '';
    }
  }
  buffer += tail();
  if (buffer) yield buffer;
}

interface Common {
  /** Defaults to 200; a handler answers another status without an error (`/api/health`'s 503). */
  status?: number;
  headers?: Record<string, string>;
}

/** A JSON answer: the body its route's schema describes. */
export interface JsonAnswer<T> extends Common {
  body: T | (T extends { rows: readonly unknown[] } ? JsonRows<T> : never);
  /** Defaults to `application/json`. */
  contentType?: string;
}

/** A text answer in a media type of its own, whole or in pieces. */
export interface TextAnswer extends Common {
  text: string | Chunks;
  contentType: string;
}

export type Answer<T> = JsonAnswer<T> | TextAnswer;

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
