/**
 * GET /api/pollen-range: hourly or daily rows of any window, read from SQLite row by row and
 * written out in pieces, so even the largest answer is never held whole.
 */

import * as z from 'zod';
import type { City } from '../../domain/cities.js';
import { dayString, isoHour, isoTime } from '../../domain/dates.js';
import { dayFinder, hoursByDay } from '../../domain/day-cuts.js';
import { type DailyMeans, dailyMeans, hourlyRow } from '../../domain/pollen-rows.js';
import { provenanceOfSources, rowProvenanceOf } from '../../domain/provenance.js';
import { named } from '../../domain/schema-names.js';
import * as D from '../../domain/schemas.js';
import { DateTime, Day } from '../../domain/schemas.js';
import type { Shape } from '../../domain/species/payload.js';
import type { StoreReader } from '../../store/reader.js';
import { type Answer, closeRows, JsonRows, openRows } from '../contract/answer.js';
import { localDays, provenance } from '../contract/answer-fields.js';
import type { RowText } from '../contract/format.js';
import { CITY_NOT_FOUND } from '../contract/not-found.js';
import { cutField } from '../contract/params.js';
import { route } from '../contract/route.js';
import { rangeCsv } from './range-csv.js';
import { RANGE_PARAMS, type RangeQuery, rangeQuery } from './range-params.js';

export const PollenRangeResponse = named(
  'PollenRangeResponse',
  "Rows ordered by city slug, then periodStart; truncated is true when limit cut them, or the body would have passed 20,000,000 bytes (before compression, so the same rows in every encoding), and next is then the request that continues after the last row. from and to are UTC instants, except that with timezone=local a date-only from or to is echoed as given (it means each city's local midnight).",
  z.object({
    from: z.union([DateTime, Day]),
    to: z.union([DateTime, Day]),
    cities: z.array(z.string()),
    aggregate: z.enum(['none', 'day']),
    ...localDays,
    ...provenance,
    truncated: z.boolean(),
    rows: z.array(D.PollenRangeRow),
    next: z.string().optional().describe("Only when truncated: this request again with after set to the last row's 'city,periodStart'."),
  }),
);

/** The longest JSON a number can take (`-1.2345678901234567e-308`), or a risk label (`"Very High"`). */
const NUMBER_BYTES = 24;
const RISK_BYTES = 11;

export type RangeRow = D.PollenRangeRow;
type RangeResponse = z.infer<typeof PollenRangeResponse>;

/** Rows one get_pollen_range call returns at most; the HTTP endpoint goes to 50,000. */
export const MCP_RANGE_CAP = 2000;

export const pollenRangeRoute = route({
  path: '/api/pollen-range',
  params: RANGE_PARAMS,
  response: PollenRangeResponse,
  doc: {
    operationId: 'getPollenRange',
    summary: 'Pollen over any window',
    description: `Hourly (aggregate=none) or daily (aggregate=day: the hours inside [from, to) grouped by UTC day, or local day with timezone=local; daily-row rules, no peaks) rows, ordered by city slug then periodStart. from and to are echoed in UTC (a date-only one as given with timezone=local). Parameters other than these are ignored; each of these may be given once. Streamed, and compressed with br or gzip when accepted; the body stops before 20,000,000 bytes uncompressed (Netlify streams at most 20 MB), whatever the encoding, and before a row that would take its reads past 23 city-quarters (a city's UTC calendar quarter) and 23 days of every city alike, with truncated true and a next link. X-Truncated and X-Total-Rows headers repeat what the body says. The rows are made from hours: a day its provider gave as one value (atmospore) has none here, and is among the city's daily rows of /api/pollen.`,
    ok: 'OK.',
    notFound: CITY_NOT_FOUND,
  },
  llms: 'any window (from inclusive, to exclusive; dates or RFC 3339 date-times); a truncated answer (the limit, 20,000,000 bytes, or more than 23 city-quarters and 23 days of every city read) ends with "next", the same request with after=city,periodStart of its last row: follow it to page',
  tool: {
    name: 'get_pollen_range',
    title: 'Pollen over a time window',
    description: `Hourly (aggregate "none") or daily ("day") rows for a window: from inclusive, to exclusive, each a YYYY-MM-DD date or an RFC 3339 date-time with offset. At most ${MCP_RANGE_CAP} rows per call; when truncated is true, narrow the window or the cities, or use aggregate "day".`,
    args: {
      city: { name: 'cities', description: 'City slugs; all cities when omitted.' },
      limit: {
        schema: z.number().int().min(1).max(MCP_RANGE_CAP),
        description: `Most rows, 1 to ${MCP_RANGE_CAP} (default ${MCP_RANGE_CAP}).`,
        fallback: MCP_RANGE_CAP,
      },
    },
    output: PollenRangeResponse.extend({ hint: z.string().optional() }),
    finish: (body, args) => {
      if (!body.truncated) return body;
      const last = (body.rows as RangeRow[] | undefined)?.at(-1);
      const more = last ? `call again with after "${last.city},${last.periodStart}", ` : '';
      const cap = (args.limit as number | undefined) ?? MCP_RANGE_CAP;
      return {
        ...body,
        hint: `More rows than this call returns (${cap}): ${more}narrow from/to or cities, use aggregate "day", or fetch /api/pollen-range over HTTP (up to 50000 rows).`,
      };
    },
    note: `at most ${MCP_RANGE_CAP} rows a call`,
  },
  formats: { csv: rangeCsv },
  handle: (q, { store, cities, settings }, { query, format }) =>
    rangeAnswer(rangeQuery(q, cities), query, store, settings.maxBodyBytes, format?.rows),
});

