import { request } from 'node:http';
import { DOMParser, type Element } from '@xmldom/xmldom';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { respondToRequest } from '../../src/api/http/netlify.js';
import { type ApiResponse, respond } from '../../src/api/http/respond.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { offsetMinutes } from '../../src/domain/day-cuts.js';
import { allergensOf } from '../../src/domain/species/allergens.js';
import { type Species, shapeOf } from '../../src/domain/species/payload.js';
import { SqliteForecastCache } from '../../src/forecast/cache.js';
import { ForecastService } from '../../src/forecast/service.js';
import { type PollenBatch, type PollenProvider, ProviderError, type RawPollenHour } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { lazyContext } from '../../src/wiring/contexts.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

type Json = Record<string, any>;
const HOUR = 3_600_000;
const ORIGIN = 'https://pollen.example';
const ATOM = 'http://www.w3.org/2005/Atom';

// Austin, the Saturday before the spring change: 12:20 CST. The 48 hours from 18:00Z touch
// Mar 7 (12 hours left), Mar 8 (23 hours: clocks go from 02:00 to 03:00) and Mar 9 (13 hours).
const NOW = Date.parse('2026-03-07T18:20:00Z');
const LOCAL = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Chicago',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
const local = (ms: number) => {
  const p = Object.fromEntries(LOCAL.formatToParts(ms).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
};

/**
 * The designed forecast, by local day: Mar 7 quiet (every category Low); Mar 8 tree High for one
 * hour only (Oak 200 at 14:00, Moderate the rest of the day, so a daily mean would not reach High);
 * Mar 9 Ragweed 60 all day (ragweed High, and weed High by its highest allergen); Mar 10 quiet.
 * `scale` multiplies every value: a later refresh with other numbers.
 */
function designedHour(ms: number, scale = 1): RawPollenHour {
  const { date, hour } = local(ms);
  const oak = date === '2026-03-08' ? (hour === 14 ? 200 : 40) : date === '2026-03-09' ? 30 : 8;
  const ragweed = date === '2026-03-09' ? 60 : 1;
  const s = (v: number) => v * scale;
  return {
    time: ms,
    tree: s(oak + 6),
    grass: s(2),
    weed: s(ragweed + 4),
    species: {
      Tree: { Oak: s(oak), Elm: s(6) },
      Grass: { 'Grass / Poaceae': s(2) },
      Weed: { Ragweed: s(ragweed), Pigweed: s(4) },
      Others: s(3),
    },
  };
}

type Behaviour = 'ok' | 'down' | 'quota';
/** A provider answering the designed forecast (54 hours from the current hour), or failing as real ones do. */
function designed() {
  const state = { calls: 0, next: 'ok' as Behaviour, scale: 1 };
  const provider: PollenProvider = {
    id: 'designed',
    resolution: 'hourly',
    maxDaysPerCall: 1,
    coverage: (now) => new SampleProvider().coverage(now),
    pollenHistory: () => Promise.reject(new Error('not used')),
    async pollenForecast(_city, now): Promise<PollenBatch> {
      state.calls++;
      if (state.next === 'down') throw new ProviderError('designed', 'unavailable', 'HTTP 502');
      if (state.next === 'quota') throw new ProviderError('designed', 'quota', 'HTTP 429', { retryAfterSeconds: 3600 });
      const from = Math.floor(now / HOUR) * HOUR;
      return { timezone: 'America/Chicago', hours: Array.from({ length: 54 }, (_, i) => designedHour(from + i * HOUR, state.scale)) };
    },
  };
  return { state, provider };
}

/** A context whose forecast comes from the designed provider (or another), on a clock the test moves. */
function setup(other?: PollenProvider) {
  const { state, provider: designedProvider } = designed();
  const provider = other ?? designedProvider;
  const clock = { now: NOW };
  const cache = new SqliteForecastCache(openStore(`${tempDir()}/cache.db`));
  const service = new ForecastService({ providers: [provider], cache, dailyBudget: null, now: () => clock.now });
  const ctx = lazyContext({
    store: () => {
      throw new Error('alerts read no store');
    },
    cities: () => DEFAULT_CITIES,
    // What a store filled by the designed provider would hold: its payload's shape.
    allergens: () => allergensOf([shapeOf(designedHour(NOW).species as Species)]),
    forecast: () => service,
  });
  const ask = (query: string, path = '/api/alerts'): Promise<ApiResponse> =>
    respond({ method: 'GET', path, query: new URLSearchParams(query), origin: ORIGIN }, ctx);
  const json = async (query: string): Promise<Json> => JSON.parse((await ask(query)).body as string) as Json;
  return { state, clock, ask, json, ctx };
}

const text = (r: ApiResponse) => r.body as string;
const ics = (r: ApiResponse) => new ICAL.Component(ICAL.parse(text(r)));
const xml = (r: ApiResponse) => new DOMParser().parseFromString(text(r), 'application/xml');
const child = (e: Element, name: string) => e.getElementsByTagNameNS(ATOM, name)[0]!;
const entries = (doc: ReturnType<typeof xml>) => Array.from(doc.getElementsByTagNameNS(ATOM, 'entry'));

/** The checks JSON Feed 1.1 makes of every feed (jsonfeed.org/version/1.1): version, title, items; each item an id and content. */
function expectJsonFeed11(feed: Json): void {
  expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
  expect(typeof feed.title).toBe('string');
  expect(Array.isArray(feed.items)).toBe(true);
  for (const item of feed.items) {
    expect(typeof item.id).toBe('string');
    expect(typeof item.content_text === 'string' || typeof item.content_html === 'string').toBe(true);
    for (const key of Object.keys(item))
      expect(
        [
          'id',
          'url',
          'external_url',
          'title',
          'content_html',
          'content_text',
          'summary',
          'image',
          'banner_image',
          'date_published',
          'date_modified',
          'authors',
          'tags',
          'language',
          'attachments',
        ].includes(key) || key.startsWith('_'),
        key,
      ).toBe(true);
  }
  for (const key of Object.keys(feed))
    expect(
      [
        'version',
        'title',
        'home_page_url',
        'feed_url',
        'description',
        'user_comment',
        'next_url',
        'icon',
        'favicon',
        'authors',
        'language',
        'expired',
        'hubs',
        'items',
      ].includes(key) || key.startsWith('_'),
      key,
    ).toBe(true);
  expect(feed).not.toHaveProperty('author'); // version 1's field, deprecated in 1.1
}

const MAR8 = { category: 'tree', risk: 'High', peak: 206 };
const MAR9 = [
  { category: 'weed', risk: 'High', peak: 64 },
  { category: 'ragweed', risk: 'High', peak: 60 },
];

describe('GET /api/alerts', () => {
  it('gives one alert per local day whose worst hour reaches High, across the spring change, and none on quiet days', async () => {
    const { json } = setup();
    const body = await json('city=austin');
    expectMatchesOpenApi('/api/alerts', 200, body);
    expect(body).toMatchObject({
      city: 'austin',
      name: 'Austin',
      state: 'TX',
      timezone: 'America/Chicago',
      min: 'High',
      categories: ['tree', 'grass', 'weed', 'ragweed'],
      source: 'designed',
      stale: false,
      fetchedAt: '2026-03-07T18:20:00.000Z',
    });
    expect(body.dates).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(body.alerts.map((a: Json) => [a.date, a.tz, a.hours, a.categories])).toEqual([
      ['2026-03-08', '-06:00', 23, [MAR8]],
      ['2026-03-09', '-05:00', 13, MAR9],
    ]);
    expect(body.alerts[0].top_species).toEqual([
      { category: 'Tree', name: 'Oak', peak: 200 },
      { category: 'Tree', name: 'Elm', peak: 6 },
      { category: 'Weed', name: 'Pigweed', peak: 4 },
    ]);
    // The allergen that sets a category's level comes first: its total may stand above the range the level names.
    expect(body.alerts.map((a: Json) => a.summary)).toEqual([
      'High tree pollen (Oak up to 200 grains/m³, all tree pollen up to 206) in Austin, TX on Sun, Mar 8; most: Oak, Elm, Pigweed.',
      'High weed pollen (Ragweed up to 60 grains/m³, all weed pollen up to 64) and High ragweed pollen (peak 60 grains/m³) in Austin, TX on Mon, Mar 9; most: Ragweed, Oak, Elm.',
    ]);
  });

  it.each([
    ['min=very high', []],
    ['min=Moderate', ['2026-03-08', '2026-03-09']],
    ['min=low', ['2026-03-07', '2026-03-08', '2026-03-09']],
    ['categories=ragweed', ['2026-03-09']],
    ['categories=Tree,grass', ['2026-03-08']],
    ['categories=grass', []],
  ])('with %s alerts on %j', async (query, dates) => {
    const { json } = setup();
    const body = await json(`city=austin&${query}`);
    expect(body.alerts.map((a: Json) => a.date)).toEqual(dates);
  });

  it('lists categories in one order and min in its own case, whatever the request', async () => {
    const { json } = setup();
    const body = await json('city=austin&categories=ragweed,TREE,tree&min=MODERATE');
    expect(body).toMatchObject({ min: 'Moderate', categories: ['tree', 'ragweed'] });
    expect(body.alerts.map((a: Json) => [a.date, a.categories])).toEqual([
      ['2026-03-08', [MAR8]],
      ['2026-03-09', [{ category: 'tree', risk: 'Moderate', peak: 36 }, MAR9[1]]],
    ]);
  });

  it('writes an all-day event on each alert date, with its UID, a six-hour refresh and no busy time', async () => {
    const { ask, json } = setup();
    const r = await ask('city=austin&format=ics');
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('text/calendar; charset=utf-8');
    // Every content line ends with CRLF, the last one too (RFC 5545, 3.1).
    expect(text(r).endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(
      text(r)
        .split('\r\n')
        .every((line) => !line.includes('\n')),
    ).toBe(true);
    const calendar = ics(r);
    expect(calendar.getFirstPropertyValue('refresh-interval')?.toString()).toBe('PT6H');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT6H');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(
      'Pollen alerts for Austin, TX: High or above in tree, grass, weed, ragweed',
    );
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const alerts = (await json('city=austin')).alerts as Json[];
    expect(events.map((e) => [e.uid, e.startDate.isDate, e.startDate.toString(), e.endDate.toString(), e.summary])).toEqual([
      [alerts[0]!.id.slice('urn:uuid:'.length), true, '2026-03-08', '2026-03-09', 'Austin pollen: High tree'],
      [alerts[1]!.id.slice('urn:uuid:'.length), true, '2026-03-09', '2026-03-10', 'Austin pollen: High weed, High ragweed'],
    ]);
    for (const [i, e] of events.entries()) {
      expect(e.description.split('\n')[0]).toBe(alerts[i]!.summary);
      expect(e.component.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
      expect(e.component.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-03-07T18:20:00Z');
    }
  });

  it('writes an Atom feed whose entries carry the alert ids and the time the forecast was fetched', async () => {
    const { ask, json } = setup();
    const r = await ask('city=austin&format=atom');
    expect(r.headers['Content-Type']).toBe('application/atom+xml; charset=utf-8');
    const doc = xml(r);
    const feed = doc.documentElement!;
    expect([feed.namespaceURI, feed.localName]).toEqual([ATOM, 'feed']);
    expect(child(feed, 'id').textContent).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(child(feed, 'updated').textContent).toBe('2026-03-07T18:20:00.000Z');
    expect(child(child(feed, 'author'), 'name').textContent).toBe('Pollen, weather and air-quality API');
    const self = Array.from(feed.getElementsByTagNameNS(ATOM, 'link')).find((l) => l.getAttribute('rel') === 'self')!;
    expect(self.getAttribute('href')).toBe(
      `${ORIGIN}/api/alerts?city=austin&min=High&categories=tree%2Cgrass%2Cweed%2Cragweed&format=atom`,
    );
    const alerts = (await json('city=austin')).alerts as Json[];
    expect(
      entries(doc).map((e) => [
        child(e, 'id').textContent,
        child(e, 'updated').textContent,
        child(e, 'title').textContent,
        child(e, 'summary').textContent,
      ]),
    ).toEqual(
      alerts.map((a) => [
        a.id,
        '2026-03-07T18:20:00.000Z',
        `Austin, ${a.date}: ${a.categories.map((c: Json) => `High ${c.category}`).join(', ')} pollen`,
        a.summary,
      ]),
    );
    // Each entry leads to the city's page, and says how many forecast hours its day rests on.
    expect(child(entries(doc)[0]!, 'link').getAttribute('href')).toBe(`${ORIGIN}/?city=austin`);
    for (const [e, a] of entries(doc).map((e, i) => [e, alerts[i]!] as const))
      expect(child(e, 'content').textContent).toContain(
        a.hours >= 23 ? `From the forecast's ${a.hours} hours of the whole day.` : `From only ${a.hours} forecast hour`,
      );
  });

  it('writes a JSON Feed 1.1 whose items carry the alerts', async () => {
    const { ask, json } = setup();
    const r = await ask('city=austin&format=jsonfeed');
    expect(r.headers['Content-Type']).toBe('application/feed+json');
    const feed = JSON.parse(text(r)) as Json;
    expectJsonFeed11(feed);
    const alerts = (await json('city=austin')).alerts as Json[];
    expect(feed.items.map((i: Json) => [i.id, i.date_modified, i.summary, i._pollen_alert])).toEqual(
      alerts.map((a) => [a.id, '2026-03-07T18:20:00.000Z', a.summary, a]),
    );
    expect(feed.feed_url).toBe(`${ORIGIN}/api/alerts?city=austin&min=High&categories=tree%2Cgrass%2Cweed%2Cragweed&format=jsonfeed`);
  });

  it("says in the JSON answer, every calendar event and every feed entry that the sample provider's values are simulated", async () => {
    const { ask, json } = setup(new SampleProvider());
    const simulated = 'Simulated: this site runs on the sample provider, which invents plausible pollen values';
    for (const round of ['fetched', 'from the cache']) {
      const body = await json('city=austin&min=Low');
      expectMatchesOpenApi('/api/alerts', 200, body);
      expect([body.simulated, body.source], round).toEqual([true, round === 'fetched' ? 'sample' : 'cache']);
      expect(body.alerts.length, round).toBeGreaterThan(0);
      const calendar = ics(await ask('city=austin&min=Low&format=ics'));
      expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(
        'Pollen alerts for Austin, TX (simulated): Low or above in tree, grass, weed, ragweed',
      );
      expect(calendar.getFirstPropertyValue('x-wr-caldesc')).toContain(simulated);
      const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
      expect(events).toHaveLength(body.alerts.length);
      for (const e of events) {
        expect(e.summary).toMatch(/^Austin pollen \(simulated\): /);
        expect(e.description).toContain(simulated);
      }
      const atom = xml(await ask('city=austin&min=Low&format=atom'));
      expect(entries(atom)).toHaveLength(body.alerts.length);
      for (const e of entries(atom)) {
        expect(child(e, 'title').textContent).toMatch(/ pollen \(simulated\)$/);
        expect(child(e, 'summary').textContent).toContain(simulated);
        expect(child(e, 'content').textContent).toContain(simulated);
      }
      const feed = JSON.parse(text(await ask('city=austin&min=Low&format=jsonfeed'))) as Json;
      expectJsonFeed11(feed);
      expect([feed._pollen_alerts.simulated, feed.description.startsWith(simulated)]).toEqual([true, true]);
      for (const item of feed.items) {
        expect(item.title).toMatch(/ pollen \(simulated\)$/);
        expect([item.summary, item.content_text].every((t: string) => t.includes(simulated))).toBe(true);
      }
    }
    // Another provider's alerts say nothing of the kind.
    const designedAlerts = setup();
    expect(await designedAlerts.json('city=austin')).not.toHaveProperty('simulated');
    for (const format of ['ics', 'atom', 'jsonfeed'])
      expect(text(await designedAlerts.ask(`city=austin&format=${format}`))).not.toMatch(/simulated/i);
  });

  it('answers a quiet forecast with an empty calendar and empty feeds', async () => {
    const { ask } = setup();
    expect((JSON.parse(text(await ask('city=austin&min=Very High'))) as Json).alerts).toEqual([]);
    const quiet = await ask('city=austin&min=Very High&format=ics');
    const calendar = ics(quiet);
    expect(calendar.getAllSubcomponents('vevent')).toEqual([]);
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT6H');
    // Still a calendar of one component at least (RFC 5545, 3.6): the city's zone, whose offsets are the zone's.
    expect(calendar.getAllSubcomponents().map((c) => c.name)).toEqual(['vtimezone']);
    const zone = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone')!);
    expect(zone.tzid).toBe('America/Chicago');
    const local: Array<[string, string]> = [
      ['2026-01-15T06:00:00', '2026-01-15T12:00:00Z'],
      ['2026-03-08T01:59:00', '2026-03-08T07:59:00Z'],
      ['2026-03-08T03:00:00', '2026-03-08T08:00:00Z'],
      ['2026-11-01T03:00:00', '2026-11-01T09:00:00Z'],
      ['2027-07-01T00:00:00', '2027-07-01T05:00:00Z'],
    ];
    for (const [time, instant] of local)
      expect(zone.utcOffset(ICAL.Time.fromDateTimeString(time)) / 60, time).toBe(offsetMinutes('America/Chicago', Date.parse(instant)));
    expect(text(quiet)).toMatch(/\r\nEND:VCALENDAR\r\n$/);
    expect(entries(xml(await ask('city=austin&min=Very High&format=atom')))).toEqual([]);
    const feed = JSON.parse(text(await ask('city=austin&min=Very High&format=jsonfeed'))) as Json;
    expectJsonFeed11(feed);
    expect(feed.items).toEqual([]);
  });

  it('says in every empty form that nothing is expected, at which level, for what and on which days', async () => {
    const { ask } = setup();
    const nothing = 'Nothing expected at Very High or above for tree, grass, weed or ragweed pollen from Sat, Mar 7 to Mon, Mar 9.';
    const fetched = 'Forecast fetched Sat, Mar 7, 12:20 PM CST.';
    const calendar = ics(await ask('city=austin&min=Very High&format=ics'));
    expect(calendar.getFirstPropertyValue('x-wr-caldesc')).toBe(
      `Very High or above in tree, grass, weed, ragweed on the days the forecast covers. ${nothing} ${fetched}`,
    );
    const atom = xml(await ask('city=austin&min=Very High&format=atom')).documentElement!;
    expect(child(atom, 'subtitle').textContent).toBe(`${nothing} ${fetched}`);
    const feed = JSON.parse(text(await ask('city=austin&min=Very High&format=jsonfeed'))) as Json;
    expect(feed.description).toBe(`${nothing} ${fetched}`);
    // Plants watched are named; a subscription with alerts says nothing of the kind.
    const plants = JSON.parse(text(await ask('city=austin&species=pigweed,elm&format=jsonfeed'))) as Json;
    expect([plants.items, plants.description]).toEqual([
      [],
      `Nothing expected at High or above for Elm or Pigweed from Sat, Mar 7 to Mon, Mar 9. ${fetched}`,
    ]);
    for (const format of ['ics', 'atom', 'jsonfeed'])
      expect(text(await ask(`city=austin&format=${format}`)), format).not.toContain('Nothing expected');
  });

  it('writes event and entry texts that say they are a forecast, link to the page, and name no API address', async () => {
    for (const [provider, what] of [
      [undefined, 'A forecast of the pollen level from Designed, not a measurement.'],
      [new SampleProvider(), 'These alerts come from its invented forecast: do not use them for health decisions.'],
    ] as const) {
      const { ask } = setup(provider);
      const events = ics(await ask('city=austin&min=Low&format=ics'))
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v));
      const atom = entries(xml(await ask('city=austin&min=Low&format=atom')));
      const items = (JSON.parse(text(await ask('city=austin&min=Low&format=jsonfeed'))) as Json).items as Json[];
      expect([events.length > 0, events.length === atom.length, events.length === items.length]).toEqual([true, true, true]);
      const texts = [
        ...events.flatMap((e) => [e.summary, e.description]),
        ...atom.flatMap((e) => [child(e, 'title').textContent, child(e, 'summary').textContent, child(e, 'content').textContent]),
        ...items.flatMap((i) => [i.title, i.summary, i.content_text]),
      ] as string[];
      for (const t of texts) {
        expect(t).not.toContain('/api/');
        expect(t).not.toMatch(/not (measurements or )?a forecast/i);
      }
      for (const e of events) {
        expect(e.description).toContain(what);
        expect(e.description).toContain(`The day on the city's page: ${ORIGIN}/?city=austin`);
        expect(e.component.getFirstPropertyValue('url')).toBe(`${ORIGIN}/?city=austin`);
      }
      for (const e of atom) expect(child(e, 'content').textContent).toContain(what);
      for (const i of items) expect(i.content_text).toContain(what);
    }
  });

  it("keeps each day's UID and id across refreshes while its values and fetchedAt change", async () => {
    const { state, clock, ask, json } = setup();
    const before = await json('city=austin&categories=tree,ragweed');
    const uids = async () =>
      ics(await ask('city=austin&categories=tree,ragweed&format=ics'))
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v).uid);
    const atomIds = async () =>
      entries(xml(await ask('city=austin&categories=tree,ragweed&format=atom'))).map((e) => child(e, 'id').textContent);
    const first = { uids: await uids(), atom: await atomIds() };
    clock.now = NOW + 7 * HOUR; // past the cache's six hours: a refresh, with other values
    state.scale = 1.5;
    const after = await json('city=austin&categories=tree,ragweed');
    expect(state.calls).toBe(2);
    expect(after.fetchedAt).toBe('2026-03-08T01:20:00.000Z');
    expect(after.alerts.map((a: Json) => [a.date, a.id])).toEqual(before.alerts.map((a: Json) => [a.date, a.id]));
    expect(after.alerts[0].categories).toEqual([{ category: 'tree', risk: 'High', peak: 309 }]);
    expect(await uids()).toEqual(first.uids);
    expect(await atomIds()).toEqual(first.atom);
    // Another rule is another subscription: other ids for the same days.
    const other = await json('city=austin&categories=tree');
    expect(other.alerts[0].id).not.toBe(before.alerts[0].id);
  });

  it('says in every format that a forecast is stale, and why', async () => {
    const { state, clock, ask, json } = setup();
    await json('city=austin');
    clock.now = NOW + 7 * HOUR;
    state.next = 'quota';
    const body = await json('city=austin');
    expect(body).toMatchObject({ stale: true, quotaExhausted: true, fetchedAt: '2026-03-07T18:20:00.000Z', source: 'cache' });
    const stale =
      "Stale forecast: it was fetched Sat, Mar 7, 12:20 PM CST and could not be refreshed (the provider's daily quota is used up), so these alerts may be out of date.";
    const calendar = ics(await ask('city=austin&format=ics'));
    expect(calendar.getFirstPropertyValue('x-wr-caldesc')).toContain(stale);
    for (const v of calendar.getAllSubcomponents('vevent')) expect(new ICAL.Event(v).description).toContain(stale);
    const atom = xml(await ask('city=austin&format=atom'));
    expect(child(atom.documentElement!, 'subtitle').textContent).toBe(stale);
    for (const e of entries(atom)) expect(child(e, 'content').textContent).toContain(stale);
    const feed = JSON.parse(text(await ask('city=austin&format=jsonfeed'))) as Json;
    expect(feed.description).toBe(stale);
    expect(feed._pollen_alerts.stale).toBe(true);
    for (const item of feed.items) expect(item.content_text).toContain(stale);

    state.next = 'down';
    clock.now += HOUR;
    expect(await json('city=austin')).toMatchObject({ stale: true, source: 'cache' });
    expect(text(await ask('city=austin&format=ics'))).toContain('the provider could not be reached');
  });

  it('answers 503 as /api/forecast does when there is no forecast at all', async () => {
    const { state, ask } = setup();
    state.next = 'down';
    for (const format of ['json', 'ics', 'atom', 'jsonfeed']) {
      const r = await ask(`city=austin&format=${format}`);
      const forecast = await ask('city=austin', '/api/forecast');
      expect([r.status, r.headers['Retry-After'], r.headers['Content-Type'], r.body]).toEqual([
        503,
        '300',
        'application/json',
        forecast.body,
      ]);
      expectMatchesOpenApi('/api/alerts', 503, JSON.parse(text(r)));
    }
  });

  it('makes no upstream call of its own: the forecast and its alerts share one refresh', async () => {
    const { state, ask } = setup();
    const answers = await Promise.all([
      ask('city=austin', '/api/forecast'),
      ask('city=austin&format=ics'),
      ask('city=austin&format=atom'),
      ask('city=austin'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(state.calls).toBe(1);
    await ask('city=austin&format=jsonfeed');
    expect(state.calls).toBe(1);
    for (const a of answers.slice(1)) {
      expect(a.headers['Cache-Control']).toBe(answers[0]!.headers['Cache-Control']);
      expect(a.headers['Netlify-CDN-Cache-Control']).toBe(answers[0]!.headers['Netlify-CDN-Cache-Control']);
    }
  });

  const expected = (name: string) => {
    const list = {
      city: 'a city slug from GET /api/cities',
      min: "one of 'Low', 'Moderate', 'High', 'Very High' (any case)",
      categories: "a comma-separated list of 'tree', 'grass', 'weed', 'ragweed'",
      format: "one of 'json', 'ics', 'atom', 'jsonfeed'",
      species: 'a comma-separated list of allergens the data holds, such as oak,birch',
    } as Record<string, string>;
    return list[name];
  };
  it.each([
    ['', 'city', ''],
    ['city=', 'city', ''],
    ['city=austin&city=tulsa', 'city', ', given once'],
    ['city=austin&min=', 'min', ''],
    ['city=austin&min=Extreme', 'min', ''],
    ['city=austin&min=None', 'min', ''],
    ['city=austin&min=high&min=low', 'min', ', given once'],
    ['city=austin&categories=', 'categories', ''],
    ['city=austin&categories=tree,,grass', 'categories', ''],
    ['city=austin&categories=oak', 'categories', ''],
    ['city=austin&categories=tree%20', 'categories', ''],
    ['city=austin&categories=tree&categories=grass', 'categories', ', given once'],
    ['city=austin&species=', 'species', ''],
    ['city=austin&species=oak,,elm', 'species', ''],
    ['city=austin&species=oak&species=elm', 'species', ', given once'],
    ['city=austin&format=', 'format', ''],
    ['city=austin&format=rss', 'format', ''],
    ['city=austin&format=ics&format=atom', 'format', ', given once'],
  ])('answers %j with 400 naming %s', async (query, name, suffix) => {
    const { ask, state } = setup();
    const r = await ask(query);
    expect([r.status, r.headers['Cache-Control'], JSON.parse(text(r))]).toEqual([
      400,
      'no-store',
      { error: `Invalid parameter '${name}': expected ${expected(name)}${suffix}`, code: 'INVALID_PARAMETER', parameter: name },
    ]);
    expectMatchesOpenApi('/api/alerts', 400, JSON.parse(text(r)));
    expect(state.calls).toBe(0);
  });

  it('watches allergens by slug or name: each graded on its category range, named in the summary, with ids of their own', async () => {
    const { json } = setup();
    const oak = await json('city=austin&species=Oak');
    expectMatchesOpenApi('/api/alerts', 200, oak);
    // species alone: no category is watched, so Mar 9 (weed and ragweed High, Oak 30) is no alert.
    expect([oak.categories, oak.species]).toEqual([[], [{ category: 'tree', name: 'Oak', slug: 'oak' }]]);
    expect(oak.alerts.map((a: Json) => [a.date, a.categories, a.species])).toEqual([
      ['2026-03-08', [], [{ category: 'tree', name: 'Oak', slug: 'oak', risk: 'High', peak: 200 }]],
    ]);
    expect(oak.alerts[0].summary).toBe(
      'High Oak pollen (peak 200 grains/m³, on the NAB tree range) in Austin, TX on Sun, Mar 8; most: Oak, Elm, Pigweed.',
    );
    // Elm peaks at 6: Low on the tree range (below 15), though 6 grains of grass would be Moderate.
    const elm = await json('city=austin&species=elm,ragweed&min=low');
    expect(elm.alerts.map((a: Json) => [a.date, a.species.map((s: Json) => `${s.slug} ${s.risk}`)])).toEqual([
      ['2026-03-07', ['elm Low', 'ragweed Low']],
      ['2026-03-08', ['elm Low', 'ragweed Low']],
      ['2026-03-09', ['elm Low', 'ragweed High']],
    ]);
    // With categories too, both are watched; the rule's name, and so every id, is its own.
    const both = await json('city=austin&categories=tree&species=oak');
    expect(both.alerts.map((a: Json) => [a.date, a.categories.length, a.species.length])).toEqual([['2026-03-08', 1, 1]]);
    const tree = await json('city=austin&categories=tree');
    const again = await json('city=austin&species=OAK,oak');
    expect(new Set([oak.alerts[0].id, both.alerts[0].id, tree.alerts[0].id]).size).toBe(3);
    expect(again.alerts[0].id).toBe(oak.alerts[0].id);
    // One plant of a name that joins several names it: "grass" is Grass / Poaceae, answered by its slug.
    expect((await json('city=austin&species=grass&min=low')).species).toEqual([
      { category: 'grass', name: 'Grass / Poaceae', slug: 'grass-poaceae' },
    ]);
  });

  it('gives calendars and feeds of the allergens watched, at a URL that asks for them again', async () => {
    const { ask } = setup();
    const feed = JSON.parse(text(await ask('city=austin&species=oak&format=jsonfeed'))) as Json;
    expectJsonFeed11(feed);
    expect(feed.feed_url).toBe(`${ORIGIN}/api/alerts?city=austin&min=High&species=oak&format=jsonfeed`);
    expect(feed.title).toBe("Pollen alerts for Austin, TX: High or above in Oak (an allergen on its category's NAB range)");
    expect(feed.items.map((i: Json) => [i.title, i.tags])).toEqual([['Austin, 2026-03-08: High Oak pollen', ['oak']]]);
    expect(feed.items[0].content_text).toContain('Oak (tree): High on the NAB tree range, peak 200 grains/m³');
    const events = ics(await ask('city=austin&species=oak&format=ics')).getAllSubcomponents('vevent');
    expect(events.map((e) => [e.getFirstPropertyValue('summary'), e.getFirstPropertyValue('uid')])).toEqual([
      ['Austin pollen: High Oak', feed.items[0].id.replace('urn:uuid:', '')],
    ]);
    // The feed's own URL, asked again, is the same subscription.
    const self = new URL(feed.feed_url as string);
    const reread = JSON.parse(text(await ask(self.search.slice(1)))) as Json;
    expect(reread.items.map((i: Json) => i.id)).toEqual(feed.items.map((i: Json) => i.id));
  });

  it.each([
    ['city=austin&species=birch', "'birch'"],
    ['city=austin&species=oak,Cedar,elm,nope', "'cedar', 'nope'"],
  ])('answers %j with 400 naming the allergens the data holds', async (query, unknown) => {
    const { ask, state } = setup();
    const r = await ask(query);
    const body = JSON.parse(text(r)) as Json;
    expect([r.status, body]).toEqual([
      400,
      {
        error: `Invalid parameter 'species': expected allergens the data holds (oak, elm, grass-poaceae, ragweed, pigweed), not ${unknown}`,
        code: 'INVALID_PARAMETER',
        parameter: 'species',
      },
    ]);
    expectMatchesOpenApi('/api/alerts', 400, body);
    expect(state.calls).toBe(0);
  });

  it('answers an unknown city with 404 UNSUPPORTED_CITY', async () => {
    const { ask } = setup();
    const r = await ask('city=atlantis&format=ics');
    const body = JSON.parse(text(r)) as Json;
    expect([r.status, body.code, body.city]).toEqual([404, 'UNSUPPORTED_CITY', 'atlantis']);
    expectMatchesOpenApi('/api/alerts', 404, body);
  });
});

describe('/api/alerts on the local server', () => {
  const site = useSite({ cities: ['austin', 'tulsa'] });

  it('is answered by the forecast function, with links to this server', async () => {
    const res = await site.get('/api/alerts?city=tulsa&min=low&format=atom');
    expect(res.status).toBe(200);
    const doc = new DOMParser().parseFromString(await res.text(), 'application/xml');
    const self = Array.from(doc.documentElement!.getElementsByTagNameNS(ATOM, 'link')).find((l) => l.getAttribute('rel') === 'self')!;
    expect(self.getAttribute('href')).toBe(
      `${site.server.url}/api/alerts?city=tulsa&min=Low&categories=tree%2Cgrass%2Cweed%2Cragweed&format=atom`,
    );
    const forecast = (await (await site.get('/api/forecast?city=tulsa')).json()) as Json;
    expect(child(doc.documentElement!, 'updated').textContent).toBe(forecast.fetchedAt);
  });

  it('says in every form of an empty subscription that nothing is expected, as the JSON answer has it', async () => {
    const query = 'city=tulsa&species=ragweed';
    const answer = (await (await site.get(`/api/alerts?${query}`)).json()) as Json;
    expect([answer.alerts, answer.dates.length]).toEqual([[], 3]);
    const day = (date: string) =>
      new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
    const nothing = `Nothing expected at High or above for Ragweed from ${day(answer.dates[0])} to ${day(answer.dates.at(-1))}.`;
    const form = async (format: string) => (await site.get(`/api/alerts?${query}&format=${format}`)).text();
    const calendar = new ICAL.Component(ICAL.parse(await form('ics')));
    expect(calendar.getAllSubcomponents('vevent')).toEqual([]);
    expect(calendar.getFirstPropertyValue('x-wr-caldesc')).toContain(nothing);
    const atom = new DOMParser().parseFromString(await form('atom'), 'application/xml');
    expect(entries(atom)).toEqual([]);
    expect(child(atom.documentElement!, 'subtitle').textContent).toContain(nothing);
    const feed = JSON.parse(await form('jsonfeed')) as Json;
    expectJsonFeed11(feed);
    expect([feed.items, feed.description.startsWith(nothing)]).toEqual([[], true]);
  });

  it("takes the allergens the sample's store holds, and lists them when one is unknown", async () => {
    const ok = await site.get('/api/alerts?city=tulsa&min=low&species=grass-poaceae,Oak');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json).species).toEqual([
      { category: 'tree', name: 'Oak', slug: 'oak' },
      { category: 'grass', name: 'Grass / Poaceae', slug: 'grass-poaceae' },
    ]);
    const bad = await site.get('/api/alerts?city=tulsa&species=sagebrush');
    expect([bad.status, ((await bad.json()) as Json).error]).toEqual([
      400,
      "Invalid parameter 'species': expected allergens the data holds (ash, birch, cypress-juniper-cedar, elm, maple, mulberry, oak, pine, poplar-cottonwood, grass-poaceae, ragweed), not 'sagebrush'",
    ]);
  });

  it('links to its own address whatever Host a client sends', async () => {
    const { port } = new URL(site.server.url);
    const get = (path: string, host: string) =>
      new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString())).on('end', () => resolve(body));
        })
          .on('error', reject)
          .end();
      });
    const query = 'city=tulsa&min=Low&categories=tree%2Cgrass%2Cweed%2Cragweed';
    for (const host of ['evil.example', 'evil.example:8888', `localhost:${port}`]) {
      const atom = new DOMParser().parseFromString(await get(`/api/alerts?${query}&format=atom`, host), 'application/xml');
      const links = Array.from(atom.documentElement!.getElementsByTagNameNS(ATOM, 'link')).map((l) => l.getAttribute('href'));
      expect(links, host).toContain(`${site.server.url}/api/alerts?${query}&format=atom`);
      const feed = JSON.parse(await get(`/api/alerts?${query}&format=jsonfeed`, host)) as Json;
      expect([feed.home_page_url, feed.feed_url, feed.authors[0].url], host).toEqual([
        `${site.server.url}/?city=tulsa`,
        `${site.server.url}/api/alerts?${query}&format=jsonfeed`,
        `${site.server.url}/openapi.json`,
      ]);
      const calendar = await get(`/api/alerts?${query}&format=ics`, host);
      expect(calendar, host).not.toContain('evil.example');
      expect(calendar, host).toContain(`URL:${site.server.url}/api/alerts?`);
    }
  });
});

