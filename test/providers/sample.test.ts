import { describe, expect, it } from 'vitest';
import { aqiFromConcentrations } from '../../src/domain/aqi.js';
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayOfYear, utcOffset } from '../../src/domain/dates.js';
import { normalizeHour } from '../../src/domain/hours.js';
import { CATEGORIES, categoryRisk, RISK_LABELS } from '../../src/domain/species/risk.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { TREE_CALENDAR } from '../../src/providers/sample/tree-calendar.js';
import { fixture } from '../helpers/fixtures.js';

const sample = new SampleProvider();
const city = (slug: string): City => DEFAULT_CITIES.get(slug)!;
const YEAR = { from: dayNumber('2025-01-01') * 24, to: (dayNumber('2025-12-31') + 1) * 24 };
const YEAR_DAYS = { from: dayNumber('2025-01-01'), to: dayNumber('2025-12-31') };
const hoursOf = (from: string, to: string) => ({ from: dayNumber(from) * 24, to: (dayNumber(to) + 1) * 24 });

/** Daily means of a category (or of one allergen) over a year. */
async function dailySeries(slug: string, pick: (h: ReturnType<typeof normalizeHour>) => number | null) {
  const batch = await sample.pollenHistory(city(slug), YEAR);
  const sums = new Map<number, { s: number; n: number }>();
  for (const raw of batch.hours) {
    const h = normalizeHour(raw);
    const v = pick(h);
    if (v === null) continue;
    const day = Math.floor(h.hour / 24);
    const acc = sums.get(day) ?? { s: 0, n: 0 };
    acc.s += v;
    acc.n++;
    sums.set(day, acc);
  }
  return new Map([...sums].map(([d, a]) => [d, a.s / a.n]));
}
const peakDayOfYear = (series: Map<number, number>) => dayOfYear([...series].reduce((a, b) => (b[1] > a[1] ? b : a))[0]);
const monthMean = (series: Map<number, number>, month: number) => {
  const vals = [...series].filter(([d]) => new Date(d * DAY_MS).getUTCMonth() + 1 === month).map(([, v]) => v);
  return vals.reduce((a, b) => a + b, 0) / vals.length;
};
const allergen = (category: string, name: string) => (h: ReturnType<typeof normalizeHour>) => {
  const g = h.species?.[category];
  const v = g !== null && typeof g === 'object' ? g[name] : undefined;
  return typeof v === 'number' ? v : null;
};

