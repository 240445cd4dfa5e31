/**
 * /api/season on the sample provider's years, read back with a computation of its own: plain
 * arithmetic on the daily rows of /api/pollen?city= (UTC and local days), not the module under
 * test. The definitions restated here are the data docs' ("Seasons").
 */
import { describe, expect, it } from 'vitest';
import { DATA_CACHE, ERROR_CACHE } from '../../src/api/http/respond.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { type Graded, grade } from '../../src/domain/species/risk.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const CITIES = ['austin', 'boise', 'honolulu'];
// 711 days, within the 720 daily rows /api/pollen?city= gives: 2023 (from May) and 2025 (to
// 10 April) incomplete, 2024 complete; tree's 2024 (October 2023 to September 2024) complete.
const SPAN = { from: dayNumber('2023-05-01'), to: dayNumber('2025-04-10') };
const site = useSite({ cities: CITIES, span: SPAN });

async function getJson(pathAndQuery: string): Promise<{ status: number; body: Json }> {
  const res = await site.get(pathAndQuery);
  const body = (await res.json()) as Json;
  expect(res.headers.get('cache-control')).toBe(res.status === 200 ? DATA_CACHE : ERROR_CACHE);
  expectMatchesOpenApi('/api/season', res.status, body);
  return { status: res.status, body };
}

/** A category's daily mean in a daily row, and the NAB level the day counts as. */
function dayOf(row: Json, category: string): { value: number; risk: string | null } | undefined {
  const species = (group: string, name: string, scale: Graded) => {
    const v = row.species?.[group]?.[name];
    return typeof v === 'number' ? { value: v, risk: grade(scale, v) } : undefined;
  };
  if (category === 'ragweed') return species('Weed', 'Ragweed', 'ragweed');
  if (category === 'tree_oak') return species('Tree', 'Oak', 'tree');
  const v = row[category];
  return typeof v === 'number' ? { value: v, risk: row[`risk_${category}`] } : undefined;
}

/** The days of a category's year: tree's from 1 October of the year before. */
const yearDays = (category: string, year: number) =>
  category.startsWith('tree')
    ? { from: dayNumber(`${year - 1}-10-01`), to: dayNumber(`${year}-09-30`) }
    : { from: dayNumber(`${year}-01-01`), to: dayNumber(`${year}-12-31`) };
/** The category's year of a date: tree's next one from October. */
const yearOf = (category: string, date: string) =>
  Number(date.slice(0, 4)) + (category.startsWith('tree') && date.slice(5, 7) >= '10' ? 1 : 0);

/** The EAACI criterion of a category (Pfaar et al. 2017): birch's for tree, grass's, ragweed's for weed and ragweed. */
const criterion = (category: string) =>
  category.startsWith('tree')
    ? { taxon: 'birch', daily: 10, sum: 100 }
    : category === 'grass'
      ? { taxon: 'grass', daily: 3, sum: 30 }
      : { taxon: 'ragweed', daily: 3, sum: 30 };

/**
 * Whether the days `a`..`b` (indexes of `days`, clipped to `last`) hold 5 at or above the daily
 * threshold whose 5 highest sum to the criterion.
 */
function period(days: Array<number | null>, a: number, b: number, rule: { daily: number; sum: number }): boolean {
  const high = days.slice(Math.max(0, a), b + 1).filter((v): v is number => v !== null && v >= rule.daily);
  return (
    high.length >= 5 &&
    high
      .sort((x, y) => y - x)
      .slice(0, 5)
      .reduce((x, y) => x + y, 0) >= rule.sum
  );
}

/** Where the season stands by the EAACI definition on day index `last` of the year. */
function expectedStatus(days: Array<number | null>, last: number, closed: boolean, complete: boolean, from: number, category: string) {
  const rule = criterion(category);
  const at = (i: number) => (days[i] ?? -1) >= rule.daily;
  let start = -1;
  for (let i = 0; i <= last && start < 0; i++) if (at(i) && period(days, i, Math.min(i + 6, last), rule)) start = i;
  let end = -1;
  for (let i = last; i >= 0 && start >= 0 && end < 0; i--) if (at(i) && period(days, i - 6, i, rule)) end = i;
  const ended = start >= 0 && (closed || last - end >= 7);
  return {
    state: start < 0 ? (closed ? 'no season' : 'not started') : ended ? 'ended' : 'in season',
    start: start < 0 ? null : dayString(from + start),
    end: ended ? dayString(from + end) : null,
    provisional: !complete,
    criterion: rule,
  };
}

interface Expected {
  year: number;
  from: number;
  days: Array<number | null>; // the year's daily means by day of the year, null without a value
  complete: boolean;
  apin: number;
  start: number | null; // day of the year
  end: number | null;
  cumulative: number[];
  json: Json;
}

