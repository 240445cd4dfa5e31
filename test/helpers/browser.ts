/**
 * Debian's headless Chromium for the page tests: where it is (CHROMIUM_PATH, else
 * /usr/bin/chromium, which .ci/run installs), and one browser per suite.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** What a suite opens pages with: each page's and context's clock already standing at the site's now. */
export type ClockedBrowser = Pick<Browser, 'newPage' | 'newContext'>;

/**
 * A headless Chromium launched before the suite and closed after it; `browser()` gives it. Its
 * pages' clocks stand at `site.now` (read when each opens), the instant the site's server takes as
 * now, so that a page's "today" is the server's whatever the hour the test runs.
 */
export function useBrowser(site: { readonly now: number }): () => ClockedBrowser {
  let browser: Browser | undefined;
  const clocked: ClockedBrowser = {
    newContext: async (options) => {
      const context = await browser!.newContext(options);
      await context.clock.setFixedTime(site.now);
      return context;
    },
    newPage: async (options) => {
      const page = await browser!.newPage(options);
      await page.clock.setFixedTime(site.now);
      return page;
    },
  };
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });
  afterAll(async () => browser?.close());
  return () => clocked;
}
