/**
 * The served store read from shards (shard-format.ts) instead of SQLite: the same `StoreReader`,
 * whose answers are the store's. A city's own answers read its quarters, a date's answers across
 * cities read that date's day shards, and everything about the whole store comes from the index,
 * as the store computed it. Rows are decoded by the store's own code (codec.ts,
 * day-values-packing.ts, weather-days.ts), and the index's runs of days stand for the SQL that
 * picks a city's days.
 */
import type { DayCut } from '../../domain/day-cuts.js';
import type { DayValues } from '../../domain/day-values.js';
import type { StoredHour } from '../../domain/hours.js';
import type { ForecastSkill } from '../../domain/verification/skill-schemas.js';
import type { StoredWeather } from '../../domain/weather.js';
import { DayCache, RecentlyUsed } from '../day-cache.js';
import { unpackDayValues } from '../day-values-packing.js';
import { countUpTo, type DayMask } from '../hour-counts.js';
import type { IngestRun } from '../ingest-runs.js';
import type { CountWindow, StoreReader } from '../reader.js';
import { decodeSkill } from '../skills-table.js';
import { storedHoursOf } from '../stored-hours.js';
import { weatherOf } from '../weather-days.js';
import {
  cityShard,
  type DayRun,
  dayShard,
  decodeShard,
  kindOf,
  type PollenRow,
  type RowsShard,
  type Shard,
  ShardUnavailable,
  skillShard,
  type ValueRow,
  type WeatherRow,
} from './shard-format.js';
import { daysIn, newestDays, runOf, type ShardIndex, type ShardSource } from './shard-index.js';

/** Shards decoded and kept: a city's answers read a few quarters, a date's a few days. */
const SHARDS_KEPT = 64;

const CUT_CODE: Record<DayCut, 0 | 1> = { UTC: 0, local: 1 };

/** A rows shard's rows by city and day. */
interface RowsView {
  pollen: Map<string, PollenRow>;
  weather: Map<string, WeatherRow>;
  values: Map<string, ValueRow>;
}

const viewOf = (shard: RowsShard): RowsView => ({
  pollen: new Map(shard.pollen.map((r) => [`${r[0]}|${r[1]}`, r])),
  weather: new Map(shard.weather.map((r) => [`${r[0]}|${r[1]}`, r])),
  values: new Map(shard.values.map((r) => [`${r[0]}|${r[1]}|${r[2]}`, r])),
});

/**
 * A store read from shards. A shard not here yet reads as holding nothing (the source keeps its
 * name, and the answer made meanwhile is thrown away: api/http/fetch-rounds.ts); a shard that is
 * here but lacks a row the index says it holds is an error.
 */
export class ShardStore implements StoreReader {
  private readonly shards = new RecentlyUsed<RowsView>(SHARDS_KEPT);
  private readonly days = new DayCache();
  private readonly ids: Map<string, number>;
  private readonly pollenRuns: Map<number, DayRun[]>;
  private readonly weatherRuns: Map<number, DayRun[]>;
  private readonly valueRuns: Map<string, DayRun[]>;
  /**
   * Where a range's rows are read: a city's quarters, or days of every city, whichever its count
   * found fewer of (countUpTo decides, before the rows stream).
   */
  private rangeBy: 'city' | 'day' = 'city';

  constructor(
    readonly index: ShardIndex,
    private readonly source: ShardSource,
  ) {
    ({ ids: this.ids, pollenRuns: this.pollenRuns, weatherRuns: this.weatherRuns, valueRuns: this.valueRuns } = index);
  }

