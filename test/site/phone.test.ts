/**
 * The page as a person with allergies in Tulsa reads it, on a phone and a desk: nothing wider than
 * the screen, today first, their plants in every number, one answer per day, and a first visit
 * that stays small. Every level expected is read from the API's own answers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { grade } from '../../src/domain/species/risk.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSiteToToday } from '../helpers/site.js';
import { meterTransfer } from '../helpers/transfer.js';

type Json = Record<string, any>;
const WIDTHS = [320, 390, 1280] as const;
const CATEGORIES = [
  ['tree', 'Tree'],
  ['grass', 'Grass'],
  ['weed', 'Weed'],
] as const;

async function openTulsa(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/?city=tulsa`);
  await page.waitForSelector('#panel .today .day-level');
}

/** What the elements right of the viewport are, outside a box that scrolls by itself. */
const overflowing = (page: Page, width: number) =>
  page.evaluate(
    (w) =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.closest('.scroll-x'))
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    width,
  );

/** Each shown day's rows as the headline and the strip say them: `key -> level`. */
async function pageDays(page: Page): Promise<{ headline: Map<string, string>; strip: Map<string, Map<string, string>> }> {
  const headline = new Map<string, string>(
    await page
      .locator('#panel .today .day-level')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-date')!, e.querySelector('.readings')!.textContent!] as [string, string])),
  );
  const strip = new Map<string, Map<string, string>>(
    (
      await page
        .locator('#panel .strip-day')
        .evaluateAll((els) =>
          els.map(
            (e) =>
              [
                e.getAttribute('data-date')!,
                [...e.querySelectorAll('.strip-readings li')].map((li) => [
                  li.getAttribute('data-key')!,
                  li.querySelector('.badge')!.textContent!,
                ]),
              ] as [string, [string, string][]],
          ),
        )
    ).map(([date, rows]) => [date, new Map(rows)]),
  );
  return { headline, strip };
}

