/**
 * The city panel read at four fixed clocks, as a person opening the page then would: the first of
 * a month just after UTC midnight (the city still on the day before), March's DST week at 06:00 UTC
 * (Honolulu still on the evening before, as the scheduled build sees it), and the evening hours
 * 20:45 and 23:30 UTC. At each, "Today" is the city's calendar day at that instant, the outlook's
 * strip leads with it for 8 days, and the skill section speaks of the category and in the words
 * the API's answers give.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { useSiteToToday } from '../helpers/site.js';
import { categoryToSpeakOf, expectedSentence, type Json } from '../helpers/skill-words.js';

const CLOCKS: Array<{ at: string; city: string }> = [
  { at: '2026-12-01T00:30:00Z', city: 'austin' },
  { at: '2026-03-10T06:00:00Z', city: 'honolulu' },
  { at: '2026-05-25T20:45:00Z', city: 'austin' },
  { at: '2026-09-15T23:30:00Z', city: 'austin' },
];

/** The city's calendar date at an instant, and its day's name as the panel writes it. */
const localDate = (ms: number, zone: string) => new Date(ms).toLocaleDateString('en-CA', { timeZone: zone });
const longName = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });

for (const clock of CLOCKS) {
  describe.skipIf(!hasChromium)(`the city panel at ${clock.at} (${clock.city})`, () => {
    const now = Date.parse(clock.at);
    const site = useSiteToToday([clock.city], now);
    const browser = useBrowser(site);
    const json = async (path: string) => (await (await site.get(path)).json()) as Json;
    const zone = DEFAULT_CITIES.get(clock.city)!.timezone;

    it("leads with the city's today, gives the outlook from it, and speaks of the skill the API gives", async () => {
      const today = localDate(now, zone);
      // The answers first: the forecast's first local day and the outlook's first date are the city's today.
      const forecast = await json(`/api/forecast?city=${clock.city}&aggregate=day&timezone=local&days=7`);
      expect(forecast.rows[0].date).toBe(today);
      // From today to the last day the outlook reaches (7 days after its issue day: today, or for a city
      // west of UTC in its evening, yesterday, the latest whole UTC day's next), one date a day.
      const dates = (forecast.outlook.dates as Json[]).map((d) => d.date as string);
      const issued = forecast.outlook.issued as string;
      expect(dates[0]).toBe(today);
      expect([today, dayString(dayNumber(today) - 1)]).toContain(issued);
      expect(dates).toEqual(Array.from({ length: dayNumber(issued) + 8 - dayNumber(today) }, (_, i) => dayString(dayNumber(today) + i)));
      expect(forecast.outlook.dates.at(-1).lead).toBe(7);

      const page = await browser().newPage({ viewport: { width: 390, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${site.server.url}/?city=${clock.city}`);
      await page.waitForSelector('#panel .strip');
      expect(await page.locator('#panel section.today li.day-level strong').first().textContent()).toBe(`Today, ${longName(today)}`);
      // The strip's days: from today, each once, as far as the forecast or the outlook reaches.
      const stripDays = await page.locator('#panel .strip-day').evaluateAll((els) => els.map((e) => e.getAttribute('data-date')));
      expect(stripDays[0]).toBe(today);
      expect(stripDays).toEqual(Array.from({ length: stripDays.length }, (_, i) => dayString(dayNumber(today) + i)));
      expect(stripDays.length).toBe(Math.min(7, dates.length));
      await page.locator('details.skill > summary').click();
      await page.waitForSelector('.skill-sentence');

      const skill = await json(`/api/forecast-skill?city=${clock.city}`);
      const c = await categoryToSpeakOf(json, clock.city, skill);
      expect(await page.textContent('.skill-sentence')).toBe(expectedSentence(skill, c));
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  });
}
