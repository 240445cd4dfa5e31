/**
 * GET /api/pollen-range: hourly or daily rows of any window, read from SQLite row by row and
 * written out in pieces, so even the largest answer is never held whole.
 */
import type { City } from '../domain/cities.js';
import { dayString, isoHour, isoTime } from '../domain/dates.js';
import { byDay, dayFinder } from '../domain/days.js';
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

export const pollenRange: Handler = (query, { store, cities }) => {
  const q = parseRangeQuery(query, cities);
  // The head goes out before the rows, so whether the limit cuts them is decided first, from the
  // days' hour masks, stopping at the limit rather than counting the whole window.
  // Days counted as the rows group them.
  const dayOf = (city: City) => {
    if (q.aggregate === 'none') return undefined;
    const find = dayFinder(q.cut, city.timezone);
    return (hour: number) => find(hour).day;
  };
  const { count, more: truncated } = store.countUpTo(q.windows.map((w) => ({ city: w.city.slug, from: w.from, to: w.to, dayOf: dayOf(w.city) })), q.limit);
  const rows = () => limited(rangeRows(store, q), q.limit);
  const headers = { 'X-Truncated': String(truncated), 'X-Total-Rows': String(count) };

  if (q.format === 'csv') {
    return { body: new Chunks(() => pieces([CSV_COLUMNS.join(',') + '\n'], rows(), (r) => CSV_COLUMNS.map((c) => csvCell(r[c])).join(',') + '\n', [])), contentType: 'text/csv; charset=utf-8', headers };
  }
  // With local days a date-only bound is echoed as given (each city's own midnight of it); otherwise as a UTC instant.
  const echo = (ms: number, date: number | undefined) => JSON.stringify(q.cut === 'local' && date !== undefined ? dayString(date) : isoTime(ms));
  const local = q.cut === 'local' ? ',"timezone":"local"' : '';
  const head = `{"from":${echo(q.from, q.fromDate)},"to":${echo(q.to, q.toDate)},"cities":${JSON.stringify(q.cities.map((c) => c.slug))},"aggregate":"${q.aggregate}"${local},"truncated":${truncated},"rows":[`;
  let first = true;
  const row = (r: RangeRow) => (first ? ((first = false), '') : ',') + JSON.stringify(r);
  return { body: new Chunks(() => pieces([head], rows(), row, [']}'])), headers };
};

/** The range's flat row, in its field order, from an hourly row or daily means. */
const rangeRow = (city: string, periodStart: string, v: DailyMeans): RangeRow => ({
  city, periodStart, tree: v.tree, grass: v.grass, weed: v.weed, total: v.total, timezone: v.timezone, species: v.species,
  risk_tree: v.risk_tree, risk_grass: v.risk_grass, risk_weed: v.risk_weed,
});

/** Rows in city-slug order, then by period start; a day's period starts at its (UTC or local) midnight. */
function* rangeRows(store: Store, q: RangeQuery): Generator<RangeRow> {
  for (const { city, from, to } of q.windows) {
    const hours = store.iterateHours(city.slug, from, to);
    if (q.aggregate === 'none') {
      for (const h of hours) {
        const row = hourlyRow(h);
        yield rangeRow(city.slug, row.ts, row);
      }
      continue;
    }
    for (const d of byDay(q.cut, city.timezone, hours)) yield rangeRow(city.slug, isoHour(d.from), dailyMeans(d.hours));
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
