/**
 * The map at 200 cities (cities/us-top-200.json, one sample day) in headless Chromium: at 390 px
 * the cities whose markers would overlap are grouped, every group says how many it holds, no
 * marker lies over another, and a tap on a group lists its cities, each of which opens.
 */
import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCityFile } from '../../src/domain/city-file.js';
import { dayNumber } from '../../src/domain/dates.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

const TOP_200 = readCityFile(join(ROOT, 'cities', 'us-top-200.json'));
const DAY = dayNumber('2025-04-09');

describe.skipIf(!hasChromium)('the map of 200 cities', () => {
  const site = useSite({ cities: TOP_200, span: { from: DAY, to: DAY } });
  const browser = useBrowser(site);

  it.each([
    [390, 'groups'],
    [1280, 'groups fewer'],
  ])(
    'at %i px %s: every city in one marker, none over another, a group listing its cities',
    async (width) => {
      // A context of its own: axe-core's Playwright runner asks for one.
      const context = await browser().newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${site.server.url}/`);
      await page.waitForSelector('#markers .marker');
      await page.waitForFunction(() => /^\d+ cities on /.test(document.querySelector('#map-status')?.textContent ?? ''));
      const markers = await page.locator('#markers .marker').evaluateAll((els) =>
        els.map((e) => ({
          city: e.getAttribute('data-city'),
          cities: e.getAttribute('data-cities')?.split(',') ?? [],
          label: e.getAttribute('aria-label') ?? '',
          count: e.querySelector('text.count')?.textContent ?? null,
          box: e.querySelector('circle')!.getBoundingClientRect().toJSON() as { x: number; y: number; width: number },
        })),
      );
      // Every city is in exactly one marker: its own or a group's.
      const covered = markers.flatMap((m) => (m.city ? [m.city] : m.cities)).sort();
      expect(covered).toEqual(TOP_200.map((c) => c.slug).sort());
      const groups = markers.filter((m) => m.cities.length > 0);
      if (width === 390) expect(markers.length).toBeLessThan(120); // grouped: 200 markers would not fit a phone's map
      for (const g of groups) {
        expect(g.count).toBe(String(g.cities.length));
        expect(g.label).toMatch(
          new RegExp(`^${g.cities.length} cities around .+: highest risk (None|Low|Moderate|High|Very High)\\. Opens the list of them\\.$`),
        );
      }
      // No marker's target lies over another's: each stays at least 24 px across.
      const centres = markers.map((m) => [m.box.x + m.box.width / 2, m.box.y + m.box.width / 2, m.box.width / 2] as const);
      for (let i = 0; i < centres.length; i++)
        for (let j = i + 1; j < centres.length; j++) {
          const [a, b] = [centres[i]!, centres[j]!];
          expect(Math.hypot(a[0] - b[0], a[1] - b[1]), `${i} ${j}`).toBeGreaterThanOrEqual(a[2] + b[2] - 1);
        }
      for (const m of markers) expect(m.box.width).toBeGreaterThanOrEqual(24);
      // A group's count is as readable as a digit, and lies over no other marker.
      const counts = await page.locator('#markers .marker text.count').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
      for (const h of counts) expect(h).toBeGreaterThanOrEqual(12);
      const badges = await page.locator('#markers .marker circle.count').evaluateAll((cs) =>
        cs.map((c) => {
          const r = c.getBoundingClientRect();
          return [r.x + r.width / 2, r.y + r.height / 2, r.width / 2] as const;
        }),
      );
      for (const b of badges)
        expect(centres.filter((c) => Math.hypot(b[0] - c[0], b[1] - c[1]) < b[2] + c[2] - 1).length, 'markers under a badge').toBe(1);

      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.locator('figure.map').screenshot({ path: join(ROOT, 'test-artifacts', `map-200-${width}.png`) });
      // A tap on the largest group lists its cities by name and level; one of them opens its panel.
      const largest = [...groups].sort((a, b) => b.cities.length - a.cities.length)[0];
      expect(largest, 'a group at this width').toBeDefined();
      await page.locator(`#markers .marker[data-cities="${largest!.cities.join(',')}"]`).click();
      const list = page.locator('#group-list');
      await list.waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('group-title');
      expect(await list.locator('h3').textContent()).toBe(largest!.label.split(':')[0]);
      const buttons = list.locator('ul button');
      expect((await buttons.evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.city))).sort()).toEqual(
        [...largest!.cities].sort(),
      );
      await page.screenshot({ path: join(ROOT, 'test-artifacts', `map-200-${width}-group.png`) });
      // axe-core finds no serious or critical violation with the group's list open.
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      // Escape returns to the group's marker.
      await page.keyboard.press('Escape');
      expect(await list.isHidden()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-cities'))).toBe(largest!.cities.join(','));
      await page.locator(`#markers .marker[data-cities="${largest!.cities.join(',')}"]`).press('Enter');
      const first = buttons.first();
      const slug = await first.getAttribute('data-city');
      await first.click();
      await page.waitForFunction((s) => new URL(location.href).searchParams.get('city') === s, slug);
      expect(await list.isHidden()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    },
    180_000,
  );
});
