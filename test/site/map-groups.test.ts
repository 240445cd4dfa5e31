/**
 * The map at 200 cities (cities/us-top-200.json, one sample day) in headless Chromium: at 390 px
 * the cities whose markers would overlap are grouped, every group says how many it holds, no
 * marker lies over another, and a tap on a group lists its cities, each of which opens. Then
 * drawMarkers alone on the 1000 cities of cities/us-top-1000.json: no marker over another at any
 * width, a group's count a pill, markers coloured by one category, and forecast markers dashed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type City, DEFAULT_CITIES } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { dayNumber } from '../../src/domain/dates.js';
import { mapFeature } from '../../src/domain/map.js';
import type { MapDay, PollenRisk } from '../../src/domain/schemas.js';
import type * as MapApp from '../../src/site/app/map.js';
import { RISK_COLOURS } from '../../src/site/app/risk.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

type Risk = Exclude<PollenRisk, null>;
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
      await page.waitForFunction(() => /^\d+ cities measured on /.test(document.querySelector('#map-status')?.textContent ?? ''));
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
        expect(g.count).toBe(`+${g.cities.length - 1}`);
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
      // A group's count is as readable as a digit, and its pill lies over no other marker.
      const counts = await page.locator('#markers .marker text.count').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
      for (const h of counts) expect(h).toBeGreaterThanOrEqual(12);
      const pills = await page
        .locator('#markers .marker rect.count')
        .evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().toJSON() as DOMRect));
      // A circle reaches under a pill where the pill's nearest point to its centre is within its radius.
      const under = (p: DOMRect, [x, y, r]: readonly [number, number, number]) =>
        Math.hypot(x - Math.min(Math.max(x, p.x), p.x + p.width), y - Math.min(Math.max(y, p.y), p.y + p.height)) < r - 1;
      for (const p of pills) expect(centres.filter((c) => under(p, c)).length, 'markers under a pill').toBe(1);

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

/** map.ts bundled on its own, as the page's bundle holds it, exposed as `window.mapApp`. */
async function mapModule(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'src', 'site', 'app', 'map.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'mapApp',
    write: false,
  });
  return out.outputFiles[0]!.text;
}

const TOP_1000 = readCityFile(join(ROOT, 'cities', 'us-top-1000.json'));
const LEVELS = ['None', 'Low', 'Moderate', 'High', 'Very High'] as const;

/** A map feature of a city, its categories at the levels given (ragweed with weed). */
function featureOf(city: City, [tree, grass, weed]: readonly [Risk, Risk, Risk], forecast = false) {
  const day: MapDay = {
    date: '2025-04-09',
    tree: 1,
    grass: 1,
    weed: 1,
    ragweed: 1,
    risk_tree: tree,
    risk_grass: grass,
    risk_weed: weed,
    risk_ragweed: weed,
    timezone: city.timezone,
  };
  const f = mapFeature(city, [day, day, day]);
  return forecast ? { ...f, properties: { ...f.properties, forecast: true } } : f;
}