/** The answer, sized to fit `maxBytes` as JSON or, given `text`, as that format writes its rows. */
async function rangeAnswer(
  q: RangeQuery,
  query: URLSearchParams,
  store: StoreReader,
  maxBytes: number,
  text?: RowText<RangeResponse>,
): Promise<Answer<RangeResponse>> {
  // The head goes out before the rows, so whether the limit cuts them is decided first, from the
  // days' hour masks, stopping at the limit rather than counting the whole window.
  // Days counted as the rows group them.
  const dayOf = (city: City) => {
    if (q.aggregate === 'none') return undefined;
    const find = dayFinder(q.cut, city.timezone);
    return (hour: number) => find(hour).day;
  };
  // The range's providers, from the days' rows before any hour is read: the head names them.
  const sources = [...new Set(q.windows.flatMap((w) => store.pollen.sourcesIn(w.city.slug, w.from, w.to)))];
  const from = provenanceOfSources(sources, store.pollen.latestSource());
  const mixed = from.providers !== undefined;
  const counted = store.pollen.countUpTo(
    q.windows.map((w) => ({ city: w.city.slug, from: w.from, to: w.to, dayOf: dayOf(w.city) })),
    q.limit,
  );

  // With local days a date-only bound is echoed as given (each city's own midnight of it); otherwise as a UTC instant.
  const echo = (ms: number, date: number | undefined) => (q.cut === 'local' && date !== undefined ? dayString(date) : isoTime(ms));
  const head = (truncated: boolean) => ({
    from: echo(q.from, q.fromDate),
    to: echo(q.to, q.toDate),
    cities: q.cities.map((c) => c.slug),
    aggregate: q.aggregate,
    ...cutField(q.cut),
    ...from,
    truncated,
  });
  // A truncated answer ends with where to continue: the request again, after its last row.
  const tail = (last: Pick<RangeRow, 'city' | 'periodStart'> | undefined, truncated: boolean) =>
    truncated && last ? { next: nextLink(query, last) } : {};
  const longestTail = tail({ city: q.cities.reduce((a, c) => (c.slug.length > a.length ? c.slug : a), ''), periodStart: isoTime(0) }, true);
  const jsonRow = (r: RangeRow) => `,${JSON.stringify(r)}`;
  // The head as the rows are sized (made once: the sizing pass may read 50,000 rows).
  const sized = head(false);
  const { count, truncated } = await fitting(
    counted,
    text ? maxBytes - bytes(text.head) : maxBytes - bytes(openRows(sized)) - bytes(closeRows(longestTail)) + 1,
    rowBound(store, q, sources),
    () => rangeRows(store, q, mixed),
    text ? (r) => text.line(r, sized) : jsonRow,
  );
  const headers = { 'X-Truncated': String(truncated), 'X-Total-Rows': String(count) };
  return {
    body: new JsonRows<RangeResponse>(
      head(truncated),
      () => limited(rangeRows(store, q, mixed), count),
      (last) => tail(last, truncated),
    ),
    headers,
  };
}

const bytes = (text: string) => Buffer.byteLength(text);

/** Rows the sizing pass reads between two turns of the event loop: a few milliseconds of work. */
const SIZING_SLICE = 500;

/**
 * How many of the counted rows fit `room` bytes as `line` writes them, and whether the answer is
 * cut (by the limit or by bytes). Rows are sized, in a pass of their own, only where so many rows
 * of at most `bound` bytes could exceed the room; that pass (up to 50,000 rows, a second or more)
 * lets other requests run every SIZING_SLICE rows instead of holding the process.
 */
