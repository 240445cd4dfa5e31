/** What an endpoint handler is: a parsed query and its context in, a body out. */
import type { CitySet } from '../domain/cities.js';
import type { ZipTable } from '../domain/geo.js';
import type { ForecastService } from '../forecast/service.js';
import type { BulkManifest } from '../served/bulk-index.js';
import type { StoreReader } from '../store/reader.js';

/** What handlers read of the process: its clock, and settled once from the environment, the health limit. */
export interface AnswerSettings {
  now: () => number;
  /** `/api/health` is `ok` while the newest stored hour is at most this old. */
  healthMaxAgeHours: number;
  /**
   * The most bytes one answer's body may take, decided before its rows are read: what the
   * delivery carries (a function's stream over HTTP; less inside an MCP result, which holds it twice).
   */
  maxBodyBytes: number;
}

/** What handlers may use; each is opened on first use. */
export interface ApiContext {
  readonly store: StoreReader;
  /** The cities served: the store's set (or the site file's, where there is no store). */
  readonly cities: CitySet;
  readonly forecast: ForecastService;
  readonly settings: AnswerSettings;
  /** ZIP codes' centroids: only where the function carries the table (nearest, mcp). */
  readonly zips?: ZipTable;
  /** The bulk files' manifest a render left beside the store, if any (MCP's get_bulk_files). */
  readonly bulkIndex: BulkManifest | undefined;
}

/** A body produced piece by piece, so a large answer is never held whole. */
export class Chunks {
  constructor(readonly read: () => Iterable<string>) {}
}

type Fields = Record<string, unknown>;

/**
 * A JSON object whose rows are written one at a time, `{...head, "rows": [...], ...tail}`, the tail
 * made once the last row is known: streamed over HTTP, and whole for MCP, from the same rows.
 */
export class JsonRows<R> {
  constructor(
    readonly head: Fields,
    readonly rows: () => Iterable<R>,
    readonly tail: (last: R | undefined) => Fields = () => ({}),
  ) {}

  /** The text, in pieces of about 64 KiB. */
  *read(): Generator<string> {
    let last: R | undefined;
    yield* pieces(
      openRows(this.head),
      this.rows(),
      (r) => (last === undefined ? '' : ',') + JSON.stringify((last = r)),
      () => closeRows(this.tail(last)),
    );
  }

  /** The whole object, as JSON.parse would read the text back. */
  value(): Fields {
    const rows = [...this.rows()];
    return { ...this.head, rows, ...this.tail(rows.at(-1)) };
  }
}

/** The text of a head up to its rows' first: `{"from":...,"rows":[`. */
export const openRows = (head: Fields): string => `${JSON.stringify(head).slice(0, -1)}${Object.keys(head).length > 0 ? ',' : ''}"rows":[`;
/** The text after the rows: `],"next":...}`. */
export const closeRows = (tail: Fields): string =>
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

export interface Answer {
  /** Defaults to 200; a handler answers another status without an error (`/api/health`'s 503). */
  status?: number;
  /** A JSON value, text, `Chunks` of text, or `JsonRows`. */
  body: unknown;
  /** Defaults to `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** `origin` (`https://host`) is the request's where there is one: absent in a render and in MCP's in-process calls. */
export type Handler = (query: URLSearchParams, ctx: ApiContext, origin?: string) => Answer | Promise<Answer>;

/** The API's name: OpenAPI's title, and the author of its feeds. */
export const API_TITLE = 'Pollen, weather and air-quality API';

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
