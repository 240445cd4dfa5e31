/**
 * The city panel's forecast skill in headless Chromium: two sample years to 24 May 2026,
 * Austin with the sample's past forecasts of every served day made again, Wichita with those of
 * its last 20 days only (too few pairs for a score).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { ForecastSkill } from '../../src/domain/verification/skill-schemas.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { skillSentence } from '../../src/site/app/skill.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite, useSiteToToday } from '../helpers/site.js';

type Json = Record<string, any>;

// In spring: Austin's tree and grass seasons under way, so that the window's scores have levels to score.
const LAST = dayNumber('2026-05-24');
const NOW = (LAST + 1) * DAY_MS + 7 * HOUR_MS;
const LEVELS = ['None', 'Low', 'Moderate', 'High', 'Very High'];
const INTRO = "Simulated skill (the sample provider's forecast errors are invented): over the last 90 days";

/** Two decimals, a tiny score three, never "-0.00" (as the page says a score). */
const fixed = (v: number) => (Math.abs(v) < 0.005 && v !== 0 ? v.toFixed(3) : v.toFixed(2).replace(/^-0\.00$/, '0.00'));

/** How the forecast compares with a reference, by their intervals: better or worse only when they do not overlap. */
function compared(f: number[], r: number[] | null, name: string): string {
  if (!r) return `could not be compared with ${name}`;
  if (f[0]! > r[1]!) return `did better than ${name}`;
  if (f[1]! < r[0]!) return `did worse than ${name}`;
  return `was not clearly better or worse than ${name}`;
}

/** The sentence a category's answer at lead 1 reads as, on the sample provider. */
function expectedSentence(c: Json): string {
  const w = c.leads.find((l: Json) => l.lead === 1).window;
  if (w.reason) return `${INTRO}, the ${c.category} forecast a day ahead cannot be scored here yet: ${w.reason}.`;
  const f = w.forecast;
  if (f.gerrity === null) {
    // The observed days by level: the table's columns.
    const byLevel = LEVELS.map((_, o) => f.table.reduce((n: number, row: number[]) => n + row[o]!, 0));
    const seen = LEVELS.filter((_, o) => byLevel[o]! > 0);
    const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
    const count = (level: string) => days(byLevel[LEVELS.indexOf(level)]!);
    if (seen.length === 1)
      return `${INTRO}, the ${c.category} pollen was ${seen[0]} on all ${count(seen[0]!)}: with nothing else to tell, a right forecast cannot be told from a lucky one.`;
    if (seen.length === 2)
      return `${INTRO}, the ${c.category} pollen was only ${seen[0]} or ${seen[1]} (${seen[0]} on ${count(seen[0]!)}, ${seen[1]} on ${count(seen[1]!)}): too narrow a range to judge the forecast's levels.`;
    return `${INTRO}, the ${c.category} pollen was above None on only ${days(byLevel.slice(1).reduce((a, b) => a + b, 0))}: too few to judge the forecast's levels.`;
  }
  const [low, high] = f.gerrity_interval;
  const yesterday = w.persistence
    ? compared(f.gerrity_interval, w.persistence.gerrity_interval, "yesterday's level")
    : "could not be compared with yesterday's level";
  const usual = w.climatology
    ? compared(f.gerrity_interval, w.climatology.gerrity_interval, 'the usual for the season')
    : 'could not be compared with the usual for the season (no earlier year around these dates)';
  return `${INTRO}, the ${c.category} forecast for the next day scored ${fixed(f.gerrity)} on levels (1 perfect, 0 no skill; 95% interval ${fixed(low)} to ${fixed(high)}): it ${yesterday}, and ${usual}.`;
}

