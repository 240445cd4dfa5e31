/**
 * The page as a person with allergies in Tulsa reads it, on a phone and a desk: nothing wider than
 * the screen, today first, their plants in every number, one answer per day.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSiteToToday } from '../helpers/site.js';

const WIDTHS = [320, 390, 1280] as const;

async function openTulsa(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/?city=tulsa`);
  await page.waitForSelector('#panel .today .day-level');
}

describe.skipIf(!hasChromium)('the page on a phone, in Tulsa in spring', () => {
  // Mid-April, late afternoon in Tulsa (CDT): tree pollen in season.
  const site = useSiteToToday(['tulsa', 'austin', 'wichita', 'new-york'], Date.parse('2026-04-14T22:00:00Z'));
  const browser = useBrowser(site);

  it.each(WIDTHS)('at %i px fits the screen and shows the city and today first', { timeout: 120_000 }, async (width) => {
    const page = await browser().newPage({ viewport: { width, height: width > 800 ? 900 : 844 } });
    await openTulsa(page, site.server.url);
    await page.waitForSelector('#panel section.alerts');
    await page.waitForSelector('#markers .marker');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', `phone-${width}.png`), fullPage: true });
    const wide = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    const offenders = await page.evaluate((w) =>
      [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.scroll-x'))
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    width);
    expect(offenders).toEqual([]);
    expect(wide).toBeLessThanOrEqual(width);
    await page.close();
  });
});
