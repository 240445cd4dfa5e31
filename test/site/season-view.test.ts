/**
 * The city panel's season view in headless Chromium, on what `npm start` holds in late November:
 * two sample years of Austin to 24 November 2026.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;

describe.skipIf(!hasChromium)('the season view in headless Chromium', () => {
  const site = useSite({ cities: ['austin'], span: { from: dayNumber('2024-11-25'), to: dayNumber('2026-11-24') } });
  const browser = useBrowser(site);

  it('says where each season stands, draws this year against the complete earlier years only, and names only what it draws', async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('section.season .season-chart');
    const answer = (await (await site.get('/api/season?city=austin&timezone=local')).json()) as Json;
    const of = (category: string) => (answer.categories as Json[]).find((x) => x.category === category)!;
    expect(await page.textContent('section.season h3')).toBe('Pollen seasons (local days)');
    expect(await page.locator('#season-category option').allTextContents()).toEqual(['Tree', 'Grass', 'Weed', 'Ragweed']);

    // Tree: the year from 1 October 2026, before mountain cedar.
    expect(of('tree').status.state).toBe('not started');
    // A year under way is read by its exposure season, and the sentence says so.
    expect(await page.textContent('.season-sentence')).toBe('Tree exposure season has not started yet.');
    expect(await page.locator('.season-chart polyline').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-year')))).toEqual([
      '2027',
      '2026',
    ]);
    expect(await page.locator('section.season .series-legend li').allTextContents()).toEqual([
      'Oct 2026 to Sep 2027 (this year)',
      'Oct 2025 to Sep 2026',
    ]);
    expect((await page.locator('.season-facts dd').allTextContents()).slice(0, 2)).toEqual([
      'Not started',
      'none yet (5 days of 7 at 10 grains/m³ or more, summing to 100)',
    ]);

    // Grass and ragweed: ended weeks ago, provisionally, against 2025; 2024's stub (its last 37 days) is neither drawn nor named.
    for (const [category, label] of [
      ['grass', 'Grass'],
      ['ragweed', 'Ragweed'],
    ] as const) {
      await page.selectOption('#season-category', category);
      await page.waitForFunction((l) => document.querySelector('.season-sentence')?.textContent?.startsWith(l), label);
      const c = of(category);
      expect(c.status.state).toBe('ended');
      const last = c.comparison.years.at(-1);
      const p = last.ahead_pct as number;
      // The two sums the percentage compares are said beside it.
      const sums = `(${Math.round(c.comparison.cumulative).toLocaleString('en-US')} against ${Math.round(last.cumulative).toLocaleString('en-US')} grains·day/m³ by ${new Date(`${last.as_of}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })})`;
      const date = (d: string) =>
        new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
      expect(await page.textContent('.season-sentence')).toBe(
        `${label} exposure season ended on ${date(c.status.end)} (provisional: it may resume if pollen returns); it began on ${date(c.status.start)} and brought ${
          p === 0 ? 'as much pollen as' : `${Math.abs(p)}% ${p > 0 ? 'more pollen than' : 'less pollen than'}`
        } last year ${sums}.`,
      );
      expect(await page.locator('.season-chart polyline').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-year')))).toEqual([
        '2026',
        '2025',
      ]);
      expect(await page.locator('section.season .series-legend li').allTextContents()).toEqual(['2026 (this year)', '2025']);
      // The earlier year draws from its first days: no short stub at zero after this year's curve.
      const firstX = await page
        .locator('.season-chart polyline.season-earlier')
        .evaluate((l) => Number(l.getAttribute('points')!.split(' ')[0]!.split(',')[0]));
      expect(firstX).toBeLessThan(50);
      expect(await page.locator('.season-chart .season-end').count()).toBe(1);
      // The chart marks the start and end the sentence names, by the same name.
      expect(await page.locator('.season-chart .season-label').allTextContents()).toEqual(
        expect.arrayContaining([`exposure start ${date(c.status.start)}`, `exposure end ${date(c.status.end)}`]),
      );
      const facts = await page.locator('.season-facts dd').allTextContents();
      const long = (d: string) =>
        new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
      expect(facts.slice(0, 3)).toEqual([
        `Ended on ${long(c.status.end)} (provisional)`,
        `${long(c.status.start)} to ${long(c.status.end)} (5 days of 7 at 3 grains/m³ or more, summing to 30)`,
        `${long(c.season.start)} to ${long(c.season.end)} (provisional)`,
      ]);
      expect(facts).toContain(`${Math.round(c.season.spin).toLocaleString('en-US')} grains·day/m³`);
      // The year is under way: its highest day so far, which a later day may pass.
      expect(await page.locator('.season-facts dt').allTextContents()).toContain('Peak so far');
    }
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.locator('section.season').screenshot({ path: join(ROOT, 'test-artifacts', 'season-view.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
