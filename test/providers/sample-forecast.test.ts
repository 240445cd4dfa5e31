import { describe, expect, it } from 'vitest';
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { groupByDay } from '../../src/domain/day-cuts.js';
import { dayValues } from '../../src/domain/day-values.js';
import { normalizeHour } from '../../src/domain/hours.js';
import type { Category } from '../../src/domain/species/risk.js';
import { skill } from '../../src/domain/verification/score-sample.js';
import { contingencyTable, heidkeOf, type Pair } from '../../src/domain/verification/scores.js';

/** Heidke's score of pairs' table as it is: the sample's forecast is judged here, not what an answer may say of a few days. */
const heidke = (pairs: readonly Pair[]): number => heidkeOf(contingencyTable(pairs).flat());

import { latestAtLead, observedSeries, type TargetDay, targetDays } from '../../src/domain/verification/target-days.js';
import type { PollenBatch } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';

const sample = new SampleProvider();
const city = (slug: string): City => DEFAULT_CITIES.get(slug)!;
const at = (iso: string) => Date.parse(iso);
const zoned = (batch: PollenBatch, c: City) => batch.hours.map((r) => ({ ...normalizeHour(r), timezone: c.timezone }));

describe('the sample forecast', () => {
  it('is the same every time it is asked for the same city and issue hour, and differs from one issue to the next', async () => {
    const a = await sample.pollenForecastIssued(city('tulsa'), at('2025-04-10T05:20:00Z'), 192);
    expect(await new SampleProvider().pollenForecastIssued(city('tulsa'), at('2025-04-10T05:59:00Z'), 192)).toEqual(a);
    const later = await sample.pollenForecastIssued(city('tulsa'), at('2025-04-10T06:00:00Z'), 48);
    // The hour 12:00Z on 11 April, forecast from 05:00Z and from 06:00Z: different draws.
    const target = at('2025-04-11T12:00:00Z');
    expect(later.hours.find((h) => h.time === target)!.tree).not.toBe(a.hours.find((h) => h.time === target)!.tree);
    expect(await sample.pollenForecast(city('tulsa'), at('2025-04-10T06:30:00Z'))).toEqual(later);
  });

  it("covers at most 8 days, from the hour that holds the issue instant, with the history's gaps", async () => {
    const issued = at('2025-04-10T05:20:00Z');
    const f = await sample.pollenForecastIssued(city('tulsa'), issued, 192);
    const truth = await sample.pollenHistory(city('tulsa'), { from: Math.floor(issued / HOUR_MS), to: Math.floor(issued / HOUR_MS) + 192 });
    expect(f.hours.map((h) => h.time)).toEqual(truth.hours.map((h) => h.time));
    expect(f.hours[0]!.time).toBe(at('2025-04-10T05:00:00Z'));
    // Not the history: the values differ, but the allergens still add up to their category.
    expect(f.hours.filter((h, i) => h.tree !== truth.hours[i]!.tree).length).toBeGreaterThan(150);
    for (const h of f.hours) {
      const tree = (h.species as { Tree?: Record<string, number> } | null)?.Tree;
      if (tree) expect(h.tree).toBe(Object.values(tree).reduce((s, v) => s + v, 0));
    }
    for (const hours of [0, 193, 1.5]) await expect(sample.pollenForecastIssued(city('tulsa'), issued, hours)).rejects.toThrow(RangeError);
  });

  it.each(['atlanta', 'chicago'])(
    'scores over a year in %s: better at lead 1 than at lead 7, better than random and persistence, worse than perfect',
    async (slug) => {
      const c = city(slug);
      const [from, to] = [dayNumber('2025-01-01'), dayNumber('2025-12-31')];
      const history = await sample.pollenHistory(c, { from: (from - 9) * 24, to: (to + 1) * 24 });
      const values = [...groupByDay('UTC', c.timezone, zoned(history, c))].map(([day, list]) => dayValues(day, list));
      // A forecast issued at 05:00Z each day, from 8 days before the year so that every day of it has every lead.
      const targets: TargetDay[] = [];
      for (let day = from - 8; day <= to; day++) {
        const issuedAt = day * DAY_MS + 5 * HOUR_MS;
        targets.push(...targetDays({ issuedAt, hours: zoned(await sample.pollenForecastIssued(c, issuedAt, 192), c) }, c.timezone, 'UTC'));
      }
      const inYear = (pairs: Pair[]) => pairs.filter((p) => p.day >= from && p.day <= to);
      for (const category of ['tree', 'grass', 'weed'] as Category[]) {
        const observed = observedSeries(values, category);
        const pairsAt = (lead: number): Pair[] =>
          latestAtLead(targets, lead).flatMap((t) => {
            const [forecast, seen] = [t.levels[category], observed.get(t.day)];
            return forecast && seen ? [{ day: t.day, forecast, observed: { value: seen.value, level: seen.risk! } }] : [];
          });
        const [one, seven] = [1, 7].map((lead) => inYear(pairsAt(lead)));
        const [s1, s7] = [skill(one!), skill(seven!)];
        expect(s1.days, category).toBeGreaterThan(360);
        expect(heidke(one!), category).toBeGreaterThan(heidke(seven!));
        expect(s1.rmse_log!, category).toBeLessThan(s7.rmse_log!);
        // Worse than perfect.
        expect(heidke(one!), category).toBeLessThan(1);
        expect(s1.rmse_log!, category).toBeGreaterThan(0.05);
        // Better than random: the same forecasts paired with the observations half a year away.
        const shuffled = seven!.map((p, i) => ({ ...p, forecast: seven![(i + 182) % seven!.length]!.forecast }));
        expect(heidke(seven!), category).toBeGreaterThan(heidke(shuffled) + 0.3);
        // Better than persistence (the day before the issue day) over the same days, a day ahead.
        const persistence = skill(
          one!.flatMap((p) => {
            const before = observed.get(p.day - 2);
            return before ? [{ ...p, forecast: { value: before.value, level: before.risk! } }] : [];
          }),
        );
        expect(s1.rmse_log!, category).toBeLessThan(persistence.rmse_log!);
      }
    },
  );
});

