/**
 * The seasons of the sample provider's cities, as a store of two years (730 days, what `npm start`
 * ingests) shows them on days across the year: each category answers its own year under way, says
 * where its season stands, and has a complete earlier year to be compared with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { dailyRowOf } from '../../src/domain/day-values.js';
import type { CategorySeason } from '../../src/domain/schemas.js';
import { citySeasons } from '../../src/domain/seasons/city-seasons.js';
import { type DatedRow, seasonCategories, seasonYearOf } from '../../src/domain/seasons/year.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'minneapolis'];
const STORE_DAYS = 730;
/** Days across the year, in the sample's future too (the clock is moved to ingest them). */
const ENDS = ['2026-11-24', '2026-01-15', '2026-04-15', '2026-07-01', '2026-09-30', '2026-10-01', '2027-03-01', '2027-08-20'];

let store: Store;
beforeAll(async () => {
  store = openStore(`${tempDir()}/pollen.db`);
  const sample = new SampleProvider();
  const from = Math.min(...ENDS.map(dayNumber)) - STORE_DAYS;
  const to = Math.max(...ENDS.map(dayNumber));
  await ingest({
    store,
    pollen: sample,
    weather: sample,
    cities: CITIES.map((slug) => DEFAULT_CITIES.get(slug)!),
    span: { from, to },
    now: () => (to + 2) * 86_400_000, // a clock moved past the last day, so the sample serves it
  });
}, 120_000);
afterAll(() => store?.close());

/** The city's daily rows of the 730 days ending on `end`: what a store of those days holds. */
const rowsTo = (city: string, end: string): DatedRow[] =>
  [...store.values.span(city, 'UTC', dayNumber(end) - STORE_DAYS + 1, dayNumber(end)).values()].map((v) => ({
    day: v.day,
    row: dailyRowOf(v),
  }));

const MAIN = seasonCategories([]); // tree, grass, weed, ragweed
const byName = (seasons: readonly CategorySeason[]) => Object.fromEntries(seasons.map((c) => [c.category, c]));

describe('the sample seasons of a store of 730 days', () => {
  it('shows Austin in late November the tree year from 1 October, grass and ragweed ended, each against the previous complete year', () => {
    const { year, categories } = citySeasons(rowsTo('austin', '2026-11-24'), MAIN);
    expect(year).toBe(2026);
    const c = byName(categories);
    // Mountain cedar comes in December: the tree year under way began on 1 October and has not started.
    expect(c.tree).toMatchObject({ year: 2027, from: '2026-10-01', to: '2027-09-30', closed: false, complete: false });
    expect(c.tree!.status.state).toBe('not started');
    for (const name of ['grass', 'ragweed']) {
      const s = c[name]!;
      expect(s.year).toBe(2026);
      expect(s.status).toMatchObject({ state: 'ended', provisional: true });
      // Ended weeks ago: at least a window of 7 days before the latest day, and the season's end is that end.
      expect(dayNumber(s.status.end!)).toBeLessThanOrEqual(dayNumber('2026-11-24') - 7);
      expect(s.season!.end).toBe(s.status.end);
      expect(s.comparison.years.map((y) => y.year)).toEqual([2025]);
    }
    expect(c.tree!.comparison.years.map((y) => y.year)).toEqual([2026]);
    // The tree year is named as it runs, as the page's legend names it.
    expect(c.tree!.comparison.note).toBe('One earlier year (Oct 2025 to Sep 2026): a comparison with that year, not with a normal.');
  });

  it.each(CITIES.flatMap((city) => ENDS.map((end) => [city, end])))(
    '%s on %s: each category in its year under way, where it stands, and a complete earlier year to compare with',
    (city, end) => {
      const latest = dayNumber(end);
      const { categories } = citySeasons(rowsTo(city, end), MAIN);
      expect(categories.map((c) => c.category)).toEqual(MAIN.map((c) => c.name));
      for (const c of categories) {
        const what = `${city} ${c.category} ${end}`;
        expect(c.year, what).toBe(seasonYearOf(c.category, latest));
        expect(dayNumber(c.from) <= latest && latest <= dayNumber(c.to), what).toBe(true);
        // Over only on its last day (tree's 30 September); complete only when over.
        expect(c.closed, what).toBe(c.to === end);
        expect(c.complete, what).toBe(c.closed);
        expect(c.status.provisional, what).toBe(!c.complete);
        // The year before is complete (730 days hold it whole), so the comparison is worth reading.
        expect(c.comparison.years.at(-1)?.year, what).toBe(c.year - 1);
        const { state, start, end: ended } = c.status;
        if (state === 'not started') expect([start, ended], what).toEqual([null, null]);
        if (state === 'in season') expect([start !== null && start <= end, ended], what).toEqual([true, null]);
        if (state === 'ended' && !c.closed) expect(dayNumber(ended!) + 7 <= latest, what).toBe(true);
      }
    },
  );

  it('follows the sample model through the year in Austin: cedar in winter, grass from spring, ragweed from late summer, autumn elms', () => {
    const states = (end: string) =>
      Object.fromEntries(citySeasons(rowsTo('austin', end), MAIN).categories.map((c) => [c.category, c.status.state]));
    expect(states('2026-01-15')).toMatchObject({ tree: 'in season', grass: 'not started', ragweed: 'not started' });
    expect(states('2026-04-15')).toMatchObject({ tree: 'in season', grass: 'in season', ragweed: 'not started' });
    expect(states('2026-08-20')).toMatchObject({ tree: 'ended', ragweed: 'in season' });
    // The autumn elms of September (the sample's south calendar) are a tree season again.
    expect(states('2026-09-25')).toMatchObject({ tree: 'in season', ragweed: 'in season' });
    expect(states('2027-03-01')).toMatchObject({ tree: 'in season', grass: 'not started' });
  });
});
