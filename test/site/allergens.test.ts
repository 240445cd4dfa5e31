/**
 * A person's own allergens: `/api/alerts?species=` with the outlook of their categories, and the
 * page's picker in headless Chromium at 390 and 1280 px: the plants chosen are the headline's and
 * the 7-day strip's rows, and the alert links watch them. Austin's sample to yesterday, whatever day the test runs, with the outlook a build
 * issues today.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grade } from '../../src/domain/species/risk.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSiteToToday } from '../helpers/site.js';

type Json = Record<string, any>;

const site = useSiteToToday(['austin'], Date.parse('2026-12-01T20:45:00Z'));

describe('/api/alerts?species=', () => {
  it("gives the outlook of the watched allergens' categories, named as the categories'", async () => {
    const outlookOf = async (query: string) => {
      const body = (await (await site.get(`/api/alerts?city=austin&min=low&${query}`)).json()) as Json;
      expect(body.outlook?.length, query).toBeGreaterThan(0);
      return [...new Set((body.outlook as Json[]).flatMap((d) => d.categories.map((c: Json) => c.category)))];
    };
    expect(await outlookOf('species=oak,birch')).toEqual(['tree']);
    // Weed.Ragweed is forecast as the ragweed category already.
    expect(await outlookOf('species=ragweed')).toEqual(['ragweed']);
    expect(await outlookOf('categories=grass&species=oak')).toEqual(['tree', 'grass']);
    expect(await outlookOf('categories=weed')).toEqual(['weed']);
  });
});

/** The local date (en-CA: YYYY-MM-DD) of an instant in Austin. */
const austinDate = (ts: string) => new Date(ts).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });

describe.skipIf(!hasChromium)('the page with my allergens', () => {
  const browser = useBrowser(site);

  it.each([390, 1280])(
    'at %i px: picks plants, leads with their levels today and tomorrow, their categories first in the strip, alerts on them, kept',
    async (width) => {
      const page = await browser().newPage({ viewport: { width, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${site.server.url}/?city=austin`);
      await page.waitForSelector('#panel .strip');
      // Nothing chosen yet: the picker, closed, says what it is for; the headline speaks of categories.
      expect(await page.locator('.allergen-picker summary').textContent()).toBe('Choose the plants you react to');
      expect(await page.locator('#panel .today .readings').first().textContent()).toMatch(/^Tree /);
      await page.locator('.allergen-picker summary').click();
      await page.locator('.allergen-picker').getByLabel('Cypress / Juniper / Cedar').check();
      await page.locator('.allergen-picker').getByLabel('Oak', { exact: true }).check();
      await page.locator('.allergen-picker').getByLabel('Ragweed', { exact: true }).check();
      await page.waitForFunction(() => document.querySelector('#panel .today .readings')?.textContent?.includes('Ragweed'));
      expect(await page.locator('.allergen-picker summary').textContent()).toBe('Cypress / Juniper / Cedar, Oak, Ragweed (change)');

      // Each plant's level is its highest forecast hour of the local day, on its category's range;
      // where the forecast has no value of the plant, its category's level stands in, said so.
      const forecast = (await (await site.get('/api/forecast?city=austin')).json()) as Json;
      const days = (await (await site.get('/api/forecast?city=austin&aggregate=day&timezone=local&days=7')).json()) as Json;
      const levelOn = (category: 'tree' | 'weed', group: string, name: string, day: Json) => {
        const values = (forecast.rows as Json[])
          .filter((r) => austinDate(r.ts) === day.date)
          .map((r) => r.species?.[group]?.[name])
          .filter((v): v is number => typeof v === 'number');
        if (values.length === 0) return `${name} (${category} pollen) ${day[`peak_risk_${category}`]}`;
        return `${name} ${grade(category, Math.max(...values))}`;
      };
      const plants = [
        ['Cypress / Juniper / Cedar', 'tree', 'Tree'],
        ['Oak', 'tree', 'Tree'],
        ['Ragweed', 'weed', 'Weed'],
      ] as const;
      const headline = await page.locator('#panel .today .readings').allTextContents();
      expect(headline).toEqual(
        (days.rows as Json[])
          .slice(0, 2)
          .map((d) => plants.map(([name, category, group]) => levelOn(category, group, name, d)).join(' · ')),
      );
      // The strip's days say the same, plant by plant.
      for (const d of (days.rows as Json[]).slice(0, 2)) {
        const keys = await page
          .locator(`#panel .strip-day[data-date="${d.date}"] .strip-readings li`)
          .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-key')));
        expect(keys).toEqual(['cypress-juniper-cedar', 'oak', 'ragweed']);
      }

      // The alert links watch the plants, and what they answer is about them.
      const atom = await page.locator('.alert-links a[type="application/atom+xml"]').getAttribute('href');
      expect(atom).toBe('/api/alerts?city=austin&min=High&species=cypress-juniper-cedar,oak,ragweed&format=atom');
      expect(await page.locator('#alerts-note').textContent()).toContain('Cypress / Juniper / Cedar, Oak, Ragweed');
      const json = (await (await site.get(atom!.replace('&format=atom', ''))).json()) as Json;
      expect(json.species.map((s: Json) => s.slug)).toEqual(['cypress-juniper-cedar', 'oak', 'ragweed']);

      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.locator('#panel').screenshot({ path: join(ROOT, 'test-artifacts', `allergens-${width}.png`) });

      // Kept in this browser: a new visit leads with them again; unticking one drops it everywhere.
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#panel .today .readings')?.textContent?.includes('Ragweed'));
      await page.locator('.allergen-picker summary').click();
      await page.locator('.allergen-picker').getByLabel('Ragweed', { exact: true }).uncheck();
      await page.waitForFunction(() => !document.querySelector('#panel .today .readings')?.textContent?.includes('Ragweed'));
      expect(await page.locator('.alert-links a[type="application/atom+xml"]').getAttribute('href')).toBe(
        '/api/alerts?city=austin&min=High&species=cypress-juniper-cedar,oak&format=atom',
      );
      expect(await page.evaluate(() => localStorage.getItem('pollen-allergens'))).toBe('cypress-juniper-cedar,oak');
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );
});
