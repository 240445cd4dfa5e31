/**
 * The season view in headless Chromium, built from the bundled module (src/site/app/season.ts) on
 * a page with the site's stylesheet, from the answers the site serves for Austin: two sample years
 * to 24 November 2026 (tree not started, grass, weed and ragweed ended), and to 15 April 2026
 * (tree and grass in season, weed not started).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { ROOT } from '../helpers/cli.js';
import { type Site, useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const CATEGORIES = ['tree', 'grass', 'weed', 'ragweed'] as const;
const LABEL: Record<string, string> = { tree: 'Tree', grass: 'Grass', weed: 'Weed', ragweed: 'Ragweed' };
/** Words of aerobiology and of the API that the main text must not use (the fine print names them once). */
const JARGON = /APIn|SPIn|EAACI|UTC|provisional|grains·day|NAB|exposure season|main season/i;

/** A date as the test expects it said: `Mar 22`. */
const said = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const days = (n: number) => `${Math.abs(n)} day${Math.abs(n) === 1 ? '' : 's'}`;

/** The module's bundle, as the site's build makes it, exposing seasonSection on window.seasonView. */
let bundle = '';
beforeAll(async () => {
  const out = await build({
    entryPoints: [join(ROOT, 'src/site/app/season.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'seasonView',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  bundle = out.outputFiles[0]!.text;
});

/** A page with the site's stylesheet and the season view's, and the module loaded. */
async function viewPage(site: Site, browser: ReturnType<typeof useBrowser>, errors: string[]): Promise<Page> {
  const page = await browser().newPage({ viewport: { width: 600, height: 1200 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setContent(
    `<!doctype html><html lang="en"><head><link rel="stylesheet" href="${site.server.url}/assets/app.css"></head><body><main id="root"></main></body></html>`,
  );
  await page.addStyleTag({ content: readFileSync(join(ROOT, 'src/site/season.css'), 'utf8') });
  await page.addScriptTag({ content: bundle });
  return page;
}

/** Draws the view into the page at `width`, opened on `prefer` when given. */
async function draw(page: Page, data: { answer: Json; rows: Json[] }, width: number, prefer?: string): Promise<void> {
  await page.evaluate(
    ({ answer, rows, width, prefer }) => {
      const root = document.getElementById('root')!;
      root.style.width = `${width}px`;
      const view = (window as unknown as { seasonView: { seasonSection: (...a: unknown[]) => HTMLElement } }).seasonView;
      root.replaceChildren(view.seasonSection(answer, rows, width, prefer));
    },
    { ...data, width, prefer },
  );
}

/** What the site serves for Austin: the season answer and the daily rows the panel passes. */
async function served(site: Site): Promise<{ answer: Json; rows: Json[] }> {
  const answer = (await (await site.get('/api/season?city=austin&timezone=local')).json()) as Json;
  const rows = ((await (await site.get('/api/pollen?city=austin&timezone=local')).json()) as Json).rows as Json[];
  return { answer, rows };
}

/** The main text: everything in the view but the fine print. */
const mainText = (page: Page) =>
  page.evaluate(() => {
    const section = document.querySelector('section.season')!.cloneNode(true) as HTMLElement;
    for (const fine of section.querySelectorAll('.season-fine')) fine.remove();
    const chart = section.querySelector('svg');
    return [section.textContent ?? '', chart?.getAttribute('aria-label') ?? ''].join(' ');
  });

/** Each text of the chart that lies outside its viewBox, and each pair of texts whose boxes overlap. */
const textProblems = (page: Page) =>
  page.evaluate(() => {
    const svg = document.querySelector('svg.season-chart') as SVGSVGElement;
    const [, , w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number) as [number, number, number, number];
    const boxes = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: t.getBBox() }));
    const outside = boxes.filter(({ box }) => box.x < 0 || box.y < 0 || box.x + box.width > w || box.y + box.height > h);
    const overlaps: string[] = [];
    boxes.forEach((a, i) => {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.box.x + a.box.width <= b.box.x ||
          b.box.x + b.box.width <= a.box.x ||
          a.box.y + a.box.height <= b.box.y ||
          b.box.y + b.box.height <= a.box.y;
        if (!apart) overlaps.push(`${a.text} / ${b.text}`);
      }
    });
    return { count: boxes.length, outside: outside.map((o) => o.text), overlaps };
  });

/** How this year compares with its one earlier year, as the test expects it said, from the answer's own numbers. */
function expectedCompare(c: Json): string {
  const [last] = c.comparison.years as Json[];
  const d = last!.start_difference_days as number;
  const start = d === 0 ? 'on the same day of the year as' : `${days(d)} ${d < 0 ? 'earlier' : 'later'} than`;
  const p = last!.ahead_pct as number;
  const near = Math.round(Math.abs(p) / 5) * 5;
  const amount = near === 0 ? 'about as much pollen as' : `about ${near}% ${p < 0 ? 'less' : 'more'} pollen than`;
  return `It started ${start} last year. So far this year there has been ${amount} by the same date last year.`;
}

/** The days of a season at High or Very High, as the sentence says them. */
function expectedHard(c: Json, sofar: boolean): string {
  const n = c.season.risk_days.High + c.season.risk_days['Very High'];
  return ` ${n} of its days were High or Very High${sofar ? ' so far' : ''}.`;
}

describe.skipIf(!hasChromium)('the season view, late November: seasons over or not begun', () => {
  const site = useSite({ cities: ['austin'], span: { from: dayNumber('2024-11-25'), to: dayNumber('2026-11-24') } });
  const browser = useBrowser(site);

  it('says in plain words when each season started, peaked and ended and how it compares, from the answer’s numbers', async () => {
    const errors: string[] = [];
    const page = await viewPage(site, browser, errors);
    const data = await served(site);
    const of = (category: string) => (data.answer.categories as Json[]).find((x) => x.category === category)!;
    await draw(page, data, 390);
    expect(await page.locator('section.season h3').textContent()).toBe('Pollen seasons');
    expect(await page.locator('.season-picker button').allTextContents()).toEqual(['Tree', 'Grass', 'Weed', 'Ragweed']);

    // Tree: its year from 1 October 2026, before mountain cedar; last year's start is the answer's row of that year.
    const tree = of('tree');
    expect(tree.status.state).toBe('not started');
    const lastTree = (data.answer.years as Json[]).find((y) => y.category === 'tree' && y.year === tree.year - 1)!;
    await page.click('.season-picker button[data-category="tree"]');
    expect(await page.textContent('.season-sentence')).toBe('Tree pollen season has not started yet.');
    expect(await page.textContent('.season-compare')).toBe(`Last year it started on ${said(lastTree.start)}.`);

    for (const category of ['grass', 'weed', 'ragweed']) {
      const c = of(category);
      expect(c.status.state).toBe('ended');
      expect(c.comparison.years).toHaveLength(1);
      await page.click(`.season-picker button[data-category="${category}"]`);
      expect(await page.getAttribute(`.season-picker button[data-category="${category}"]`, 'aria-pressed')).toBe('true');
      expect(await page.textContent('.season-sentence')).toBe(
        `${LABEL[category]} pollen season started on ${said(c.season.start)}, peaked on ${said(c.season.peak_date)} and ended on ${said(c.season.end)}; it can pick up again if pollen returns.${expectedHard(c, false)}`,
      );
      expect(await page.textContent('.season-compare')).toBe(expectedCompare(c));
      const text = await mainText(page);
      expect(text).not.toMatch(JARGON);
      expect(text).not.toMatch(/\d{2}:\d{2}|T\d{2}/); // no times
      // The terms are in the fine print, once, with the glossary a link away.
      const fine = (await page.textContent('.season-fine'))!;
      for (const term of ['APIn', 'SPIn', 'EAACI']) expect(fine.split(term)).toHaveLength(2);
      const total = (v: number) => Math.round(v).toLocaleString('en-US');
      expect(fine).toContain(`(${total(c.apin)} and ${total(c.season.spin)} grains·day/m³ so far)`);
      expect(await page.getAttribute('.season-fine a', 'href')).toBe('#glossary');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws each day’s pollen, this year bold over last year, its text inside the chart and apart at 280, 390 and 560 px', async () => {
    const errors: string[] = [];
    const page = await viewPage(site, browser, errors);
    const data = await served(site);
    const grass = (data.answer.categories as Json[]).find((x) => x.category === 'grass')!;
    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    for (const width of [280, 390, 560]) {
      for (const category of CATEGORIES) {
        await draw(page, data, width, category);
        expect(await page.getAttribute('svg.season-chart', 'viewBox')).toBe(`0 0 ${width} 210`);
        const { count, outside, overlaps } = await textProblems(page);
        expect(count).toBeGreaterThan(5);
        expect({ width, category, outside, overlaps }).toEqual({ width, category, outside: [], overlaps: [] });
        await page.locator('section.season').screenshot({ path: join(ROOT, 'test-artifacts', `season-view-${width}-${category}.png`) });
      }
    }
    // The months along the bottom, in words; on a phone every second one.
    await draw(page, data, 390, 'grass');
    expect(await page.locator('svg.season-chart text.season-tick').allTextContents()).toEqual(
      expect.arrayContaining(['Grains of pollen per m³ of air', 'Jan', 'Mar', 'May', 'Jul', 'Sep', 'Nov']),
    );
    await draw(page, data, 560, 'grass');
    expect(await page.locator('svg.season-chart text.season-tick').allTextContents()).toEqual(
      expect.arrayContaining(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']),
    );
    // This year's line over the one complete earlier year; the rows' first year (from 5 December 2024) is neither.
    await draw(page, data, 390, 'grass');
    const lines = await page
      .locator('svg.season-chart path')
      .evaluateAll((ps) =>
        ps.map((p) => ({ year: p.getAttribute('data-year'), width: Number(p.getAttribute('stroke-width')), d: p.getAttribute('d')! })),
      );
    expect(lines.map((l) => l.year)).toEqual(['2025', '2026']);
    expect(lines[1]!.width).toBeGreaterThan(lines[0]!.width);
    expect(await page.locator('section.season .series-legend li').allTextContents()).toEqual([
      'This year (2026)',
      'Last year (2025)',
      `This year's season (${said(grass.season.start)} to ${said(grass.season.end)})`,
    ]);
    // Daily amounts, not a running total: this year's line rises into the chart's upper half and comes back down to its floor.
    const ys = lines[1]!.d
      .split(/[ML]/)
      .filter(Boolean)
      .map((p) => Number(p.split(',')[1]));
    const [top, floor] = [36, 210 - 26];
    expect(Math.min(...ys)).toBeLessThan((top + floor) / 2);
    expect(ys.at(-1)).toBeGreaterThan(floor - 5);
    // A point a day, from the week's average of the days held: the rows hold every day of 2026 to 24 November.
    expect(ys).toHaveLength(dayNumber('2026-11-24') - dayNumber('2026-01-01') + 1);
    // The peak is marked on this year's line, at its day.
    const peakLabel = await page.textContent('svg.season-chart .season-peak-label');
    expect(peakLabel).toBe(`peak ${said(grass.season.peak_date)}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens on the reader’s category when given, else on the season that ended last', async () => {
    const errors: string[] = [];
    const page = await viewPage(site, browser, errors);
    const data = await served(site);
    const cats = (data.answer.categories as Json[]).filter((c) => LABEL[c.category]);
    for (const prefer of CATEGORIES) {
      await draw(page, data, 390, prefer);
      expect(await page.locator('.season-picker button[aria-pressed="true"]').allTextContents()).toEqual([LABEL[prefer]]);
      expect(await page.textContent('.season-sentence')).toMatch(new RegExp(`^${LABEL[prefer]} pollen season`));
    }
    // None is in season: the one whose season ended last (weed's and ragweed's the same day: the first of them).
    expect(cats.some((c) => c.status.state === 'in season')).toBe(false);
    const last = cats.filter((c) => c.status.end).sort((a, b) => b.status.end.localeCompare(a.status.end))[0]!;
    await draw(page, data, 390);
    expect(await page.locator('.season-picker button[aria-pressed="true"]').allTextContents()).toEqual([LABEL[last.category]]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('the season view, mid-April: seasons under way', () => {
  const site = useSite({ cities: ['austin'], span: { from: dayNumber('2024-11-25'), to: dayNumber('2026-04-15') } });
  const browser = useBrowser(site);

  it('says since when a season is under way and its worst day so far, opens on it, and keeps its text in the chart', async () => {
    const errors: string[] = [];
    const page = await viewPage(site, browser, errors);
    const data = await served(site);
    const cats = (data.answer.categories as Json[]).filter((c) => LABEL[c.category]);
    const inSeason = cats.filter((c) => c.status.state === 'in season');
    expect(inSeason.map((c) => c.category)).toEqual(expect.arrayContaining(['grass']));
    // Without a preference, the first in season.
    await draw(page, data, 390);
    expect(await page.locator('.season-picker button[aria-pressed="true"]').allTextContents()).toEqual([LABEL[inSeason[0]!.category]]);
    for (const c of inSeason) {
      await draw(page, data, 390, c.category);
      expect(await page.textContent('.season-sentence')).toBe(
        `${LABEL[c.category]} pollen season has been under way since ${said(c.season.start)}; its worst day so far was ${said(c.season.peak_date)}.${expectedHard(c, true)}`,
      );
      if (c.comparison.years.length === 1) expect(await page.textContent('.season-compare')).toBe(expectedCompare(c));
      expect(await mainText(page)).not.toMatch(JARGON);
      expect(await page.textContent('svg.season-chart .season-peak-label')).toBe(`worst so far ${said(c.season.peak_date)}`);
      for (const width of [280, 390]) {
        await draw(page, data, width, c.category);
        const { outside, overlaps } = await textProblems(page);
        expect({ width, outside, overlaps }).toEqual({ width, outside: [], overlaps: [] });
      }
    }
    const weed = cats.find((c) => c.category === 'weed')!;
    expect(weed.status.state).toBe('not started');
    await draw(page, data, 390, 'weed');
    expect(await page.textContent('.season-sentence')).toBe('Weed pollen season has not started yet.');
    await page.locator('section.season').screenshot({ path: join(ROOT, 'test-artifacts', 'season-view-april.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
