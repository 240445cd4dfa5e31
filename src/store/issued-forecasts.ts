/**
 * Every forecast kept as issued (docs/data.md, "Forecast skill"): one row per city and issue
 * instant, with what it said of each UTC day it covered enough (domain/verification/target-days.ts): the
 * day's lead, the hours it held, and each category's daily mean and NAB level. Not its hours: a
 * 48-hour forecast's hours packed as a day's are (codec.ts) take about ten times the bytes, and
 * scores read daily means. The store keeps them for the served days (SERVE_DAYS) only; the served
 * store carries none (Store.keepServedDays), but each city's skill made from them.
 */
import { DAY_MS } from '../domain/dates.js';
import { GRADED, RISK_LABELS } from '../domain/species/risk.js';
import type { KeptForecast, KeptOrigin } from '../domain/verification/forecast-skill.js';
import type { DayLevels, KeptDay } from '../domain/verification/target-days.js';
import type { Db, Row } from './database.js';
import type { Names } from './names.js';
import { Reader, Writer } from './varint-codec.js';

const ORIGINS: readonly KeptOrigin[] = ['build', 'function', 'made again'];

/** A forecast to keep: its provider, and what it said. */
export type IssuedForecast = KeptForecast;

/** The days packed: their count; each day's lead and hours, which categories it has, their means, and their levels in one varint. */
function pack(days: readonly KeptDay[], issueDay: number): Uint8Array {
  const w = new Writer();
  w.varint(days.length);
  for (const d of days) {
    if (d.day !== issueDay + d.lead) throw new RangeError(`day ${d.day} is not ${d.lead} days after the issue day ${issueDay}`);
    w.varint(d.lead);
    w.varint(d.hours);
    const held = GRADED.filter((c) => d.levels[c] !== undefined);
    w.bits(GRADED.map((c) => d.levels[c] !== undefined));
    let levels = 0;
    for (const c of held.toReversed()) levels = levels * RISK_LABELS.length + RISK_LABELS.indexOf(d.levels[c]!.level);
    for (const c of held) w.token(d.levels[c]!.value);
    w.varint(levels);
  }
  return w.done();
}

function unpack(data: Uint8Array, issuedAt: number): KeptDay[] {
  // Plain loops: the render's skill step unpacks every kept forecast of every city.
  const r = new Reader(data);
  const issueDay = Math.floor(issuedAt / DAY_MS);
  const days: KeptDay[] = new Array(r.varint());
  const values: number[] = [];
  for (let k = 0; k < days.length; k++) {
    const lead = r.varint();
    const hours = r.varint();
    const has = r.mask(GRADED.length);
    values.length = 0;
    for (let i = 0; i < GRADED.length; i++) if (has & (1 << i)) values.push(r.token()!);
    let code = r.varint();
    const levels: DayLevels = {};
    for (let i = 0, v = 0; i < GRADED.length; i++) {
      if (!(has & (1 << i))) continue;
      levels[GRADED[i]!] = { value: values[v++]!, level: RISK_LABELS[code % RISK_LABELS.length]! };
      code = Math.floor(code / RISK_LABELS.length);
    }
    days[k] = { day: issueDay + lead, lead, issuedAt, hours, levels };
  }
  return days;
}

export class IssuedForecasts {
  private readonly stmt;
  private readonly transaction: <T>(work: () => T) => T;

  constructor(
    db: Db,
    private readonly names: Names,
  ) {
    this.stmt = {
      keep: db.prepare(
        'INSERT INTO forecast_issued (city_id, issued_at, source_id, origin, days) VALUES (?, ?, ?, ?, ?) ON CONFLICT (city_id, issued_at, source_id) DO NOTHING',
      ),
      // A source of null: any provider's.
      has: db
        .prepare('SELECT 1 FROM forecast_issued WHERE city_id = @city AND issued_at = @at AND (@source IS NULL OR source_id = @source)')
        .pluck(),
      latest: db
        .prepare('SELECT max(issued_at) FROM forecast_issued WHERE city_id = @city AND (@source IS NULL OR source_id = @source)')
        .pluck(),
      since: db.prepare(
        'SELECT issued_at, source_id, origin, days FROM forecast_issued WHERE city_id = ? AND issued_at >= ? ORDER BY issued_at',
      ),
      all: db.prepare(
        'SELECT c.slug, f.issued_at, f.source_id, f.origin, f.days FROM forecast_issued f JOIN city c ON c.id = f.city_id ORDER BY c.slug, f.issued_at',
      ),
      drop: db.prepare('DELETE FROM forecast_issued WHERE issued_at < ?'),
      count: db.prepare('SELECT count(*) FROM forecast_issued').pluck(),
      bySourceAll: db.prepare('SELECT source_id, issued_at, days FROM forecast_issued ORDER BY issued_at'),
      archive: db.prepare(
        'SELECT count(*) n, count(DISTINCT issued_at / 86400000) days, min(issued_at) first, max(issued_at) last, sum(origin = 0) build, sum(origin = 1) fn, sum(origin = 2) again FROM forecast_issued WHERE city_id = ? AND issued_at >= ?',
      ),
      bySource: db.prepare(
        'SELECT source_id, count(*) n FROM forecast_issued WHERE city_id = ? AND issued_at >= ? GROUP BY source_id ORDER BY min(issued_at)',
      ),
      issuedSince: db.prepare('SELECT issued_at FROM forecast_issued WHERE city_id = ? AND issued_at >= ? ORDER BY issued_at').pluck(),
    };
    this.transaction = (work) => db.transaction(work)();
  }

