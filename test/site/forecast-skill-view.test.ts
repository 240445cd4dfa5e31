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
import { categoryToSpeakOf, expectedProvidersSentence, expectedSentence, fixed, INTRO, type Json } from '../helpers/skill-words.js';
import { type KeptDay, levelsOf } from '../../src/domain/verification/target-days.js';

// In spring: Austin's tree and grass seasons under way, so that the window's scores have levels to score.
const LAST = dayNumber('2026-05-24');
const NOW = (LAST + 1) * DAY_MS + 7 * HOUR_MS;
describe.skipIf(!hasChromium)('the forecast skill in the city panel', () => {
  const site = useSite({
    now: NOW,
    cities: ['austin', 'wichita'],
    span: { from: dayNumber('2024-11-25'), to: LAST },
    prepare: async (store) => {
      const provider = new SampleProvider();
      const city = (slug: string) => [DEFAULT_CITIES.get(slug)!];
      // Wichita first: a run forgets every city's forecasts issued before its served days.
      await keepForecasts({ store, providers: [provider], cities: city('wichita'), now: NOW, serveDays: 20 });
      await keepForecasts({ store, providers: [provider], cities: city('austin'), now: NOW, serveDays: 730 });
    },
  });
  const browser = useBrowser(site);

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
  const expectedCategory = (slug: string, skill: Json) => categoryToSpeakOf(json, slug, skill);

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

describe.skipIf(!hasChromium)("the forecast skill in the city panel, of two providers' forecasts", () => {
  const DAILY = 'atmospore';
  const site = useSite({
    now: NOW,
    cities: ['austin'],
    span: { from: dayNumber('2025-11-25'), to: LAST },
    prepare: async (store) => {
      await keepForecasts({ store, providers: [new SampleProvider()], cities: [DEFAULT_CITIES.get('austin')!], now: NOW, serveDays: 730 });
      // A daily provider's forecasts of the window's days, 14 dates each from noon UTC, each the level then observed.
      const observed = store.values.span('austin', 'UTC', LAST - 120, LAST);
      for (let issue = LAST - 100; issue <= LAST; issue++) {
        const issuedAt = issue * DAY_MS + 12 * HOUR_MS;
        const days: KeptDay[] = [];
        for (let lead = 0; lead < 14 && issue + lead <= LAST; lead++)
          days.push({ day: issue + lead, lead, issuedAt, hours: 0, levels: levelsOf(observed.get(issue + lead)!) });
        store.issued.keep('austin', { issuedAt, source: DAILY, origin: 'build', days });
      }
      // A third provider's one forecast: too few days to be compared, or named.
      const once = (LAST - 2) * DAY_MS + 6 * HOUR_MS;
      const day = LAST - 1;
      store.issued.keep('austin', {
        issuedAt: once,
        source: 'ambee',
        origin: 'build',
        days: [{ day, lead: 1, issuedAt: once, hours: 24, levels: levelsOf(observed.get(day)!) }],
      });
    },
  });
  const browser = useBrowser(site);

  it('says which provider did better for the next day where the reader lives, over how many days, and names no provider with too few', async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('#panel section.skill');
    const json = async (path: string) => (await (await site.get(path)).json()) as Json;
    const skill = await json('/api/forecast-skill?city=austin');
    const c = await categoryToSpeakOf(json, 'austin', skill);
    const expected = expectedProvidersSentence(skill, c, 'Austin');
    expect(expected).toBeDefined();
    // The daily provider's forecast is the level observed: it did better than the sample's, beyond doubt.
    expect(expected).toContain(`Atmospore's ${c.category} forecast for the next day did better than Sample's`);
    expect(await page.textContent('.skill-providers')).toBe(expected);
    expect(await page.textContent('.skill-providers')).not.toContain('Ambee');
    // Its chart runs to the furthest lead a provider reaches.
    expect(await page.locator('.skill-chart').first().locator('text.tick', { hasText: /^13$/ }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe.skipIf(!hasChromium)("the city panel's 7-day strip", () => {
  const site = useSiteToToday(['austin'], Date.parse('2026-12-01T20:45:00Z'));
  const browser = useBrowser(site);

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