/** The season of a category in each year it holds, as the data docs define it; `latest` is the last daily row's date. */
function expectedYears(rows: Json[], category: string): Expected[] {
  const byDate = new Map(rows.map((r) => [r.date as string, r]));
  const latest = dayNumber(
    rows
      .map((r) => r.date as string)
      .sort()
      .at(-1)!,
  );
  const held = rows.filter((r) => dayOf(r, category) !== undefined).map((r) => yearOf(category, r.date));
  const years = [...new Set(held)].sort();
  const out: Expected[] = [];
  for (const year of years) {
    const { from, to } = yearDays(category, year);
    const days: Array<number | null> = [];
    const risks: Array<string | null> = [];
    for (let day = from; day <= to; day++) {
      const d = byDate.has(dayString(day)) ? dayOf(byDate.get(dayString(day))!, category) : undefined;
      days.push(d ? d.value : null);
      risks.push(d ? d.risk : null);
    }
    const count = days.filter((v) => v !== null).length;
    const closed = to <= latest;
    const complete = closed && count >= 0.9 * days.length;
    const apin = days.reduce<number>((a, v) => a + (v ?? 0), 0);
    const earlier = out.filter((e) => e.complete).map((e) => e.apin);
    const basis = closed ? (complete ? 'year' : 'days held') : earlier.length > 0 ? 'earlier years' : 'so far';
    const total = basis === 'earlier years' ? earlier.reduce((a, b) => a + b, 0) / earlier.length : apin;
    const cumulative: number[] = [];
    let sum = 0;
    for (const v of days) cumulative.push((sum += v ?? 0));
    const first = (share: number) => (apin === 0 ? -1 : cumulative.findIndex((c) => c >= share * total));
    const last = days.map((v, i) => (v === null ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
    const status = expectedStatus(days, Math.min(to, latest) - from, closed, complete, from, category);
    // A year over, with gaps, in which the exposure season never began has no season: the
    // percentage method alone would make one of any trace of pollen.
    const start = closed && !complete && status.state === 'no season' ? -1 : first(0.025);
    // A year over ends by the percentage method; a year under way where its status says it ended.
    const statusEnd = status.end === null ? -1 : dayNumber(status.end) - from;
    const end = start < 0 ? -1 : closed ? first(0.975) : statusEnd >= start ? statusEnd : -1;
    const peakValue = Math.max(...days.map((v) => v ?? -1));
    const upTo = end >= 0 ? end : last;
    const json: Json = { year, closed, days_with_data: count, complete, apin, basis, season: null, status };
    if (start >= 0) {
      const riskDays: Json = { None: 0, Low: 0, Moderate: 0, High: 0, 'Very High': 0 };
      let spin = 0;
      for (let i = start; i <= upTo; i++) {
        if (days[i] === null) continue;
        spin += days[i]!;
        if (risks[i] !== null) riskDays[risks[i]!]++;
      }
      json.season = {
        start: dayString(from + start),
        end: end >= 0 ? dayString(from + end) : null,
        days: upTo - start + 1,
        peak_date: dayString(from + days.indexOf(peakValue)),
        peak_value: peakValue,
        spin,
        risk_days: riskDays,
      };
    }
    out.push({ year, from, days, complete, apin, start: start >= 0 ? start : null, end: end >= 0 ? end : null, cumulative, json });
  }
  return out;
}

/** This year against each complete earlier year at the same day of the year. */
function expectedComparison(mine: Expected, earlier: Expected[]): Json[] {
  const at = mine.days.map((v, i) => (v === null ? -1 : i)).reduce((a, b) => Math.max(a, b), -1);
  return earlier
    .filter((e) => e.complete)
    .map((e) => {
      const theirs = e.cumulative[Math.min(at, e.cumulative.length - 1)]!;
      return {
        year: e.year,
        cumulative: theirs,
        ahead_pct: theirs === 0 ? null : Math.round((mine.cumulative[at]! / theirs - 1) * 100) || 0, // JSON has no -0
        start_difference_days: mine.start === null || e.start === null ? null : mine.start - e.start,
      };
    });
}

describe('GET /api/season', () => {
  it.each(CITIES.flatMap((city) => ['UTC', 'local'].map((cut) => [city, cut])))(
    "agrees for %s (%s days) with the percentage method computed from the city's daily rows",
    async (city, cut) => {
      const local = cut === 'local' ? '&timezone=local' : '';
      const daily = ((await (await site.get(`/api/pollen?city=${city}${local}`)).json()) as Json).rows as Json[];
      expect(daily.length).toBeLessThan(720); // every day the store holds
      let checked = 0;
      for (const category of ['tree', 'grass', 'weed', 'ragweed', 'tree_oak']) {
        const years = expectedYears(daily, category);
        for (const e of years) {
          const { status, body } = await getJson(`/api/season?city=${city}&year=${e.year}&category=${category}${local}`);
          expect(status).toBe(200);
          expect(body.timezone).toBe(cut === 'local' ? 'local' : undefined);
          const got = body.categories[0];
          expect(got.category).toBe(category);
          expect(got, `${city} ${category} ${e.year}`).toMatchObject(e.json);
          expect(
            got.comparison.years.map(({ as_of: _a, ...r }: Json) => r),
            `${city} ${category} ${e.year}`,
          ).toEqual(
            expectedComparison(
              e,
              years.filter((x) => x.year < e.year),
            ),
          );
          checked++;
        }
      }
      expect(checked).toBe(5 * 3);
    },
    120_000,
  );

  it("finds the seasons the sample models: Austin's winter cedar starting in December, grass in spring, weed in late summer", async () => {
    const { body } = await getJson('/api/season?city=austin&year=2024');
    const by = Object.fromEntries((body.categories as Json[]).map((c) => [c.category, c]));
    expect(by.tree.complete).toBe(true);
    expect(by.tree.season.start < '2024-01-01').toBe(true); // a season that spans New Year, whole
    expect(by.grass.season.start.slice(5, 7) >= '02' && by.grass.season.start.slice(5, 7) <= '05').toBe(true);
    expect(by.weed.season.peak_date.slice(5, 7) >= '08' && by.weed.season.peak_date.slice(5, 7) <= '10').toBe(true);
    expect(Object.keys(by)).toEqual(expect.arrayContaining(['tree', 'grass', 'weed', 'ragweed', 'tree_oak', 'grass_grass_poaceae']));
    expect(Object.keys(by)).not.toContain('weed_ragweed');
  });

  it('defaults to the latest year, incomplete, measured against the complete earlier year, with a line per year held', async () => {
    const { body } = await getJson('/api/season?city=boise');
    expect(body.year).toBe(2025);
    const grass = (body.categories as Json[]).find((c) => c.category === 'grass')!;
    expect([grass.complete, grass.basis, grass.through]).toEqual([false, 'earlier years', '2025-04-10']);
    expect(grass.comparison).toMatchObject({ as_of: '2025-04-10', earlier_years: 1 });
    expect(grass.comparison.note).toBe('One earlier year (2024): a comparison with that year, not with a normal.');
    expect(new Set((body.years as Json[]).map((y) => y.year))).toEqual(new Set([2023, 2024, 2025]));
    expect((body.years as Json[]).filter((y) => y.category === 'grass').map((y) => y.complete)).toEqual([false, true, false]);
  });

  it.each([
    ['year=20x5', 'year', 'a year (YYYY) from 1970 to 9999'],
    ['year=1969', 'year', 'a year (YYYY) from 1970 to 9999'],
    [
      'category=tree_baobab',
      'category',
      'all, tree, grass, weed, ragweed, or an allergen species as the bulk files name it (tree_oak), in any case',
    ],
    [
      'category=tree-oak',
      'category',
      'all, tree, grass, weed, ragweed, or an allergen species as the bulk files name it (tree_oak), in any case',
    ],
    ['timezone=Mars', 'timezone', "'UTC' or 'local'"],
  ])('answers 400 naming the parameter for %s', async (query, param, expected) => {
    const res = await site.get(`/api/season?city=austin&${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: `Invalid parameter '${param}': expected ${expected}`,
      code: 'INVALID_PARAMETER',
      parameter: param,
    });
  });

  it('reads a category in any case', async () => {
    const asked = await getJson('/api/season?city=austin&category=Tree_Oak');
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual((await getJson('/api/season?city=austin&category=tree_oak')).body);
  });

  it('answers 400 without a city, 404 UNSUPPORTED_CITY for an unknown one, and 404 YEAR_NOT_HELD with the years held', async () => {
    expect((await site.get('/api/season')).status).toBe(400);
    const unknown = await getJson('/api/season?city=atlantis');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'UNSUPPORTED_CITY']);
    const outside = await getJson('/api/season?city=austin&year=2019');
    expect(outside).toEqual({
      status: 404,
      body: {
        error: 'No daily values for austin in 2019; the years held are 2023, 2024, 2025 (listed in years).',
        code: 'YEAR_NOT_HELD',
        city: 'austin',
        years: [2023, 2024, 2025],
      },
    });
    // A served city the store has no days of.
    const empty = await getJson('/api/season?city=tulsa');
    expect(empty).toEqual({
      status: 404,
      body: { error: 'No daily values for tulsa yet.', code: 'YEAR_NOT_HELD', city: 'tulsa', years: [] },
    });
  });
});