  /** Keeps a forecast of a city, unless its provider's issued at the same instant is kept already; says whether it kept it. */
  keep(city: string, f: IssuedForecast): boolean {
    const days = pack(f.days, Math.floor(f.issuedAt / DAY_MS));
    const kept = this.stmt.keep.run(
      this.names.id('city', city),
      f.issuedAt,
      this.names.id('source', f.source),
      ORIGINS.indexOf(f.origin),
      days,
    );
    return kept.changes > 0;
  }

  /** Keeps a city's forecasts in one transaction (those of an instant kept already are left); says how many it kept. */
  keepAll(city: string, forecasts: readonly IssuedForecast[]): number {
    return this.transaction(() => forecasts.filter((f) => this.keep(city, f)).length);
  }

  /** When a city's forecasts kept from `from` (ms) on were issued, ascending. */
  issuedSince(city: string, from: number): number[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.issuedSince.all(id, from) as number[]);
  }

  /** Whether a forecast of the city issued at this instant is kept: `source`'s, or any provider's. */
  has(city: string, issuedAt: number, source?: string): boolean {
    const [id, provider] = [this.names.id('city', city), source === undefined ? null : this.names.id('source', source)];
    return id !== undefined && provider !== undefined && this.stmt.has.get({ city: id, at: issuedAt, source: provider }) !== undefined;
  }

  /** When the latest kept forecast of a city was issued (ms), or null: `source`'s, or any provider's. */
  latestIssued(city: string, source?: string): number | null {
    const [id, provider] = [this.names.id('city', city), source === undefined ? null : this.names.id('source', source)];
    return id === undefined || provider === undefined
      ? null
      : ((this.stmt.latest.get({ city: id, source: provider }) as number | null) ?? null);
  }

  private read(r: Row): IssuedForecast {
    const issuedAt = r.issued_at as number;
    return {
      issuedAt,
      source: this.names.source(r.source_id as number),
      origin: ORIGINS[r.origin as number]!,
      days: unpack(r.days as Uint8Array, issuedAt),
    };
  }

  /** A city's forecasts issued from `from` (ms) on, oldest first. */
  since(city: string, from: number): IssuedForecast[] {
    const id = this.names.id('city', city);
    return id === undefined ? [] : (this.stmt.since.all(id, from) as Row[]).map((r) => this.read(r));
  }

  /** Every kept forecast with its city, by city and issue time. */
  *all(): Generator<{ city: string; forecast: IssuedForecast }> {
    for (const r of this.stmt.all.iterate() as Iterable<Row>) yield { city: r.slug as string, forecast: this.read(r) };
  }

  /** Forgets the forecasts issued before `before` (ms): they leave with the store's served days. */
  dropBefore(before: number): number {
    return this.stmt.drop.run(before).changes;
  }

  /** How many of a city's forecasts issued from `from` (ms) on are kept, on how many UTC days, when, and how they came. */
  archive(
    city: string,
    from: number,
  ): { forecasts: number; issueDays: number; first: number | null; last: number | null; by: Record<KeptOrigin, number> } {
    const id = this.names.id('city', city);
    const r = (id === undefined ? undefined : this.stmt.archive.get(id, from)) as Row | undefined;
    const n = (x: unknown) => (typeof x === 'number' ? x : 0);
    return {
      forecasts: n(r?.n),
      issueDays: n(r?.days),
      first: (r?.first as number | null | undefined) ?? null,
      last: (r?.last as number | null | undefined) ?? null,
      by: { build: n(r?.build), function: n(r?.fn), 'made again': n(r?.again) },
    };
  }

  /** How many of a city's forecasts issued from `from` (ms) on each provider issued, the one of the earliest first. */
  bySource(city: string, from: number): Array<{ provider: string; forecasts: number }> {
    const id = this.names.id('city', city);
    if (id === undefined) return [];
    return (this.stmt.bySource.all(id, from) as Row[]).map((r) => ({
      provider: this.names.source(r.source_id as number),
      forecasts: r.n as number,
    }));
  }

  /**
   * Each provider whose forecasts are kept, with the leads they reach (the furthest plus one, at
   * most `cap`), the one first issued first: the pairs files' provider columns.
   */
  reach(cap: number): Array<{ provider: string; leads: number }> {
    const reach = new Map<number, number>();
    for (const r of this.stmt.bySourceAll.iterate() as Iterable<Row>) {
      const id = r.source_id as number;
      const furthest = unpack(r.days as Uint8Array, r.issued_at as number).reduce(
        (m, d) => (d.lead < cap ? Math.max(m, d.lead + 1) : m),
        0,
      );
      reach.set(id, Math.max(reach.get(id) ?? 0, furthest));
    }
    return [...reach].filter(([, leads]) => leads > 0).map(([id, leads]) => ({ provider: this.names.source(id), leads }));
  }

  /** How many forecasts are kept. */
  count(): number {
    return this.stmt.count.get() as number;
  }
}
