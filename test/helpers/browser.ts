/**
 * Debian's headless Chromium for the page tests: where it is (CHROMIUM_PATH, else
 * /usr/bin/chromium, which .ci/run installs), and one browser per suite.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** A headless Chromium launched before the suite and closed after it; `browser()` gives it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });
  afterAll(async () => browser?.close());
  return () => browser!;
}