async function fitting(
  counted: { count: number; more: boolean },
  room: number,
  bound: number,
  rows: () => Iterable<RangeRow>,
  line: (r: RangeRow) => string,
): Promise<{ count: number; truncated: boolean }> {
  if (counted.count * bound <= room) return { count: counted.count, truncated: counted.more };
  let used = 0;
  let fit = 0;
  for (const r of limited(rows(), counted.count)) {
    used += bytes(line(r));
    if (used > room) return { count: fit, truncated: true };
    if (++fit % SIZING_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { count: fit, truncated: counted.more };
}

/**
 * The most bytes one row of this range can take, JSON or CSV: the longest slug of its cities,
 * the longest stored label as a zone (escaped at worst), every number at its longest, and a
 * species object with every key of every stored shape.
 */
export function rowBound(store: StoreReader, q: RangeQuery, sources: readonly string[] = []): number {
  const quoted = (text: string) => bytes(JSON.stringify(text));
  const species = Math.max(4, speciesBytes(unionOf(store.shapes.all())));
  const fields = bytes(
    JSON.stringify(
      rangeRow('', '', {
        tree: 0,
        grass: 0,
        weed: 0,
        total: 0,
        timezone: '',
        species: null,
        risk_tree: null,
        risk_grass: null,
        risk_weed: null,
      }),
    ),
  );
  const slug = Math.max(...q.cities.map((c) => quoted(c.slug)));
  // A row's providers, at most all of the range's (a CSV cell of them joined is shorter).
  const providers = sources.length === 0 ? 0 : bytes(JSON.stringify({ providers: sources, simulated: true }));
  return (
    fields + slug + 6 * store.longestLabelBytes() + 2 + bytes(isoTime(0)) + 2 + 4 * NUMBER_BYTES + species + 3 * RISK_BYTES + providers
  );
}

/**
 * Every key of the shapes in one: a daily row's species are the means over its hours, whose shapes
 * may differ, so its object holds the keys of all of them (a category that is an object in any
 * shape counted as one, the larger form).
 */
function unionOf(shapes: readonly Shape[]): Shape {
  const categories = new Map<string, Set<string> | null>();
  for (const shape of shapes) {
    for (const [category, allergens] of shape) {
      const known = categories.get(category);
      if (allergens) categories.set(category, new Set([...(known ?? []), ...allergens]));
      else if (known === undefined) categories.set(category, null);
    }
  }
  return [...categories].map(([category, allergens]) => (allergens ? [category, [...allergens]] : [category]));
}

/** The longest JSON a species object of this shape can take: `{"Tree":{"Alder":N,...},"Others":N}`. */
function speciesBytes(shape: Shape): number {
  const key = (k: string) => bytes(JSON.stringify(k)) + 2; // the key, its colon and a comma
  return (
    2 +
    shape.reduce(
      (n, [category, allergens]) =>
        n + key(category) + (allergens ? 2 + allergens.reduce((m, a) => m + key(a) + NUMBER_BYTES, 0) : NUMBER_BYTES),
      0,
    )
  );
}

/** The same request, continued after a row. */
function nextLink(query: URLSearchParams, last: Pick<RangeRow, 'city' | 'periodStart'>): string {
  const next = new URLSearchParams(query);
  next.set('after', `${last.city},${last.periodStart}`);
  return `/api/pollen-range?${next}`;
}

/** The range's flat row, in its field order, from an hourly row or daily means. */
const rangeRow = (city: string, periodStart: string, v: DailyMeans): RangeRow => ({
  city,
  periodStart,
  tree: v.tree,
  grass: v.grass,
  weed: v.weed,
  total: v.total,
  timezone: v.timezone,
  species: v.species,
  risk_tree: v.risk_tree,
  risk_grass: v.risk_grass,
  risk_weed: v.risk_weed,
});

/**
 * Rows in city-slug order, then by period start; a day's period starts at its (UTC or local)
 * midnight. With `providers`, each row names the providers of its values (domain/provenance.ts).
 */
function* rangeRows(store: StoreReader, q: RangeQuery, providers: boolean): Generator<RangeRow> {
  const named = (row: RangeRow, sources: readonly string[]): RangeRow => (providers ? { ...row, ...rowProvenanceOf(sources) } : row);
  for (const { city, from, to } of q.windows) {
    const hours = store.pollen.iterateHours(city.slug, from, to);
    if (q.aggregate === 'none') {
      for (const h of hours) {
        const row = hourlyRow(h);
        yield named(rangeRow(city.slug, row.ts, row), [h.source]);
      }
      continue;
    }
    for (const d of hoursByDay(q.cut, city.timezone, hours))
      yield named(
        rangeRow(city.slug, isoHour(d.from), dailyMeans(d.hours)),
        d.hours.map((h) => h.source),
      );
  }
}

function* limited<T>(items: Iterable<T>, limit: number): Generator<T> {
  if (limit <= 0) return;
  let n = 0;
  for (const item of items) {
    yield item;
    if (++n >= limit) return;
  }
}
