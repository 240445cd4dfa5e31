/** The city panel's season view in headless Chromium, on two years of the sample provider's data. */
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;

describe.skipIf(!hasChromium)('the season view in headless Chromium', () => {
  const site = useSite({ cities: ['austin', 'boise'], span: { from: dayNumber('2023-05-01'), to: dayNumber('2025-04-10') } });
  const browser = useBrowser();

  it("draws each category's year against the earlier years, marks its start and peak, and says it in a sentence with the API's numbers", async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('section.season .season-chart');
    const answer = (await (await site.get('/api/season?city=austin&timezone=local')).json()) as Json;
    expect(await page.textContent('section.season h3')).toBe(`Pollen seasons, ${answer.year} (local days)`);
    expect(await page.locator('#season-category option').allTextContents()).toEqual(['Tree', 'Grass', 'Weed', 'Ragweed']);

    for (const category of ['tree', 'grass']) {
      await page.selectOption('#season-category', category);
      const c = (answer.categories as Json[]).find((x) => x.category === category)!;
      const last = c.comparison.years.at(-1);
      const sentence = (await page.textContent('.season-sentence'))!;
      // 2025 is incomplete: its season has started, against 2024 (the one complete earlier year).
      expect(sentence).toMatch(new RegExp(`^${category === 'tree' ? 'Tree' : 'Grass'} season has started `));
      const d = last.start_difference_days as number;
      expect(sentence).toContain(
        d === 0 ? 'as last year' : `${Math.abs(d)} day${Math.abs(d) === 1 ? '' : 's'} ${d < 0 ? 'earlier' : 'later'} than last year`,
      );
      const p = last.ahead_pct as number;
      expect(sentence).toContain(p === 0 ? 'level with last year' : `${Math.abs(p)}% ${p > 0 ? 'ahead of' : 'behind'} last year`);
      // This year's curve and the earlier years', the start and peak marked, no end yet.
      expect(await page.locator('.season-chart polyline.season-this-year').count()).toBe(1);
      expect(await page.locator('.season-chart polyline.season-earlier').count()).toBeGreaterThanOrEqual(1);
      expect(await page.locator('.season-chart .season-start').count()).toBe(1);
      expect(await page.locator('.season-chart .season-peak').count()).toBe(1);
      expect(await page.locator('.season-chart .season-end').count()).toBe(0);
      const facts = await page.locator('.season-facts dd').allTextContents();
      expect(facts).toContain(`${Math.round(c.season.spin).toLocaleString('en-US')} grains·day/m³`);
      expect(facts).toContain('not yet (the year is incomplete)');
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