describe.skipIf(!hasChromium)('the forecast skill in the city panel', () => {
  const site = useSite({
    cities: ['austin', 'wichita'],
    span: { from: dayNumber('2024-11-25'), to: LAST },
    prepare: async (store) => {
      const provider = new SampleProvider();
      const city = (slug: string) => [DEFAULT_CITIES.get(slug)!];
      // Wichita first: a run forgets every city's forecasts issued before its served days.
      await keepForecasts({ store, provider, cities: city('wichita'), now: NOW, serveDays: 20 });
      await keepForecasts({ store, provider, cities: city('austin'), now: NOW, serveDays: 730 });
    },
  });
  const browser = useBrowser();

  const openPanel = async (slug: string) => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click(`#city-list button[data-city="${slug}"]`);
    await page.waitForSelector('#panel section.skill');
    return { page, errors };
  };
  const json = async (path: string) => (await (await site.get(path)).json()) as Json;

  /** The category the page should speak of, from the API's answers: the highest level today, then in season, then the most days scored. */
  const expectedCategory = async (slug: string, skill: Json) => {
    const days = await json(`/api/forecast?city=${slug}&aggregate=day&timezone=local`);
    const seasons = await json(`/api/season?city=${slug}&timezone=local`);
    const today = days.rows[0] as Json;
    const inSeason = (c: string) => seasons.categories.some((s: Json) => s.category === c && s.status.state === 'in season');
    const ranked = (skill.categories as Json[])
      .filter((c) => c.category !== 'ragweed')
      .map((c) => {
        const w = c.leads.find((l: Json) => l.lead === 1).window;
        return {
          c,
          r: [LEVELS.indexOf(today[`peak_risk_${c.category}`]), inSeason(c.category) ? 1 : 0, w.forecast?.gerrity === null ? 0 : w.days],
        };
      })
      .sort((a, b) => b.r[0] - a.r[0] || b.r[1] - a.r[1] || b.r[2] - a.r[2]);
    return ranked[0]!.c as Json;
  };

  it("says how the forecast did against yesterday's level and the usual for the season, and draws the API's scores with their intervals", async () => {
    const { page, errors } = await openPanel('austin');
    const skill = await json('/api/forecast-skill?city=austin');
    expect(skill.archive.by.made_again).toBeGreaterThan(1000);
    expect(skill.archive.outlooks.made_again).toBeGreaterThan(500);
    const c = await expectedCategory('austin', skill);
    expect(c.leads.find((l: Json) => l.lead === 1).window.days).toBeGreaterThanOrEqual(30);
    expect(await page.textContent('.skill-sentence')).toBe(expectedSentence(c));
    // Whichever category today's levels pick, each category's answer reads right.
    const typed = ForecastSkill.parse(skill);
    const branches = new Set<string>();
    for (const [i, other] of (skill.categories as Json[]).entries()) {
      const sentence = skillSentence(typed, typed.categories[i]!);
      expect(sentence).toBe(expectedSentence(other));
      branches.add(sentence.includes('scored') && sentence.includes('on levels') ? 'scored' : 'reason');
    }
    expect(branches.has('scored')).toBe(true);

    // The score of levels: each line's points are the API's Gerrity scores at the leads it gives one with an interval, the bars its intervals.
    const tables: Record<string, (w: Json) => Json | null> = {
      forecast: (w) => w.forecast,
      persistence: (w) => w.persistence,
      climatology: (w) => w.climatology,
    };
    const expected = Object.entries(tables)
      .map(([key, table]) => ({
        key,
        points: (c.leads as Json[]).flatMap((l) => {
          const t = table(l.window);
          return t?.gerrity != null && t.gerrity_interval ? [[l.lead, t.gerrity, ...t.gerrity_interval]] : [];
        }),
      }))
      .filter((l) => l.points.length > 0);
    expect(expected.map((l) => l.key)).toEqual(['forecast', 'persistence', 'climatology']);
    const charts = page.locator('.skill-chart');
    expect(await charts.count()).toBe(2);
    const lines = (chart: number) =>
      charts
        .nth(chart)
        .locator('.skill-line')
        .evaluateAll((gs) =>
          gs.map((g) => ({
            key: g.getAttribute('class')!.split('skill-').at(-1),
            points: [...g.querySelectorAll('circle')].map((p) => [
              Number(p.getAttribute('data-lead')),
              Number(p.getAttribute('data-score')),
            ]),
            bars: g.querySelectorAll('line.skill-interval').length,
          })),
        );
    expect(await lines(0)).toEqual(
      expected.map((l) => ({ key: l.key, points: l.points.map((p) => p.slice(0, 2)), bars: l.points.length })),
    );
    // The provider's forecast reaches lead 2: its lines stop there, and the days beyond are shaded, saying so.
    expect(expected[0]!.points.map((p) => p[0])).toEqual([0, 1, 2]);
    expect(await charts.nth(0).locator('.skill-outlook-days').count()).toBe(1);
    expect(await charts.nth(0).locator('text', { hasText: 'the forecast reaches 2 days ahead' }).count()).toBe(1);
    expect(await page.locator('section.skill .series-legend li').allTextContents()).toEqual([
      'The forecast',
      "Yesterday's level",
      'The usual for the season',
    ]);
    // The outlook apart, on its own scale: its probability skill against the usual for the season at every lead it has one.
    const outlook = (c.leads as Json[]).flatMap((l) =>
      l.window.outlook.rpss !== null && l.window.outlook.rpss_interval ? [[l.lead, l.window.outlook.rpss]] : [],
    );
    expect(await lines(1)).toEqual(outlook.length ? [{ key: 'outlook', points: outlook, bars: outlook.length }] : []);
    expect(await charts.nth(1).getAttribute('aria-label')).toContain('against the usual for the season');
    const desc = await charts.nth(0).locator('desc').textContent();
    const f = expected[0]!.points[1]!;
    expect(desc).toContain(`day 1 ${fixed(f[1]!)} (${fixed(f[2]!)} to ${fixed(f[3]!)})`);

    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('keeps every word of the charts inside them on a phone: captions run on to a second line', async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(`${site.server.url}/?city=austin`);
    await page.waitForSelector('#panel section.skill svg.skill-chart');
    const outside = await page.locator('#panel svg.skill-chart').evaluateAll((svgs) =>
      svgs.flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')]
          .filter((t) => {
            const r = t.getBoundingClientRect();
            return r.left < box.left - 1 || r.right > box.right + 1;
          })
          .map((t) => t.textContent);
      }),
    );
    expect(outside).toEqual([]);
    const captions = await page.locator('#panel svg.skill-chart text.skill-caption').allTextContents();
    expect(captions.join(' ')).toContain('score of levels by days ahead (1 perfect, 0 no skill)');
    expect(captions.length).toBeGreaterThan(2); // two charts, at least one caption on two lines
    await page.close();
  });

  it('says plainly why there is no score where fewer days are paired than a score needs, and draws no forecast line', async () => {
    const { page, errors } = await openPanel('wichita');
    const skill = await json('/api/forecast-skill?city=wichita');
    const c = await expectedCategory('wichita', skill);
    const w = c.leads.find((l: Json) => l.lead === 1).window;
    expect(w.days).toBeLessThan(30);
    expect(await page.textContent('.skill-sentence')).toBe(
      `${INTRO}, the ${c.category} forecast a day ahead cannot be scored here yet: ${w.reason}.`,
    );
    // Persistence and climatology are scored on the forecast's days, so none of the first leads has a line.
    const drawn = await page
      .locator('.skill-chart')
      .first()
      .locator('.skill-line')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('class')));
    expect(drawn).not.toContain('skill-line skill-forecast');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe.skipIf(!hasChromium)("the city panel's 7-day strip", () => {
  const site = useSiteToToday(['austin']);
  const browser = useBrowser();

  it("gives each category's most likely level and its chance for today and the 7 days after, marking the usual for the season", async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('#panel table.outlook-strip');
    const forecast = (await (await site.get('/api/forecast?city=austin&aggregate=day&timezone=local&days=7')).json()) as Json;
    expect(forecast.outlook.dates).toHaveLength(8);
    const strip = page.locator('table.outlook-strip');
    expect(await strip.locator('thead th').count()).toBe(1 + 8);
    expect(await strip.locator('thead th').nth(1).textContent()).toMatch(/^Today, /);
    const rows = await strip
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')!.textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)]),
      );
    const expected = ['tree', 'grass', 'weed', 'ragweed'].map((category) => [
      category[0]!.toUpperCase() + category.slice(1),
      forecast.outlook.dates.map((d: Json) => {
        const x = d.categories.find((c: Json) => c.category === category);
        return x?.most_likely
          ? `${x.most_likely} ${Math.round(x.probabilities[x.most_likely] * 100)}%${x.served === 'climatology' ? 'usual' : ''}`
          : '–';
      }),
    ]);
    expect(rows).toEqual(expected);
    // Each cell says why its probabilities are the ones shown.
    expect(await strip.locator('tbody td').first().getAttribute('title')).toBe(forecast.outlook.dates[0].categories[0].why);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
