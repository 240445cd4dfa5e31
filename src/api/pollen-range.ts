/**
 * GET /api/pollen-range: hourly or daily rows of any window, read from SQLite row by row and
 * written out in pieces, so even the largest answer is never held whole.
 */
import { HOUR_MS, isoHour, isoTime } from '../domain/dates.js';
import { dailyMeans, hourlyRow, type DailyMeans } from '../domain/pollen-rows.js';
import type { StoredHour } from '../domain/hours.js';
import type { Store } from '../store/store.js';
import { Chunks, type Handler } from './handler.js';
import { parseRangeQuery, type RangeQuery } from './range-params.js';

const PIECE = 64 * 1024;

export interface RangeRow {
  city: string;
  periodStart: string;
  tree: number | null;
  grass: number | null;
  weed: number | null;
  total: number | null;
  timezone: string | null;
  species: StoredHour['species'];
  risk_tree: string | null;
  risk_grass: string | null;
  risk_weed: string | null;
}

export const CSV_COLUMNS = ['city', 'periodStart', 'tree', 'grass', 'weed', 'total', 'timezone', 'risk_tree', 'risk_grass', 'risk_weed'] as const;

export const pollenRange: Handler = (query, { store }) => {
  const q = parseRangeQuery(query);
  const [fromHour, toHour] = [Math.ceil(q.from / HOUR_MS), Math.ceil(q.to / HOUR_MS)];
  const total = q.cities.reduce((n, c) => n + store.countHours(c.slug, fromHour, toHour, q.aggregate === 'day' ? 'day' : 'hour'), 0);
  const truncated = total > q.limit;
  const rows = () => limited(rangeRows(store, q, fromHour, toHour), q.limit);
  const headers = { 'X-Truncated': String(truncated), 'X-Total-Rows': String(Math.min(total, q.limit)) };

  if (q.format === 'csv') {
    return { body: new Chunks(() => pieces([CSV_COLUMNS.join(',') + '\n'], rows(), (r) => CSV_COLUMNS.map((c) => csvCell(r[c])).join(',') + '\n', [])), contentType: 'text/csv; charset=utf-8', headers };
  }
  const head = `{"from":${JSON.stringify(isoTime(q.from))},"to":${JSON.stringify(isoTime(q.to))},"cities":${JSON.stringify(q.cities.map((c) => c.slug))},"aggregate":"${q.aggregate}","truncated":${truncated},"rows":[`;
  let first = true;
  const row = (r: RangeRow) => (first ? ((first = false), '') : ',') + JSON.stringify(r);
  return { body: new Chunks(() => pieces([head], rows(), row, [']}'])), headers };
};

/** The range's flat row, in its field order, from an hourly row or daily means. */
const rangeRow = (city: string, periodStart: string, v: DailyMeans): RangeRow => ({
  city, periodStart, tree: v.tree, grass: v.grass, weed: v.weed, total: v.total, timezone: v.timezone, species: v.species,
  risk_tree: v.risk_tree, risk_grass: v.risk_grass, risk_weed: v.risk_weed,
});

/** Rows in city-slug order, then by period start. */
function* rangeRows(store: Store, q: RangeQuery, fromHour: number, toHour: number): Generator<RangeRow> {
  for (const city of q.cities) {
    const hours = store.iterateHours(city.slug, fromHour, toHour);
    if (q.aggregate === 'none') {
      for (const h of hours) {
        const row = hourlyRow(h);
        yield rangeRow(city.slug, row.ts, row);
      }
      continue;
    }
    let day: StoredHour[] = [];
    const flush = (): RangeRow => rangeRow(city.slug, isoHour(Math.floor(day[0]!.hour / 24) * 24), dailyMeans(day));
    for (const h of hours) {
      if (day.length > 0 && Math.floor(h.hour / 24) !== Math.floor(day[0]!.hour / 24)) {
        yield flush();
        day = [];
      }
      day.push(h);
    }
    if (day.length > 0) yield flush();
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

/** Text in pieces of about 64 KiB: the head, each row, the tail. */
function* pieces<T>(head: string[], rows: Iterable<T>, line: (row: T) => string, tail: string[]): Generator<string> {
  let buffer = head.join('');
  for (const r of rows) {
    buffer += line(r);
    if (buffer.length >= PIECE) {
      yield buffer;
      buffer = '';
    }
  }
  buffer += tail.join('');
  if (buffer) yield buffer;
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
