/**
 * The city panel's forecast skill in headless Chromium: two sample years to 24 November 2026,
 * Austin with the sample's past forecasts of every served day made again, Wichita with those of
 * its last 20 days only (too few pairs for a score).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { ForecastSkill } from '../../src/domain/skill-schemas.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { skillSentence } from '../../src/site/app/skill.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;

const LAST = dayNumber('2026-11-24');
const NOW = (LAST + 1) * DAY_MS + 7 * HOUR_MS;
const LEVELS = ['None', 'Low', 'Moderate', 'High', 'Very High'];
const INTRO = "Simulated skill (the sample provider's forecast errors are invented): over the last 90 days";

/** N in 10, rounded, but 10 only when every day and 0 only when none. */
const tenths = (hits: number, of: number) => (hits === of ? 10 : hits === 0 ? 0 : Math.min(9, Math.max(1, Math.round((10 * hits) / of))));

/** The sentence a category's answer at lead 1 reads as, on the sample provider. */
function expectedSentence(c: Json): string {
  const { forecast: f, persistence: p } = c.leads.find((l: Json) => l.lead === 1).window;
  if (f.reason) return `${INTRO}, the ${c.category} forecast a day ahead cannot be scored here yet: ${f.reason}.`;
  const observed = f.high.hits + f.high.misses;
  if (observed === 0)
    return `${INTRO}, the ${c.category} forecast a day ahead had no High day here to be checked on: ${f.score_reasons.pod}.`;
  const persistence = "; persistence (the last observed day's level)";
  if (observed < 10)
    return `${INTRO}, High-or-above ${c.category} days here were forecast a day ahead on ${f.high.hits} of ${observed} day${observed === 1 ? '' : 's'}${persistence} on ${p.high.hits}.`;
  return `${INTRO}, High-or-above ${c.category} days here were forecast a day ahead ${tenths(f.high.hits, observed)} times in 10 (${f.high.hits} of ${observed} days)${persistence} ${tenths(p.high.hits, observed)} in 10.`;
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

  /** The category the page should speak of, from the API's answers: the highest level today, then in season, then the most High days. */
  const expectedCategory = async (slug: string, skill: Json) => {
    const days = await json(`/api/forecast?city=${slug}&aggregate=day&timezone=local`);
    const seasons = await json(`/api/season?city=${slug}&timezone=local`);
    const today = days.rows[0] as Json;
    const inSeason = (c: string) => seasons.categories.some((s: Json) => s.category === c && s.status.state === 'in season');
    const ranked = (skill.categories as Json[])
      .filter((c) => c.category !== 'ragweed')
      .map((c) => {
        const high = c.leads.find((l: Json) => l.lead === 1).window.forecast.high;
        return { c, r: [LEVELS.indexOf(today[`peak_risk_${c.category}`]), inSeason(c.category) ? 1 : 0, high.hits + high.misses] };
      })
      .sort((a, b) => b.r[0] - a.r[0] || b.r[1] - a.r[1] || b.r[2] - a.r[2]);
    return ranked[0]!.c as Json;
  };

  it("says how often the High days were forecast a day ahead beside persistence's, and draws the API's scores by lead day", async () => {
    const { page, errors } = await openPanel('austin');
    const skill = await json('/api/forecast-skill?city=austin');
    expect(skill.archive.by.made_again).toBeGreaterThan(1000);
    const c = await expectedCategory('austin', skill);
    const w = c.leads.find((l: Json) => l.lead === 1).window;
    expect(w.forecast.pairs).toBeGreaterThanOrEqual(30);
    expect(await page.textContent('.skill-sentence')).toBe(expectedSentence(c));
    // Whichever category today's levels pick, each category's answer reads right: some with High days to count, some without.
    const branches = new Set<string>();
    const typed = ForecastSkill.parse(skill);
    for (const [i, other] of (skill.categories as Json[]).entries()) {
      const sentence = skillSentence(typed, typed.categories[i]!);
      expect(sentence).toBe(expectedSentence(other));
      branches.add(sentence.includes('no High day') ? 'none' : sentence.includes('times in 10') ? 'tenths' : 'count');
    }
    expect([...branches].sort()).toEqual(['count', 'none', 'tenths']);

    // Each line's points are the API's scores at the leads it gives one, and only those lines are drawn and named.
    const scores: Record<string, (w: Json) => number | null> = {
      forecast: (w) => w.forecast.gerrity,
      persistence: (w) => w.persistence.gerrity,
      climatology: (w) => w.climatology.gerrity,
      outlook: (w) => w.outlook.rpss,
    };
    const expected = Object.entries(scores)
      .map(([key, score]) => ({
        key,
        points: (c.leads as Json[]).flatMap((l) => (score(l.window) === null ? [] : [[l.lead, score(l.window)]])),
      }))
      .filter((l) => l.points.length > 0);
    expect(expected.map((l) => l.key)).toEqual(['forecast', 'persistence', 'climatology', 'outlook']);
    const drawn = await page.locator('.skill-chart .skill-line').evaluateAll((gs) =>
      gs.map((g) => ({
        key: g.getAttribute('class')!.split('skill-').at(-1),
        points: [...g.querySelectorAll('circle')].map((p) => [Number(p.getAttribute('data-lead')), Number(p.getAttribute('data-score'))]),
      })),
    );
    expect(drawn).toEqual(expected);
    // The forecast reaches lead 2: its line stops there, and the days beyond are the outlook's, shaded.
    expect(expected[0]!.points.map((p) => p[0])).toEqual([0, 1, 2]);
    expect(await page.locator('.skill-chart .skill-outlook-days').count()).toBe(1);
    expect(await page.locator('section.skill .series-legend li').allTextContents()).toEqual([
      'Forecast',
      'Persistence',
      'Climatology',
      'Outlook (probability skill against climatology)',
    ]);
    expect(await page.getAttribute('.skill-chart', 'aria-label')).toContain(`Gerrity skill score of the ${c.category} forecast`);
    const desc = await page.textContent('.skill-chart desc');
    expect(desc).toContain(`Forecast: day 0 ${expected[0]!.points[0]![1].toFixed(2)}, day 1 ${expected[0]!.points[1]![1].toFixed(2)}`);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('says plainly why there is no score where fewer days are paired than a score needs, and draws no forecast line', async () => {
    const { page, errors } = await openPanel('wichita');
    const skill = await json('/api/forecast-skill?city=wichita');
    const c = await expectedCategory('wichita', skill);
    const w = c.leads.find((l: Json) => l.lead === 1).window;
    expect(w.forecast.pairs).toBeLessThan(30);
    expect(await page.textContent('.skill-sentence')).toBe(
      `${INTRO}, the ${c.category} forecast a day ahead cannot be scored here yet: ${w.forecast.reason}.`,
    );
    // Persistence and climatology are scored on the forecast's days, so none of the first leads has a line.
    const drawn = await page.locator('.skill-chart .skill-line').evaluateAll((gs) => gs.map((g) => g.getAttribute('class')));
    expect(drawn).not.toContain('skill-line skill-forecast');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