  readonly pollen: StoreReader['pollen'] = {
    hours: (city, fromHour, toHour) => {
      const out: StoredHour[] = [];
      const id = this.ids.get(city);
      if (id === undefined || toHour <= fromHour) return out;
      for (const day of daysIn(this.pollenRuns.get(id), Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24))) {
        let hours = this.days.get(id, day);
        if (hours === undefined) {
          const row = this.pollenRow(id, city, day);
          if (!row) continue;
          this.days.set(id, day, (hours = this.decodeHours(row)));
        }
        for (const h of hours) if (h.hour >= fromHour && h.hour < toHour) out.push(h);
      }
      return out;
    },
    iterateHours: (city, fromHour, toHour) => this.iterateHours(city, fromHour, toHour),
    countUpTo: (windows: readonly CountWindow[], limit: number) => {
      const counted: Array<[id: number, city: string, day: number]> = [];
      const result = countUpTo(
        windows,
        limit,
        (city, first, last) => {
          const id = this.ids.get(city);
          return id === undefined ? undefined : this.masksIn(id, first, last);
        },
        (city, day) => counted.push([this.ids.get(city)!, city, day]),
      );
      // The rows the answer streams are those counted: their shards are read now, before its status.
      const days = new Set(counted.map(([, , day]) => day)).size;
      const quarters = new Set(counted.map(([, city, day]) => cityShard(city, day))).size;
      this.rangeBy = days < quarters ? 'day' : 'city';
      for (const [id, city, day] of counted) this.pollenRow(id, city, day, this.rangeBy);
      return result;
    },
    daysWithData: () => [...this.index.shard.pollen.days],
    latestDay: () => this.index.shard.pollen.latestDay,
    latestHour: () => this.index.shard.pollen.latestHour,
    latestSource: () => this.index.shard.pollen.latestSource,
    sourcesIn: (city, from, to) => {
      const id = this.ids.get(city);
      if (id === undefined || to <= from) return [];
      const [first, last] = [Math.floor(from / 24), Math.floor((to - 1) / 24)];
      const sources = new Set<string>();
      for (const [start, count, source] of this.index.pollenSources.get(id) ?? [])
        if (start <= last && start + count - 1 >= first) sources.add(this.index.packed.source(source));
      return [...sources];
    },
    cityDaysWithData: (city, limit) => {
      const id = this.ids.get(city);
      return id === undefined ? [] : newestDays(this.pollenRuns.get(id), limit);
    },
    citiesWithDataOn: (day) => this.index.served.filter((c) => runOf(this.pollenRuns.get(c.id), day) !== undefined).map((c) => c.slug),
  };

  readonly weather: StoreReader['weather'] = {
    cityDay: (city, day) => {
      const id = this.ids.get(city);
      if (id === undefined || runOf(this.weatherRuns.get(id), day) === undefined) return undefined;
      return this.cityWeather(id, city, day);
    },
    forCity: (city, limit) => {
      const id = this.ids.get(city);
      if (id === undefined) return [];
      return newestDays(this.weatherRuns.get(id), limit).flatMap((day) => this.cityWeather(id, city, day) ?? []);
    },
    forDay: (day) => {
      const out: StoredWeather[] = [];
      for (const [id, slug] of this.index.shard.cities) {
        if (runOf(this.weatherRuns.get(id), day) === undefined) continue;
        const weather = this.toWeather(
          slug,
          this.row(dayShard(day), (v) => v.weather.get(`${id}|${day}`)),
        );
        if (weather) out.push(weather);
      }
      return out;
    },
    days: () => [...this.index.shard.weather.days],
    latestDay: () => this.index.shard.weather.latestDay,
    latestSource: () => this.index.shard.weather.latestSource,
    citiesOn: (day) => this.index.served.filter((c) => runOf(this.weatherRuns.get(c.id), day) !== undefined).map((c) => c.slug),
  };

  readonly values: StoreReader['values'] = {
    on: (city, cut, day) => {
      const id = this.ids.get(city);
      if (id === undefined || runOf(this.valueRuns.get(`${id}|${CUT_CODE[cut]}`), day) === undefined) return undefined;
      return this.cityValues(id, city, cut, day);
    },
    has: (city, cut) => {
      const id = this.ids.get(city);
      return id !== undefined && (this.valueRuns.get(`${id}|${CUT_CODE[cut]}`)?.length ?? 0) > 0;
    },
    newest: (city, cut, limit) => {
      const id = this.ids.get(city);
      if (id === undefined) return [];
      return newestDays(this.valueRuns.get(`${id}|${CUT_CODE[cut]}`), limit).flatMap((day) => this.cityValues(id, city, cut, day) ?? []);
    },
    span: (city, cut, from, to) => {
      const days = new Map<number, DayValues>();
      const id = this.ids.get(city);
      if (id === undefined) return days;
      for (const day of daysIn(this.valueRuns.get(`${id}|${CUT_CODE[cut]}`), from, to)) {
        const values = this.cityValues(id, city, cut, day);
        if (values) days.set(day, values);
      }
      return days;
    },
    across: (cut, from, to) => {
      const out = new Map<string, Map<number, DayValues>>();
      const code = CUT_CODE[cut];
      for (const [id, slug] of this.index.shard.cities) {
        for (const day of daysIn(this.valueRuns.get(`${id}|${code}`), from, to)) {
          const row = this.row(dayShard(day), (v) => v.values.get(`${id}|${code}|${day}`));
          if (!row) continue;
          let days = out.get(slug);
          if (!days) out.set(slug, (days = new Map()));
          days.set(day, unpackDayValues(day, row[3], this.index.packed));
        }
      }
      return out;
    },
  };

  readonly runs: StoreReader['runs'] = { last: (): IngestRun | undefined => this.index.shard.lastRun ?? undefined };

  readonly shapes: StoreReader['shapes'] = { all: () => this.index.shard.shapeOrder.map((id) => structuredClone(this.index.shape(id))) };

  readonly skills: StoreReader['skills'] = {
    get: (city): ForecastSkill | undefined => {
      if (!this.index.skillCities.has(city)) return undefined;
      const shard = this.shard(skillShard(city), 'skill');
      return shard && decodeSkill(shard.skill);
    },
    has: (city) => this.index.skillCities.has(city),
    written: () => this.index.skillCities.size > 0,
  };

  longestLabelBytes(): number {
    return this.index.shard.longestLabelBytes;
  }

  /** A shard by name, decoded and checked; undefined when not here yet. */
  private shard<K extends Shard['kind']>(name: string, kind: K): Extract<Shard, { kind: K }> | undefined {
    if (kindOf(name) !== kind) throw new ShardUnavailable(name, `not a ${kind} shard`);
    const bytes = this.source.get(name);
    return bytes && decodeShard(name, bytes, kind);
  }

  /** A rows shard's row, or undefined when the shard is not here yet; a shard here without it is an error (the index says it holds it). */
  private row<R>(name: string, pick: (view: RowsView) => R | undefined): R | undefined {
    let view = this.shards.get(name);
    if (!view) {
      const shard = this.shard(name, 'rows');
      if (!shard) return undefined;
      this.shards.set(name, (view = viewOf(shard)));
    }
    const row = pick(view);
    if (row === undefined) throw new ShardUnavailable(name, 'lacks a row the index says it holds');
    return row;
  }

  private pollenRow(id: number, city: string, day: number, by: 'city' | 'day' = 'city'): PollenRow | undefined {
    return this.row(by === 'city' ? cityShard(city, day) : dayShard(day), (v) => v.pollen.get(`${id}|${day}`));
  }

  private cityWeather(id: number, city: string, day: number): StoredWeather | undefined {
    return this.toWeather(
      city,
      this.row(cityShard(city, day), (v) => v.weather.get(`${id}|${day}`)),
    );
  }

  private cityValues(id: number, city: string, cut: DayCut, day: number): DayValues | undefined {
    const row = this.row(cityShard(city, day), (v) => v.values.get(`${id}|${CUT_CODE[cut]}|${day}`));
    return row && unpackDayValues(day, row[3], this.index.packed);
  }

  /**
   * PollenDays.iterateHours, a day at a time past the cache: an answer stops reading where its
   * rows stop, so it reads the shards of the rows it counted (countUpTo), and no more.
   */
  private *iterateHours(city: string, fromHour: number, toHour: number): Generator<StoredHour> {
    const id = this.ids.get(city);
    if (id === undefined || toHour <= fromHour) return;
    for (const day of daysIn(this.pollenRuns.get(id), Math.floor(fromHour / 24), Math.floor((toHour - 1) / 24))) {
      const row = this.pollenRow(id, city, day, this.rangeBy);
      if (row) for (const h of this.decodeHours(row)) if (h.hour >= fromHour && h.hour < toHour) yield h;
    }
  }

  /** A city's days with an hour in [first, last] and their masks, from the index. */
  private *masksIn(id: number, first: number, last: number): Generator<DayMask> {
    for (const day of daysIn(this.pollenRuns.get(id), first, last)) yield { day, mask: this.index.mask(id, day) };
  }

  /** A row's hours as PollenDays decodes them. */
  private decodeHours([, day, source, zone, mask, data]: PollenRow): StoredHour[] {
    return storedHoursOf(day, { mask, data }, zone, source, this.index.packed);
  }

  private toWeather(city: string, row: WeatherRow | undefined): StoredWeather | undefined {
    if (!row) return undefined;
    const [, day, source, fetchedAt, data] = row;
    return weatherOf(city, day, this.index.packed.source(source), fetchedAt, data, this.index.packed.label);
  }
}