describe('links of calendars and feeds deployed', () => {
  const SITE = { URL: 'https://pollen.example', SITE_NAME: 'pollen-site' };
  const QUERY = 'city=austin&min=High&categories=tree%2Cgrass%2Cweed%2Cragweed&format=jsonfeed';
  /** The feed_url of the JSON Feed a function answers to a request for this URL, under this environment. */
  async function feedUrl(requestUrl: string, env: Record<string, string>): Promise<string> {
    const { ctx } = setup();
    const res = await respondToRequest(new Request(`${requestUrl}/api/alerts?${QUERY}`), ctx, env);
    expect(res.status).toBe(200);
    return ((await res.json()) as Json).feed_url;
  }

  it("are on the site's URL, not on a host the request names", async () => {
    for (const asked of ['https://evil.example', 'https://pollen-site.netlify.app.evil.example', 'https://evilpollen-site.netlify.app'])
      expect(await feedUrl(asked, SITE), asked).toBe(`https://pollen.example/api/alerts?${QUERY}`);
  });

  it("stay on the address of one of the site's own deploys (a draft, a preview) it was asked on", async () => {
    for (const asked of ['https://pollen-site.netlify.app', 'https://6650f0c2d1e4a30008a1b2c3--pollen-site.netlify.app'])
      expect(await feedUrl(asked, SITE), asked).toBe(`${asked}/api/alerts?${QUERY}`);
  });
});
