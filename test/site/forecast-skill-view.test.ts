/**
 * The city panel's forecast skill in headless Chromium: two sample years to 24 May 2026,
 * Austin with the sample's past forecasts of every served day made again, Wichita with those of
 * its last 20 days only (too few pairs for a score). The section is folded: its answer is fetched
 * when the reader opens it, and what it says is checked against counts made here from the API's
 * own contingency tables.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { ForecastSkill } from '../../src/domain/verification/skill-schemas.js';
import { type KeptDay, levelsOf } from '../../src/domain/verification/target-days.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { outlookSentence, providersSentence, skillSentence } from '../../src/site/app/skill-words.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite, useSiteToToday } from '../helpers/site.js';
import { bound, categoryToSpeakOf, counted, expectedSentence, fixed, type Json, leadOne } from '../helpers/skill-words.js';

/** The leads after tomorrow at which the served outlook is the outlook's own, and those at which it is the usual for the season. */
const servedAfterTomorrow = (c: Json) => {
  const after = (c.outlook?.days ?? []).filter((d: Json) => d.lead > 1);
  return {
    own: after.filter((d: Json) => d.served === 'outlook').map((d: Json) => d.lead),
    usual: after.filter((d: Json) => d.served === 'climatology').map((d: Json) => d.lead),
  };
};

/** Every text of the section's charts outside its chart, or overlapping another: none where each has its room. */
const crowded = (page: Page) =>
  page.locator('details.skill svg.skill-chart').evaluateAll((svgs) =>
    svgs.flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
      const outside = texts.filter(
        ({ r }) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1,
      );
      const overlapping = texts.flatMap((a, i) =>
        texts
          .slice(i + 1)
          .filter(
            (b) =>
              Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 0.5 &&
              Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 0.5,
          )
          .map((b) => `${a.text} / ${b.text}`),
      );
      return [...outside.map((t) => `outside: ${t.text}`), ...overlapping.map((t) => `overlapping: ${t}`)];
    }),
  );

/**
 * Pins the panel to `width` px, whatever the page's layout, before the page runs: the panel draws
 * its charts for its own width (chartWidth), so that they are drawn at the phone's width, one unit
 * a pixel.
 */