describe('sample provider', () => {
  it('is deterministic: the same city and hours give the same values', async () => {
    const span = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-03') };
    const a = await new SampleProvider().pollenHistory(city('tulsa'), hoursOf('2025-04-01', '2025-04-03'));
    const b = await new SampleProvider().pollenHistory(city('tulsa'), hoursOf('2025-04-01', '2025-04-03'));
    expect(a).toEqual(b);
    expect(await sample.weatherHistory(city('tulsa'), span)).toEqual(await new SampleProvider().weatherHistory(city('tulsa'), span));
  });

  it("sends Ambee's US payload: its allergens in its order, and Others as a plain number", async () => {
    const { hours, timezone } = await sample.pollenHistory(city('richmond'), hoursOf('2025-04-15', '2025-04-15'));
    expect(timezone).toBe('America/New_York');
    const species = hours.find((h) => h.species !== null)!.species as Record<string, unknown>;
    const recorded = fixture('ambee-v2-forecast.json').data[0].Species as Record<string, object>;
    expect(Object.keys(species)).toEqual(Object.keys(recorded));
    expect(typeof species.Others).toBe('number');
    for (const category of ['Grass', 'Tree', 'Weed'])
      expect(Object.keys(species[category] as object), category).toEqual(Object.keys(recorded[category]!));
  });

  it('starts the tree season earlier in the south than in the north', async () => {
    const losAngeles = peakDayOfYear(await dailySeries('los-angeles', (h) => h.tree));
    const atlanta = peakDayOfYear(await dailySeries('atlanta', (h) => h.tree));
    const minneapolis = peakDayOfYear(await dailySeries('minneapolis', (h) => h.tree));
    expect(losAngeles).toBeLessThan(atlanta);
    expect(atlanta).toBeLessThan(minneapolis);
    expect(atlanta).toBeGreaterThan(59); // spring: March ...
    expect(atlanta).toBeLessThan(121); // ... or April
  });

  it("puts each tree allergen only in the months its region's pollen calendar gives it, cedar in Texas and Oklahoma winters", async () => {
    const seen = new Map<string, Set<number>>();
    for (const c of DEFAULT_CITIES.list) {
      const { hours } = await sample.pollenHistory(c, YEAR);
      for (const h of hours) {
        const trees = (h.species as { Tree?: Record<string, number> } | null)?.Tree ?? {};
        const month = new Date(h.time).getUTCMonth() + 1;
        for (const [name, v] of Object.entries(trees)) {
          if (v <= 0) continue;
          const key = `${c.region} ${name}`;
          if (name === 'Cypress / Juniper / Cedar' && [12, 1, 2].includes(month) && ['TX', 'OK'].includes(c.state)) continue;
          const months = TREE_CALENDAR[c.region][name] ?? [];
          const inside = months.some(([from, to]) => (from <= to ? month >= from && month <= to : month >= from || month <= to));
          expect(inside, `${c.slug} ${name} in month ${month}`).toBe(true);
          if (!seen.has(key)) seen.set(key, new Set());
          seen.get(key)!.add(month);
        }
      }
    }
    // Each region's calendar is used, not only kept: oak in Tulsa's March and April, no birch in Tucson, none in Honolulu.
    expect([...(seen.get('south Oak') ?? [])].sort()).toEqual([3, 4]);
    expect(seen.has('southwest Birch')).toBe(false);
    expect([...seen.keys()].filter((k) => k.startsWith('hawaii'))).toEqual([]);
    expect([...(seen.get('alaska Birch') ?? [])].sort()).toEqual([5, 6]);
  });

  it('sheds no grass or weed pollen on a day whose own simulated weather is below 0 °C', async () => {
    let freezing = 0;
    for (const c of DEFAULT_CITIES.list) {
      const cold = new Set(
        (await sample.weatherHistory(c, YEAR_DAYS)).filter((d) => (d.values.temp_day_c as number) < 0).map((d) => d.day),
      );
      freezing += cold.size;
      if (cold.size === 0) continue;
      const { hours } = await sample.pollenHistory(c, YEAR);
      for (const h of hours)
        if (cold.has(Math.floor(h.time / DAY_MS)))
          expect([h.grass ?? 0, h.weed ?? 0], `${c.slug} ${new Date(h.time).toISOString()}`).toEqual([0, 0]);
    }
    expect(freezing).toBeGreaterThan(100); // the northern cities' winters freeze
  });

  it('brings mountain cedar to central Texas in winter', async () => {
    const cedar = await dailySeries('austin', allergen('Tree', 'Cypress / Juniper / Cedar'));
    expect(monthMean(cedar, 1)).toBeGreaterThan(10 * monthMean(cedar, 7) + 100);
  });

  it('peaks grass in early summer and ragweed between August and October', async () => {
    const grass = peakDayOfYear(await dailySeries('chicago', (h) => h.grass));
    expect(grass).toBeGreaterThan(121);
    expect(grass).toBeLessThan(197);
    const ragweed = peakDayOfYear(await dailySeries('wichita', allergen('Weed', 'Ragweed')));
    expect(ragweed).toBeGreaterThanOrEqual(213);
    expect(ragweed).toBeLessThanOrEqual(304);
  });

  it("moves each city's seasons a few days and a few percent from one year to the next", async () => {
    // Each city's grass: where its year's pollen is centred (the mean day of year, weighted by the
    // hourly values), and its total, in 2025 and 2026. The day-to-day weather alone moves the
    // centre by a day or two; the yearly draws (up to 6 days, 15%) move it by about four.
    const moves: number[] = [];
    const ratios: number[] = [];
    for (const c of DEFAULT_CITIES.list) {
      const years = await Promise.all(
        [2025, 2026].map(async (year) => {
          const { hours } = await sample.pollenHistory(c, hoursOf(`${year}-01-01`, `${year}-12-31`));
          const first = dayNumber(`${year}-01-01`);
          let [total, weighted] = [0, 0];
          for (const h of hours) {
            const grass = typeof h.grass === 'number' ? h.grass : 0;
            total += grass;
            weighted += grass * (Math.floor(h.time / DAY_MS) - first);
          }
          return { centre: weighted / total, total };
        }),
      );
      moves.push(Math.abs(years[1]!.centre - years[0]!.centre));
      ratios.push(Math.abs(Math.log(years[1]!.total / years[0]!.total)));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(moves)).toBeGreaterThan(3);
    expect(Math.max(...moves)).toBeLessThan(16); // a few days, not another season
    expect(mean(ratios)).toBeGreaterThan(0.09);
    expect(Math.max(...ratios)).toBeLessThan(Math.log(1.6));
  });

  it('is near zero in a northern winter and follows a daily cycle', async () => {
    const total = await dailySeries('minneapolis', (h) => h.total);
    expect(monthMean(total, 1)).toBeLessThan(5);
    const { hours } = await sample.pollenHistory(city('atlanta'), hoursOf('2025-03-20', '2025-04-10'));
    const byLocalHour = (local: number) =>
      hours.filter((h) => (new Date(h.time).getUTCHours() + 19) % 24 === local).reduce((s, h) => s + (h.tree as number), 0);
    expect(byLocalHour(11)).toBeGreaterThan(2 * byLocalHour(23));
  });

  it('reaches every risk level of every category somewhere in a year, and leaves some hours and values missing', async () => {
    const seen = { tree: new Set<string | null>(), grass: new Set<string | null>(), weed: new Set<string | null>() };
    let missingHours = 0;
    let missingValues = 0;
    for (const slug of ['atlanta', 'austin', 'wichita', 'portland', 'honolulu', 'minneapolis']) {
      const { hours } = await sample.pollenHistory(city(slug), YEAR);
      missingHours += YEAR.to - YEAR.from - hours.length;
      for (const raw of hours) {
        const h = normalizeHour(raw);
        if (h.weed === null || h.species === null) missingValues++;
        for (const c of CATEGORIES) seen[c].add(categoryRisk(c, h[c], h.species));
      }
    }
    for (const c of CATEGORIES) for (const label of RISK_LABELS) expect(seen[c].has(label), `${c} ${label}`).toBe(true);
    expect(missingHours).toBeGreaterThan(0);
    expect(missingValues).toBeGreaterThan(0);
  });

  it('reports daily weather with an AQI computed from its pollutant concentrations', async () => {
    const days = await sample.weatherHistory(city('phoenix'), YEAR_DAYS);
    expect(days).toHaveLength(365);
    const levels = new Set<number>();
    for (const { day, values: v } of days) {
      expect(v.timezone).toBe('America/Phoenix');
      expect(v.tz).toBe(utcOffset('America/Phoenix', day * DAY_MS));
      expect(v.temp_min_c as number).toBeLessThan(v.temp_max_c as number);
      if (v.aqi === undefined) continue;
      levels.add(v.aqi as number);
      expect(v.aqi).toBe(
        aqiFromConcentrations({
          pm2_5: v.aqi_pm2_5 as number,
          pm10: v.aqi_pm10 as number,
          o3: v.aqi_o3 as number,
          no2: v.aqi_no2 as number,
          so2: v.aqi_so2 as number,
          co: v.aqi_co as number,
        }),
      );
    }
    expect(levels.size).toBeGreaterThanOrEqual(3);
    expect(days.some((d) => d.values.aqi === undefined)).toBe(true);
  });
});