describe("the sample's past forecasts, made from daily rows", () => {
  it('say of each day what the hourly forecast issued at the same instant says, within its rounding', async () => {
    const c = city('atlanta');
    const [from, to] = [dayNumber('2025-02-01'), dayNumber('2025-06-30')];
    const history = await sample.pollenHistory(c, { from: (from - 9) * 24, to: (to + 10) * 24 });
    const rows = new Map([...groupByDay('UTC', c.timezone, zoned(history, c))].map(([day, list]) => [day, dayValues(day, list)]));
    const past = sample.pastForecaster(c, (day) => rows.get(day));
    let [targets, matched, days, same, close] = [0, 0, 0, 0, 0];
    for (let day = from; day <= to; day++) {
      const issuedAt = day * DAY_MS + 6.5 * HOUR_MS;
      const hourly = targetDays({ issuedAt, hours: zoned(await sample.pollenForecastIssued(c, issuedAt, 48), c) }, c.timezone, 'UTC');
      const daily = past.issuedDays(issuedAt, 48);
      // The same days at the same leads (18 hours of the issue day and the whole next one), but
      // where the history misses hours: the daily model counts the hours it covers, not those held.
      for (const h of hourly) {
        const d = daily.find((x) => x.day === h.day && x.lead === h.lead);
        if (!d) continue;
        matched++;
        for (const category of ['tree', 'grass', 'weed'] as Category[]) {
          const [a, b] = [d.levels[category]!, h.levels[category]!];
          days++;
          if (a.level === b.level) same++;
          if (Math.abs(Math.log10(1 + a.value) - Math.log10(1 + b.value)) < 0.1) close++;
        }
      }
      targets += hourly.length;
    }
    expect(matched / targets).toBeGreaterThan(0.97);
    // A daily mean perturbed at once differs from the mean of perturbed hours only by the factor's
    // change within the day and the rounding: the level is the same on most days, the mean within 25%.
    expect(same / days).toBeGreaterThan(0.9);
    expect(close / days).toBeGreaterThan(0.9);
  });
});