const pinPanel = (page: Page, width: number) =>
  page.addInitScript((w) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = `#panel { box-sizing: content-box !important; width: ${w}px !important; min-width: 0 !important; max-width: ${w}px !important; padding: 0 !important; } #panel svg.skill-chart { width: 100%; max-width: 100%; }`;
      document.head.append(style);
    });
  }, width);

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
  const json = async (path: string) => (await (await site.get(path)).json()) as Json;

  /** The panel of `slug`, with the section still folded, and the requests for its answer counted. */
  const openPanel = async (slug: string, width = 1100) => {
    const page = await browser().newPage({ viewport: { width, height: 1400 } });
    if (width < 1100) await pinPanel(page, width);
    const errors: string[] = [];
    const asked: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => {
      if (r.url().includes('/api/forecast-skill')) asked.push(r.url());
    });
    await page.goto(`${site.server.url}/?city=${slug}`);
    await page.waitForSelector('#panel details.skill');
    return { page, errors, asked };
  };
  const unfold = async (page: Page) => {
    await page.click('#panel details.skill > summary');
    await page.waitForSelector('#panel details.skill .skill-sentence');
  };

  it("fetches the answer only when opened, and says on how many days with pollen the forecast had the level right, beside yesterday's level and the usual for the season", async () => {
    const { page, errors, asked } = await openPanel('austin');
    expect(await page.textContent('#panel details.skill > summary')).toBe('How good has this forecast been?');
    expect(await page.locator('#panel details.skill').getAttribute('open')).toBeNull();
    expect(asked).toEqual([]);
    await unfold(page);
    expect(asked).toEqual([`${site.server.url}/api/forecast-skill?city=austin`]);
    // Folded and opened again: drawn once, fetched once.
    await page.click('#panel details.skill > summary');
    await page.click('#panel details.skill > summary');
    expect(asked).toHaveLength(1);

    const skill = await json('/api/forecast-skill?city=austin');
    expect(skill.archive.by.made_again).toBeGreaterThan(1000);
    const c = await categoryToSpeakOf(json, 'austin', skill);
    const w = leadOne(c);
    expect(w.days).toBeGreaterThanOrEqual(30);
    const f = counted(w.forecast.table);
    expect(f.days).toBeGreaterThan(0);
    const sentence = await page.textContent('.skill-sentence');
    expect(sentence).toBe(expectedSentence(skill, c));
    expect(sentence).toContain(`on the ${f.days} days with ${c.category} pollen in the last 90 days`);
    expect(sentence).toContain(`had the level right on ${f.right}`);
    expect(sentence).toContain(`yesterday's level would have been right on ${counted(w.persistence.table).right}`);
    // Whichever category today's levels pick, each category's answer reads right.
    const typed = ForecastSkill.parse(skill);
    for (const [i, other] of (skill.categories as Json[]).entries())
      expect(skillSentence(typed, typed.categories[i]!)).toBe(expectedSentence(skill, other));

    // The outlook after tomorrow, in a sentence: the usual for the season where it has not done better.
    const served = servedAfterTomorrow(c);
    const ahead = await page.textContent('.skill-outlook');
    if (served.own.length === 0)
      expect(ahead).toBe(
        `For ${c.category} pollen on the days after tomorrow, the outlook has not done better than the usual for the season, so the usual is what the 7-day strip shows.`,
      );
    else if (served.usual.length === 0)
      expect(ahead).toContain('the outlook has done better than the usual for the season, and the 7-day strip shows it');
    else expect(ahead).toContain(`${served.usual.at(-1)} days ahead it has not, so the strip shows the usual`);
    for (const [i, other] of (skill.categories as Json[]).entries()) {
      const s = servedAfterTomorrow(other);
      const words = outlookSentence(typed.categories[i]!);
      expect(words?.includes('has not done better than the usual for the season, so the usual')).toBe(s.own.length === 0);
    }

    // Plain words in the sentences; the score named once, in the fine print, with its interval and a link to the glossary.
    const said = (await page.locator('details.skill p:not(.fine)').allTextContents()).join(' ');
    expect(said).not.toMatch(/Gerrity|Heidke|RPSS|skill score/);
    const section = (await page.textContent('details.skill'))!;
    expect(section.match(/Gerrity/g)).toHaveLength(1);
    expect(await page.locator('details.skill p.fine a', { hasText: 'Gerrity skill score' }).getAttribute('href')).toBe('#glossary');
    const [low, high] = w.forecast.gerrity_interval;
    expect(section).toContain(`the day before: ${fixed(w.forecast.gerrity)} (${bound(low)} to ${bound(high)})`);
    // The answer itself only behind a small link.
    const links = await page
      .locator('details.skill a')
      .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]).filter(([, href]) => href?.includes('/api/')));
    expect(links).toEqual([['data', '/api/forecast-skill?city=austin']]);

    // The score of levels by days ahead: each line's points are the API's scores at the leads it gives one with an interval.
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
    expect(await charts.nth(0).locator('text.skill-shaded').allTextContents()).toEqual(['Shaded: the forecast reaches 2 days ahead']);
    expect(await page.locator('details.skill .series-legend li').allTextContents()).toEqual([
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
    const p1 = expected[0]!.points[1]!;
    expect(desc).toContain(`day 1 ${fixed(p1[1]!)} (${fixed(p1[2]!)} to ${fixed(p1[3]!)})`);
    expect(await crowded(page)).toEqual([]);

    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  for (const width of [280, 320, 390])
    it(`keeps every word of the charts inside them and clear of the others on a phone ${width} px wide`, async () => {
      const { page, errors } = await openPanel('austin', width);
      await unfold(page);
      await page.waitForSelector('#panel details.skill svg.skill-chart');
      expect(await crowded(page)).toEqual([]);
      // Drawn for the width given (the panel's), a unit a pixel, and every word in its place at that size.
      const drawn = await page
        .locator('#panel svg.skill-chart')
        .evaluateAll((svgs) =>
          svgs.map((s) => [Number(s.getAttribute('viewBox')!.split(' ')[2]), Math.round(s.getBoundingClientRect().width)]),
        );
      expect(drawn).toEqual(drawn.map(() => [width, width]));
      const captions = await page.locator('#panel svg.skill-chart text.skill-caption').allTextContents();
      expect(captions.join(' ')).toContain('score of levels by days ahead (1 perfect, 0 no skill)');
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

  it('says how many days were checked, and that they are too few to judge by, where fewer days are paired than a score needs', async () => {
    const { page, errors } = await openPanel('wichita');
    await unfold(page);
    const skill = await json('/api/forecast-skill?city=wichita');
    const c = await categoryToSpeakOf(json, 'wichita', skill);
    const w = leadOne(c);
    expect(w.days).toBeLessThan(30);
    expect(w.reason).not.toBeNull();
    expect(await page.textContent('.skill-sentence')).toBe(expectedSentence(skill, c));
    expect(await page.textContent('.skill-sentence')).toContain(`That is too few to judge the forecast by yet: ${w.reason}.`);
    // Persistence and climatology are scored on the forecast's days, so none of the first leads has a line, and no score is given.
    const drawn = await page
      .locator('.skill-chart')
      .first()
      .locator('.skill-line')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('class')));
    expect(drawn).not.toContain('skill-line skill-forecast');
    expect(await page.textContent('details.skill')).not.toContain('Gerrity');
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
  const json = async (path: string) => (await (await site.get(path)).json()) as Json;

  it('says on how many days with pollen each provider had the level right where the reader lives, which did better, and names no provider with too few', async () => {
    const page = await browser().newPage({ viewport: { width: 320, height: 1400 } });
    await pinPanel(page, 280);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/?city=austin`);
    await page.click('#panel details.skill > summary');
    await page.waitForSelector('#panel details.skill .skill-providers');
    const skill = await json('/api/forecast-skill?city=austin');
    const c = await categoryToSpeakOf(json, 'austin', skill);
    const side = leadOne(c).side_by_side;
    const byName = Object.fromEntries(
      (side.providers as Json[]).filter((p) => p.forecast).map((p) => [p.provider, counted(p.forecast.table)]),
    );
    const text = (await page.textContent('.skill-providers'))!;
    expect(text).toBe(
      providersSentence(
        ForecastSkill.parse(skill),
        ForecastSkill.parse(skill).categories.find((x) => x.category === c.category)!,
        'Austin',
      ),
    );
    // The daily provider's forecast is the level observed: right on every day with pollen, and better than the sample's beyond doubt.
    expect(byName.atmospore!.right).toBe(byName.atmospore!.days);
    expect(text).toContain(
      `In Austin, on the ${side.days} days in the last 90 that both providers forecast, ${byName.atmospore!.days} had ${c.category} pollen: Atmospore's forecast made the day before had the level right on ${byName.atmospore!.right} and Sample's on ${byName.sample!.right} (yesterday's level: ${counted(side.persistence.table).right}).`,
    );
    // Each provider against yesterday's level, as the answer's verdicts say: the perfect one better.
    const atmospore = (side.providers as Json[]).find((p) => p.provider === 'atmospore')!;
    expect(atmospore.forecast.verdicts.find((v: Json) => v.reference === 'persistence').verdict).toBe('better');
    expect(text).toContain("Counting how far off each miss was, Atmospore's was better than yesterday's level");
    expect(text).not.toContain('Ambee');
    // Its chart runs to the furthest lead a provider reaches, every second day labelled on a phone, every word clear of the others.
    const ticks = await page.locator('.skill-chart').first().locator('text.tick:not(.skill-caption)').allTextContents();
    expect(await crowded(page)).toEqual([]);
    expect(ticks).toEqual(expect.arrayContaining(['0', '2', '12']));
    expect(ticks).not.toContain('13');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

describe.skipIf(!hasChromium)("the city panel's 7-day strip", () => {
  const site = useSiteToToday(['austin'], Date.parse('2026-12-01T20:45:00Z'));
  const browser = useBrowser(site);

  it("gives, past the forecast's days, each category's most likely level and its chance, marking the usual for the season", async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('#panel .strip');
    const forecast = (await (await site.get('/api/forecast?city=austin&aggregate=day&timezone=local&days=7')).json()) as Json;
    expect(forecast.outlook.dates).toHaveLength(8);
    const days = await page.locator('#panel .strip-day').evaluateAll((els) =>
      els.map((e) => ({
        date: e.getAttribute('data-date')!,
        source: e.getAttribute('data-source')!,
        rows: [...e.querySelectorAll('.strip-readings li')].map((li) => li.textContent),
      })),
    );
    // Seven days from today; the forecast's own first, then the outlook's.
    expect(days).toHaveLength(7);
    expect(days[0]!.date).toBe(forecast.rows[0].date);
    const outlookDays = days.filter((d) => !(forecast.rows as Json[]).some((r) => r.date === d.date));
    expect(outlookDays.length).toBeGreaterThan(0);
    for (const d of outlookDays) {
      const day = (forecast.outlook.dates as Json[]).find((o) => o.date === d.date)!;
      expect(d.rows).toEqual(
        ['tree', 'grass', 'weed'].map((category) => {
          const x = day.categories.find((c: Json) => c.category === category);
          return `${category[0]!.toUpperCase()}${category.slice(1)} ${x.most_likely} ${Math.round(x.probabilities[x.most_likely] * 100)}% likely`;
        }),
      );
      const served = new Set(['tree', 'grass', 'weed'].map((c) => day.categories.find((x: Json) => x.category === c).served));
      expect(d.source).toBe(served.size === 2 ? 'mixed' : served.has('outlook') ? 'outlook' : 'usual');
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
