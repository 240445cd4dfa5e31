/**
 * A city's forecast skill from what was kept as issued (forecast-skill.ts): each comparison on one
 * set of days (the forecast and the references present on half its days or more), the periods,
 * the leads beyond the provider's forecast, unrounded means, and the outlook served as it was
 * kept. Small series laid out by hand.
 */
import { describe, expect, it } from 'vitest';
import type { SeasonDay } from '../../src/domain/seasons/year.js';
import { RISK_LABELS, type Risk } from '../../src/domain/species/risk.js';
import { citySkill, type KeptForecast, type SkillInputs, windowOutlookSkills } from '../../src/domain/verification/forecast-skill.js';
import type { KeptClimatology, KeptOutlook } from '../../src/domain/verification/kept-outlooks.js';
import { OUTLOOK_LEADS } from '../../src/domain/verification/outlook.js';

/** 100 days of grass from day 20,000: levels in runs of 4 days through Low, Moderate, High and None. */
const FIRST = 20_000;
const DAYS = 100;
const LEVEL_OF = (i: number): Risk => (['Low', 'Moderate', 'High', 'None'] as const)[Math.floor(i / 4) % 4]!;
const VALUE: Record<Risk, number> = { None: 0, Low: 3.25, Moderate: 12.5, High: 50.125, 'Very High': 400 };
const observed = new Map<number, SeasonDay>(
  Array.from({ length: DAYS }, (_, i) => [FIRST + i, { value: VALUE[LEVEL_OF(i)] + i / 1000, risk: LEVEL_OF(i) }]),
);

/** Level counts all on one level. */
const on = (level: Risk, members = 10) => ({ members, counts: RISK_LABELS.map((l) => (l === level ? members : 0)) });

/**
 * Outlooks kept for every issue day: persistence (the day before) only from day 40 on; in season
 * on even issue days; the outlook all on the level observed at each lead's target day.
 */
const outlooks = new Map<number, KeptOutlook>();
for (let i = 0; i < DAYS; i++) {
  const day = FIRST + i;
  const before = observed.get(day - 1);
  outlooks.set(day, {
    issueDay: day,
    source: 'sample',
    origin: i === DAYS - 1 ? 'build' : 'made again',
    categories: {
      grass: {
        inSeason: i % 2 === 0,
        persistence: i >= 40 && before ? { day: day - 1, value: before.value, level: before.risk! } : null,
        outlook: {
          issued: day,
          earlierYears: [],
          shiftDays: {},
          anomaly: null,
          weights: new Array(OUTLOOK_LEADS).fill(0),
          leads: Array.from({ length: OUTLOOK_LEADS }, (_, lead) => on(observed.get(day + lead)?.risk ?? 'None')),
        },
        served: new Array(OUTLOOK_LEADS).fill(null),
        decisions: new Array(OUTLOOK_LEADS).fill(null),
      },
    },
  });
}
/** Climatology of each target day from day 60 on only (no earlier year before): all on Low, its median Low. */
const climatologies = new Map<number, KeptClimatology>();
for (let i = 60; i < DAYS + OUTLOOK_LEADS; i++)
  climatologies.set(FIRST + i, { day: FIRST + i, categories: { grass: { ...on('Low'), median: { value: 3, level: 'Low' } } } });

/** The provider's forecast issued each day at 06:30: the next day, off by 0.4 grains from what was observed (same level). */
const forecasts: KeptForecast[] = Array.from({ length: DAYS - 1 }, (_, i) => {
  const day = FIRST + i + 1;
  const seen = observed.get(day)!;
  return {
    issuedAt: (FIRST + i) * 86_400_000 + 6.5 * 3_600_000,
    source: 'sample',
    origin: 'made again',
    days: [
      {
        day,
        lead: 1,
        issuedAt: (FIRST + i) * 86_400_000 + 6.5 * 3_600_000,
        hours: 24,
        levels: { grass: { value: seen.value + (i % 2 ? 0.4 : -0.4), level: seen.risk! } },
      },
    ],
  };
});

const inputs: SkillInputs = {
  city: 'testville',
  provider: 'sample',
  first: FIRST,
  latest: FIRST + DAYS - 1,
  observed: (c) => (c === 'grass' ? observed : new Map()),
  source: (day) => (observed.has(day) ? 'sample' : undefined),
  outlooks,
  climatologies,
  forecasts,
};

