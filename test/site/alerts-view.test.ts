/**
 * The city panel's alerts in headless Chromium on a phone's width: what the coming days hold at
 * the level chosen, read against the API's own JSON answer at that level, and the calendar's
 * links: webcal: to subscribe, https: to paste into a calendar that asks for a URL. The sample's
 * days of 1-10 April 2025, at 15:00 UTC on the 11th: Austin's trees are High, never Very High;
 * Honolulu's oak and ragweed never reach Low.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;

const DAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const day = (date: string) => DAY.format(new Date(`${date}T12:00:00Z`));

describe.skipIf(!hasChromium)("the city panel's alerts", () => {
  const site = useSite({ cities: ['austin', 'honolulu'] });
  const browser = useBrowser(site);

  /** The panel of a city on a phone, with these plants kept as the reader's own. */
  const open = async (slug: string, plants = '') => {
    const context = await browser().newContext({ viewport: { width: 390, height: 900 } });
    if (plants !== '') await context.addInitScript((kept) => localStorage.setItem('pollen-allergens', kept), plants);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/?city=${slug}`);
    await page.waitForSelector('#panel section.alerts .alerts-sentence');
    return { page, errors, close: () => context.close() };
  };
  const json = async (path: string) => (await (await site.get(path)).json()) as Json;
  const sentence = (page: Awaited<ReturnType<typeof open>>['page']) => page.locator('section.alerts .alerts-sentence').textContent();
  const days = (page: Awaited<ReturnType<typeof open>>['page']) => page.locator('section.alerts .alerts-days li').allTextContents();

  it('says nothing is expected for the plants watched when the API has no alert, at the level chosen', async () => {
    const { page, errors, close } = await open('honolulu', 'oak,ragweed');
    const answer = await json('/api/alerts?city=honolulu&min=High&species=oak,ragweed');
    expect([answer.alerts, answer.species.map((s: Json) => s.name)]).toEqual([[], ['Oak', 'Ragweed']]);
    const [first, last] = [answer.dates[0] as string, answer.dates.at(-1) as string];
    expect(await sentence(page)).toBe(`Nothing expected at ${answer.min} or above for Oak or Ragweed from ${day(first)} to ${day(last)}.`);
    expect(await days(page)).toEqual([]);
    // The feeds of the same subscription say it too.
    const feed = await json('/api/alerts?city=honolulu&min=High&species=oak,ragweed&format=jsonfeed');
    expect(feed.description).toContain(await sentence(page));
    expect(errors).toEqual([]);
    await close();
  });

  it('lists the days and levels the API expects, and follows the level chosen', async () => {
    const { page, errors, close } = await open('austin');
    const expected = async (min: string) => {
      const answer = await json(`/api/alerts?city=austin&min=${encodeURIComponent(min)}`);
      return answer.alerts.length === 0
        ? {
            sentence: `Nothing expected at ${min} or above for tree, grass, weed or ragweed pollen from ${day(answer.dates[0])} to ${day(answer.dates.at(-1))}.`,
            days: [],
          }
        : {
            sentence: `Expected at ${min} or above:`,
            days: (answer.alerts as Json[]).map(
              (a) => `${day(a.date)}: ${(a.categories as Json[]).map((c) => `${c.risk} ${c.category} pollen`).join(', ')}`,
            ),
          };
    };
    const shown = async () => ({ sentence: await sentence(page), days: await days(page) });
    const high = await expected('High');
    expect(high.days.length).toBeGreaterThan(0);
    expect(await shown()).toEqual(high);
    // Another level is read from the one answer the section asked for: no request of its own.
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/alerts') && asked.push(r.url()));
    const veryHigh = await expected('Very High');
    expect(veryHigh.days).toEqual([]);
    await page.getByLabel('Alert me at').selectOption('Very High');
    expect(await shown()).toEqual(veryHigh);
    await page.getByLabel('Alert me at').selectOption('Low');
    expect(await shown()).toEqual(await expected('Low'));
    expect(asked).toEqual([]);
    await page.getByLabel('Alert me at').selectOption('High');
    expect(errors).toEqual([]);
    await close();
  });

  it('says only that the days could not be checked when the request fails, and keeps the links', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 900 } });
    // The section's one JSON request fails; the subscriptions' own links are not fetched by the page.
    await context.route(/\/api\/alerts\?(?!.*format=)/, (route) => route.fulfill({ status: 503, json: { error: 'unavailable' } }));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${site.server.url}/?city=austin`);
    const block = page.locator('#panel section.alerts');
    await block.getByText('could not be checked').waitFor();
    expect(await block.locator('.alerts-coming').textContent()).toBe(
      'The coming days could not be checked just now; the links below still work.',
    );
    expect(await block.locator('.alert-links a').count()).toBe(4);
    await page.getByLabel('Alert me at').selectOption('Low');
    expect(await block.locator('.alerts-coming').textContent()).toContain('could not be checked');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the calendar as webcal: to subscribe and as https: for Google Calendar, both the same calendar', async () => {
    const { page, errors, close } = await open('austin');
    const block = page.locator('#panel section.alerts');
    const href = (name: string) => block.getByRole('link', { name, exact: true }).getAttribute('href');
    const path = '/api/alerts?city=austin&min=High&format=ics';
    const webcal = await href('Subscribe (Apple Calendar, Outlook)');
    const https = await href('Calendar link (Google Calendar: From URL)');
    expect(webcal).toBe(`webcal://${new URL(site.server.url).host}${path}`);
    // The page's own scheme: https on a deployment, http on this local server.
    expect(https).toBe(`${site.server.url}${path}`);
    expect(await block.textContent()).toContain('From URL');
    const res = await fetch(https!);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const answer = await json('/api/alerts?city=austin&min=High');
    expect(events.map((e) => e.uid)).toEqual((answer.alerts as Json[]).map((a) => a.id.replace('urn:uuid:', '')));
    expect(await fetch(webcal!.replace(/^webcal:/, 'http:')).then((r) => r.text())).toBe(await fetch(https!).then((r) => r.text()));
    // Nothing in the section is wider than the phone.
    expect(await block.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });
});
