/**
 * The day tables have no index by day: a day's rows across cities are read city by city through
 * the primary key (src/store/days-with-data.ts). Whatever was written, each reader of days must answer
 * what plain SQL over every row answers.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import type { PollenHour } from '../../src/domain/hours.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const D = dayNumber('2025-05-01');
const SLUGS = ['austin', 'tulsa', 'denver', 'boston'];
const SOURCES = ['sample', 'ambee'];

const write = fc.record({
  city: fc.constantFrom(...SLUGS),
  day: fc.integer({ min: D, max: D + 12 }),
  source: fc.constantFrom(...SOURCES),
  // The hours of the day given (none: asked, and the provider had nothing), or no pollen written.
  hours: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { maxLength: 4 }), { nil: undefined }),
  // Weather with a value, without one, or none written.
  weather: fc.constantFrom('complete', 'empty', undefined),
});

const hourOf = (day: number, h: number): PollenHour => ({ hour: day * 24 + h, tree: h, grass: null, weed: 1, total: h + 1, species: null });

describe('the day tables read by day', () => {
  it('answer every reader of days as plain SQL over every row does (property)', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), fc.subarray(SLUGS), (writes, served) => {
        const path = join(tempDir(), `by-day-${run++}.db`);
        const store = openStore(path);
        store.cities.replace(served.map((slug) => DEFAULT_CITIES.get(slug)!));
        // Every write fetched at its own time, so that the newest day's newest row is one row.
        for (const [i, w] of writes.entries())
          store.writeCityDay({
            city: w.city,
            day: w.day,
            pollen:
              w.hours === undefined
                ? undefined
                : {
                    source: w.source,
                    timezone: 'America/Chicago',
                    fetchedAt: 1000 + i,
                    hours: w.hours.sort((a, b) => a - b).map((h) => hourOf(w.day, h)),
                  },
            weather:
              w.weather === undefined
                ? undefined
                : { source: w.source, fetchedAt: 1000 + i, values: w.weather === 'complete' ? { temp_max_c: 20 } : {} },
          });
        const sql = new Database(path, { readonly: true });
        const column = (query: string, ...args: unknown[]) =>
          sql
            .prepare(query)
            .pluck()
            .all(...args);
        const one = (query: string) => sql.prepare(query).pluck().get() ?? null;
        // The store's provider: the one of most of the newest day's rows with data, the latest fetched in a tie.
        const sourceOf = (table: string, has: string) =>
          one(
            `SELECT s.name FROM ${table} t JOIN source s ON s.id = t.source_id WHERE ${has} AND t.day = (SELECT max(day) FROM ${table} t WHERE ${has}) GROUP BY s.name ORDER BY count(*) DESC, max(t.fetched_at) DESC LIMIT 1`,
          );
        const served_ = (table: string, has: string, day: number) =>
          column(
            `SELECT c.slug FROM ${table} t JOIN city c ON c.id = t.city_id WHERE t.day = ? AND ${has} AND c.active = 1 AND c.name IS NOT NULL ORDER BY c.slug`,
            day,
          );
        const [pollen, weather] = ['t.mask <> 0', 't.status = 1'];

        expect(store.pollen.daysWithData()).toEqual(column(`SELECT DISTINCT day FROM pollen_day t WHERE ${pollen} ORDER BY day DESC`));
        expect(store.pollen.latestDay()).toBe(one(`SELECT max(day) FROM pollen_day t WHERE ${pollen}`));
        const latestHour = one(
          `SELECT max(day * 24 + 31 - ${clz('mask')}) FROM pollen_day t WHERE ${pollen} AND day = (SELECT max(day) FROM pollen_day WHERE mask <> 0)`,
        );
        expect(store.pollen.latestHour()).toBe(latestHour);
        expect(store.pollen.latestSource()).toBe(sourceOf('pollen_day', pollen));
        expect(store.weather.days()).toEqual(column(`SELECT DISTINCT day FROM weather_day t WHERE ${weather} ORDER BY day DESC`));
        expect(store.weather.latestDay()).toBe(one(`SELECT max(day) FROM weather_day t WHERE ${weather}`));
        expect(store.weather.latestSource()).toBe(sourceOf('weather_day', weather));
        for (let day = D - 1; day <= D + 13; day++) {
          expect(store.pollen.citiesWithDataOn(day)).toEqual(served_('pollen_day', pollen, day));
          expect(store.weather.citiesOn(day)).toEqual(served_('weather_day', weather, day));
          const forDay = store.weather.forDay(day).map((w) => `${w.city} ${w.source} ${w.fetchedAt}`);
          const rows = column(
            `SELECT c.slug || ' ' || s.name || ' ' || t.fetched_at FROM weather_day t JOIN city c ON c.id = t.city_id JOIN source s ON s.id = t.source_id WHERE t.day = ? AND ${weather}`,
            day,
          );
          expect(forDay.sort()).toEqual(rows.sort());
        }
        sql.close();
        store.close();
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

/** SQL for the count of leading zero bits of a 24-bit mask in 32 bits (the highest hour: 31 minus it). */
function clz(mask: string): string {
  const bits = Array.from({ length: 24 }, (_, b) => `WHEN ${mask} >= ${2 ** (23 - b)} THEN ${8 + b}`);
  return `(CASE ${bits.join(' ')} ELSE 32 END)`;
}