describe("a city's forecast skill from what was kept", () => {
  const { skill, pairs } = citySkill(inputs);
  const grass = skill.categories.find((c) => c.category === 'grass')!;
  const lead1 = grass.leads[1]!;

  it('scores the forecast and the references on the same days, leaving out a reference present on fewer than half of them', () => {
    // The window is the last 90 days (10 to 99); the forecast reaches days 1 to 99 at lead 1, so 90 of them.
    // Persistence is kept from issue day 40 on (targets 41 to 99): 59 of the 90, more than half, kept.
    // Climatology exists from day 60 on: 40 of 90, fewer than half: left out, saying why.
    const w = lead1.window;
    expect(w.days).toBe(59);
    expect(w.left_out).toEqual({
      climatology: 'an earlier year holds days around the date on only 40 of the 90 days with a forecast at this lead, fewer than half',
    });
    expect(w.climatology).toBeNull();
    // Both tables count the same 59 days.
    const total = (t: number[][]) => t.flat().reduce((a, b) => a + b, 0);
    expect([total(w.forecast!.table), total(w.persistence!.table)]).toEqual([59, 59]);
    // The forecast is always right on the level: all on the diagonal.
    expect(w.forecast!.table.every((row, f) => row.every((n, o) => f === o || n === 0))).toBe(true);
    expect(w.forecast!.gerrity).toBe(1);
    expect(w.forecast!.gerrity_interval).toEqual([1, 1]);
    // Persistence at lead 1 is the day before the issue day, two days before the target: it misses
    // where the level changed in those two days, two days in every four.
    const misses = total(w.persistence!.table) - w.persistence!.table.reduce((n, row, i) => n + row[i]!, 0);
    const expected = Array.from({ length: 59 }, (_, k) => 41 + k).filter((i) => LEVEL_OF(i) !== LEVEL_OF(i - 2)).length;
    expect(misses).toBe(expected);
    expect(misses).toBe(29);
  });

  it('scores the means unrounded: a forecast off by 0.4 grains is not perfect, though its levels are', () => {
    const f = lead1.window.forecast!;
    expect(f.rmse_log).toBeGreaterThan(0);
    expect(f.spearman).toBeLessThan(1);
  });

  it('keeps only the days whose issue day was in season in the window in season', () => {
    // In season on even issue days: targets at lead 1 on odd days, and persistence kept from 41: 30 of the 59.
    expect(lead1.window_in_season.days).toBe(30);
    // The outlook's days in season at lead 0: every even day of the window with climatology (60 to 99): 20.
    expect(grass.leads[0]!.window_in_season.outlook.days).toBe(20);
  });

  it('says plainly that the provider forecast does not reach leads beyond 2, and scores the outlook there', () => {
    const w = grass.leads[5]!.window;
    expect([w.days, w.forecast, w.persistence, w.climatology]).toEqual([0, null, null, null]);
    expect(w.reason).toBe("the provider's forecast reaches lead 2 (48 hours): beyond it, only the outlook is scored");
    // The outlook is right on every day, climatology's Low is not: every resample beats it.
    expect(w.outlook).toMatchObject({ rps: 0, rpss: 1, rpss_interval: [1, 1], beats_climatology: true });
  });

  it('gives the pairs as columns, each day with what every issue kept', () => {
    const c = pairs.find((p) => p.category === 'grass')!;
    expect(c.n).toBe(DAYS);
    const i = 50;
    expect(c.day[i]).toBe(FIRST + 50);
    expect(c.observedValue[i]).toBe(VALUE[LEVEL_OF(50)] + 0.05);
    // Lead 1: issued on day 49, whose persistence is day 48.
    expect(c.persistenceValue[1]![i]).toBe(observed.get(FIRST + 48)!.value);
    expect(c.climatologyValue[i]).toBeNaN(); // no climatology before day 60
    expect(c.inSeason[1]![i]).toBe(0); // issued on day 49, odd
    expect(c.served[1]![i]).toBe(-1); // made again: never served
  });

  it("compares a day another provider replaced with that provider's forecasts only, and says so per provider", () => {
    // Days 70 to 79 written again by another provider, which issued one forecast, on day 74, reaching day 75 at lead 1.
    const replaced = (day: number) => day >= FIRST + 70 && day < FIRST + 80;
    const seen = observed.get(FIRST + 75)!;
    const theirs = {
      issuedAt: (FIRST + 74) * 86_400_000 + 8 * 3_600_000,
      source: 'ambee',
      origin: 'build' as const,
      days: [
        {
          day: FIRST + 75,
          lead: 1,
          issuedAt: (FIRST + 74) * 86_400_000 + 8 * 3_600_000,
          hours: 24,
          levels: { grass: { value: 1, level: 'Low' as const } },
        },
      ],
    };
    const mixed = citySkill({
      ...inputs,
      sources: ['sample', 'ambee'],
      source: (day) => (observed.has(day) ? (replaced(day) ? 'ambee' : 'sample') : undefined),
      forecasts: [...forecasts, theirs],
    });
    expect(mixed.skill).toMatchObject({ provider: null, providers: ['sample', 'ambee'], simulated: true });
    expect(mixed.skill.archive.by_provider).toEqual([
      { provider: 'sample', forecasts: forecasts.length },
      { provider: 'ambee', forecasts: 1 },
    ]);
    const c = mixed.pairs.find((p) => p.category === 'grass')!;
    expect(c.provider.slice(69, 81)).toEqual(['sample', ...Array(10).fill('ambee'), 'sample']);
    // The replaced days have no forecast of the sample's: day 75 has the other provider's, the others none.
    const compared = Array.from({ length: 10 }, (_, k) => c.forecastValue[1]![70 + k]!);
    expect(compared.map((v, k) => (k === 5 ? v : Number.isNaN(v)))).toEqual([true, true, true, true, true, 1, true, true, true, true]);
    // Low, as the other provider said; the sample's said the level observed.
    expect(seen.risk).not.toBe('Low');
    expect(c.forecastLevel[1]![75]).toBe(1);
    // The window's days at lead 1: the 59 above, less the 10 replaced, plus the other provider's one.
    const w = mixed.skill.categories.find((k) => k.category === 'grass')!.leads[1]!.window;
    expect(w.days).toBe(50);
    expect(w.by_provider).toEqual([
      { provider: 'sample', days: 49 },
      { provider: 'ambee', days: 1 },
    ]);
    // One provider: the answer names it, and no score splits its days.
    expect(skill).toMatchObject({ provider: 'sample', simulated: true });
    expect('providers' in skill || 'by_provider' in lead1.window || 'by_provider' in skill.archive).toBe(false);
  });

  it('chooses what an outlook serves on the same skill the window scores it with', () => {
    const chosen = windowOutlookSkills({ ...inputs, forecasts: [] }, 'testville', 'grass', FIRST + DAYS - 1);
    expect(chosen.map((s) => s.rpss)).toEqual(grass.leads.map((l) => l.window.outlook.rpss));
    expect(chosen.map((s) => s.rpss_interval)).toEqual(grass.leads.map((l) => l.window.outlook.rpss_interval));
  });
});