describe.skipIf(!hasChromium)('the markers drawMarkers draws', () => {
  const browser = useBrowser({ now: Date.parse('2025-04-09T15:00:00Z') });
  let code: string;
  let css: string;
  beforeAll(async () => {
    code = await mapModule();
    css = readFileSync(join(ROOT, 'src', 'site', 'style.css'), 'utf8');
  });

  /** A page holding the map's SVG at `width` px with map.ts loaded, its markers fitted to the width. */
  async function mapPage(width: number) {
    const page = await browser().newPage({ viewport: { width: width + 40, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setContent(
      `<style>${css}</style><figure class="map"><svg id="map" viewBox="0 0 975 610" style="width:${width}px"><g id="markers"></g></svg></figure>`,
    );
    await page.addScriptTag({ content: code });
    await page.evaluate(() => {
      const w = window as unknown as { mapApp: typeof MapApp };
      w.mapApp.fitMarkers(document.querySelector('#map')!, document.querySelector('#markers')!);
    });
    return { page, errors };
  }

  /** Draws features and reads each marker back: its centre and circle radius in the map's units, from its transform. */
  const draw = (page: Page, features: unknown[], colourBy?: string) =>
    page.evaluate(
      ({ features, colourBy, names }) => {
        const w = window as unknown as { mapApp: typeof MapApp };
        const layer = document.querySelector<SVGGElement>('#markers')!;
        w.mapApp.drawMarkers(
          layer,
          features as Parameters<typeof MapApp.drawMarkers>[1],
          new Map(names),
          () => undefined,
          colourBy as never,
        );
        const scale = Number(layer.style.getPropertyValue('--marker-scale') || 1);
        return [...layer.querySelectorAll<SVGGElement>('.marker')].map((g) => {
          const [x, y] = g
            .getAttribute('transform')!
            .match(/-?[\d.]+/g)!
            .map(Number);
          const circle = g.querySelector('circle')!;
          const pill = g.querySelector('rect.count');
          return {
            city: g.getAttribute('data-city'),
            cities: g.getAttribute('data-cities')?.split(',') ?? [],
            label: g.getAttribute('aria-label') ?? '',
            fill: circle.getAttribute('fill'),
            dashed: circle.getAttribute('stroke-dasharray'),
            forecast: g.classList.contains('forecast'),
            count: g.querySelector('text.count')?.textContent ?? null,
            pill: pill && {
              rx: Number(pill.getAttribute('rx')),
              height: Number(pill.getAttribute('height')),
              width: Number(pill.getAttribute('width')),
              // Its box in the map's units, from the marker's transform and scale.
              left: x! + Number(pill.getAttribute('x')) * scale,
              top: y! + Number(pill.getAttribute('y')) * scale,
              right: x! + (Number(pill.getAttribute('x')) + Number(pill.getAttribute('width'))) * scale,
              bottom: y! + (Number(pill.getAttribute('y')) + Number(pill.getAttribute('height'))) * scale,
            },
            badgeCircles: g.querySelectorAll('circle').length,
            x: x!,
            y: y!,
            r: Number(circle.getAttribute('r')) * scale,
          };
        });
      },
      { features, colourBy, names: TOP_1000.map((c) => [c.slug, c.name] as [string, string]) },
    );

  it.each([390, 975, 1280])(
    "at %i px, no two of the 1000 cities' marker circles overlap, and each group says how many cities it holds",
    async (width) => {
      const { page, errors } = await mapPage(width);
      const features = TOP_1000.map((c, i) => featureOf(c, [LEVELS[i % 5]!, LEVELS[(i * 3) % 5]!, LEVELS[(i * 7) % 5]!]));
      const markers = await draw(page, features);
      expect(markers.flatMap((m) => (m.city ? [m.city] : m.cities)).sort()).toEqual(TOP_1000.map((c) => c.slug).sort());
      for (let i = 0; i < markers.length; i++)
        for (let j = i + 1; j < markers.length; j++) {
          const [a, b] = [markers[i]!, markers[j]!];
          expect(Math.hypot(a.x - b.x, a.y - b.y), `${a.city ?? a.cities[0]} and ${b.city ?? b.cities[0]}`).toBeGreaterThanOrEqual(
            a.r + b.r,
          );
        }
      // No group's pill lies over another marker's circle.
      for (const g of markers.filter((m) => m.pill))
        for (const m of markers.filter((o) => o !== g)) {
          const p = g.pill!;
          const near = Math.hypot(m.x - Math.min(Math.max(m.x, p.left), p.right), m.y - Math.min(Math.max(m.y, p.top), p.bottom));
          expect(near, `the pill of ${g.cities[0]} over ${m.city ?? m.cities[0]}`).toBeGreaterThanOrEqual(m.r);
        }
      // Las Vegas and Los Angeles each have a marker of their own, or share a group: neither hides the other.
      const holding = (slug: string) => markers.find((m) => m.city === slug || m.cities.includes(slug))!;
      const [vegas, la] = [holding('las-vegas'), holding('los-angeles')];
      if (vegas !== la) expect(Math.hypot(vegas.x - la.x, vegas.y - la.y)).toBeGreaterThanOrEqual(vegas.r + la.r);
      // A group's count is a pill reading "+N" (its worst city and N more), never a digit on a circle as a level is.
      const groups = markers.filter((m) => m.cities.length > 0);
      expect(groups.length).toBeGreaterThan(0);
      for (const g of groups) {
        expect(g.count).toBe(`+${g.cities.length - 1}`);
        expect(g.pill!.rx).toBe(g.pill!.height / 2);
        expect(g.pill!.width).toBeGreaterThan(g.pill!.height);
        expect(g.badgeCircles).toBe(1);
        expect(g.label).toMatch(
          new RegExp(`^${g.cities.length} cities around .+: highest risk (None|Low|Moderate|High|Very High)\\. Opens the list of them\\.$`),
        );
      }
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  it('colours by one category when asked, and draws forecast features dashed and labelled forecast', async () => {
    const { page, errors } = await mapPage(1280);
    const austin = DEFAULT_CITIES.get('austin')!;
    const levels: [Risk, Risk, Risk] = ['Very High', 'Low', 'Moderate'];
    const worst = await draw(page, [featureOf(austin, levels)]);
    expect(worst).toMatchObject([{ city: 'austin', fill: RISK_COLOURS['Very High'], forecast: false, dashed: null }]);
    expect(worst[0]!.label).toBe('Austin: highest risk Very High (tree Very High, grass Low, weed Moderate, ragweed Moderate)');
    for (const [category, level] of [
      ['tree', 'Very High'],
      ['grass', 'Low'],
      ['weed', 'Moderate'],
      ['ragweed', 'Moderate'],
    ] as const) {
      const [m] = await draw(page, [featureOf(austin, levels)], category);
      expect(m!.fill, category).toBe(RISK_COLOURS[level]);
      expect(m!.label).toMatch(new RegExp(`^Austin: ${category} risk ${level} \\(`));
    }
    const [forecast] = await draw(page, [featureOf(austin, levels, true)], 'grass');
    expect(forecast).toMatchObject({ forecast: true, fill: RISK_COLOURS.Low });
    expect(forecast!.dashed).not.toBeNull();
    expect(forecast!.label).toMatch(/^Austin, forecast: grass risk Low/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