describe.skipIf(!hasChromium)('the page on a phone, in Tulsa in spring', () => {
  // Mid-April, late afternoon in Tulsa (CDT): tree pollen in season.
  const site = useSiteToToday(['tulsa', 'austin', 'wichita', 'new-york'], Date.parse('2026-04-14T22:00:00Z'));
  const browser = useBrowser(site);
  const answer = async (path: string): Promise<Json> => (await site.get(path)).json() as Promise<Json>;

  it.each(WIDTHS)('at %i px fits the screen and shows the city and today first', { timeout: 120_000 }, async (width) => {
    const height = width > 800 ? 900 : 844;
    const page = await browser().newPage({ viewport: { width, height } });
    await openTulsa(page, site.server.url);
    // The heading and today's level are in the first screen, and the heading has the focus.
    for (const selector of ['#panel-title', '#panel .today .day-level .badge']) {
      const box = (await page.locator(selector).first().boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('panel-title');
    expect(await page.textContent('#panel-title')).toBe('Tulsa');
    await page.waitForSelector('#panel section.alerts');
    await page.waitForSelector('#markers .marker');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', `readme-${width}.png`) });
    await page.waitForSelector('#panel section.alerts');
    await page.waitForSelector('#markers .marker');
    // Every section open: the plant picker, the forecast's skill, the bulk files.
    await page.locator('.allergen-picker summary').click();
    await page.locator('details.skill > summary').click();
    await page.waitForSelector('details.skill .skill-sentence');
    await page.locator('#bulk summary').click();
    await page.waitForSelector('#bulk-files tr');
    expect(await overflowing(page, width)).toEqual([]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
    // The plant picker shows every plant inside the screen.
    const boxes = await page.locator('.allergen-picker label').evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect().right));
    expect(boxes.length).toBeGreaterThan(3);
    expect(Math.max(...boxes)).toBeLessThanOrEqual(width);
    // The strip shows each of its days whole, at every width.
    const days = await page.locator('#panel .strip-day').count();
    expect(days).toBeGreaterThanOrEqual(7);
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', `phone-${width}.png`), fullPage: true });
    await page.close();
  });

  it('says each day once: the headline and the strip agree, from the forecast, then the outlook, then the usual', {
    timeout: 120_000,
  }, async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    await openTulsa(page, site.server.url);
    const forecast = await answer('/api/forecast?city=tulsa&aggregate=day&timezone=local&days=7');
    const { headline, strip } = await pageDays(page);
    // Today is Tulsa's today by the service's clock: 17:00 CDT on Apr 14.
    expect([...headline.keys()]).toEqual(['2026-04-14', '2026-04-15']);
    expect(await page.textContent('#panel .panel-day')).toBe('Today is Tuesday, Apr 14 in Tulsa.');
    for (const [date, readings] of headline) {
      const row = (forecast.rows as Json[]).find((r) => r.date === date)!;
      expect(readings).toBe(CATEGORIES.map(([key, label]) => `${label} ${row[`peak_risk_${key}`]}`).join(' · '));
      expect(Object.fromEntries(strip.get(date)!)).toEqual(Object.fromEntries(CATEGORIES.map(([key]) => [key, row[`peak_risk_${key}`]])));
    }
    // Beyond the forecast, the outlook's most likely level, said as the outlook or the usual.
    const sources = await page
      .locator('#panel .strip-day')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-date'), e.getAttribute('data-source')]));
    for (const [date, source] of sources) {
      const row = (forecast.rows as Json[]).find((r) => r.date === date);
      if (row) {
        expect(source).toBe('forecast');
        continue;
      }
      const day = (forecast.outlook.dates as Json[]).find((d) => d.date === date)!;
      const served = new Set(CATEGORIES.map(([key]) => day.categories.find((c: Json) => c.category === key).served));
      expect(source).toBe(served.size === 2 ? 'mixed' : served.has('outlook') ? 'outlook' : 'usual');
      for (const [key] of CATEGORIES)
        expect(strip.get(date!)!.get(key)).toBe(day.categories.find((c: Json) => c.category === key).most_likely);
    }
    await page.close();
  });

  it("carries the reader's plant through the headline and the strip, and says what stands in for it", { timeout: 120_000 }, async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await openTulsa(page, site.server.url);
    await page.locator('.allergen-picker summary').click();
    const oak = page.locator('.allergen-picker').getByLabel('Oak', { exact: true });
    const before = (await oak.boundingBox())!.y;
    await oak.check();
    await page.waitForFunction(() => document.querySelector('#panel .today .readings')?.textContent?.startsWith('Oak'));
    // The box ticked keeps its place and its focus.
    expect(Math.abs((await oak.boundingBox())!.y - before)).toBeLessThan(2);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('oak');
    const hourly = await answer('/api/forecast?city=tulsa');
    const forecast = await answer('/api/forecast?city=tulsa&aggregate=day&timezone=local&days=7');
    const { headline, strip } = await pageDays(page);
    for (const [date, readings] of headline) {
      // Oak's worst forecast hour of Tulsa's local day, graded on the tree range.
      const local = (ts: string) => new Date(ts).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });
      const values = (hourly.rows as Json[]).filter((r) => local(r.ts) === date).map((r) => r.species?.Tree?.Oak as number);
      const level = grade('tree', Math.max(...values));
      expect(readings).toBe(`Oak ${level}`);
      expect(strip.get(date)!.get('oak')).toBe(level);
    }
    // Where the outlook speaks, tree pollen stands in for Oak, and the page says so.
    const later = (forecast.outlook.dates as Json[]).filter(
      (d) => strip.has(d.date) && !(forecast.rows as Json[]).some((r) => r.date === d.date),
    );
    expect(later.length).toBeGreaterThan(0);
    for (const d of later) expect(strip.get(d.date)!.get('oak')).toBe(d.categories.find((c: Json) => c.category === 'tree').most_likely);
    expect(await page.locator(`#panel .strip-day[data-date="${later[0]!.date}"] .reading-name`).first().textContent()).toBe(
      'Oak (tree pollen)',
    );
    expect(await page.textContent('#outlook-note')).toContain("a plant's category stands in for it");
    // Kept for the next visit.
    await page.reload();
    await page.waitForFunction(() => document.querySelector('#panel .today .readings')?.textContent?.startsWith('Oak'));
    await context.close();
  });

  it.each([390, 1280])(
    'has no serious or critical accessibility violation at %i px with every section open',
    { timeout: 120_000 },
    async (width) => {
      const context = await browser().newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await openTulsa(page, site.server.url);
      await page.waitForSelector('#panel section.alerts');
      await page.waitForSelector('#markers .marker');
      await page.locator('.allergen-picker summary').click();
      await page.locator('.allergen-picker').getByLabel('Oak', { exact: true }).check();
      await page.locator('details.skill > summary').click();
      await page.waitForSelector('details.skill .skill-sentence');
      await page.locator('#bulk summary').click();
      await page.waitForSelector('#bulk-files tr');
      // axe-core (Deque), WCAG 2.0 to 2.2, A and AA.
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      const grave = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id} (${v.impact}): ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 5)
              .join('; ')}`,
        );
      expect(grave).toEqual([]);
      await context.close();
    },
  );

  it('shows today after at most 300 KB on a first visit, compressed as the CDN sends it', { timeout: 120_000 }, async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    const meter = await meterTransfer(page);
    await openTulsa(page, site.server.url);
    const total = await meter.total();
    const urls = (await meter.responses()).map((r) => new URL(r.url).pathname);
    await meter.stop();
    expect(total).toBeLessThanOrEqual(300 * 1024);
    // The bulk index and the skill tables wait until they are opened.
    expect(urls).not.toContain('/data/bulk/index.json');
    expect(urls.some((u) => u.includes('forecast-skill'))).toBe(false);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('the page in Tulsa on a December evening', () => {
  // 21:30 CST on Dec 1 is Dec 2 in UTC: Tulsa's today is still Dec 1.
  const site = useSiteToToday(['tulsa'], Date.parse('2026-12-02T03:30:00Z'));
  const browser = useBrowser(site);

  it("takes today from the city's clock, and says a quiet day in plain words", { timeout: 120_000 }, async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    await openTulsa(page, site.server.url);
    expect(await page.textContent('#panel .panel-day')).toBe('Today is Tuesday, Dec 1 in Tulsa.');
    const first = await page.locator('#panel .today .day-level').first().getAttribute('data-date');
    expect(first).toBe('2026-12-01');
    const level = await page.locator('#panel .today .day-level .badge').first().textContent();
    const advice = await page.textContent('#panel .advice');
    if (level === 'None') expect(advice).toBe('Little or no pollen in the air.');
    expect(await overflowing(page, 390)).toEqual([]);
    await page.close();
  });
});
