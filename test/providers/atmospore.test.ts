import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { plantName } from '../../src/domain/species/plant-names.js';
import { type Category, SPECIES_KEY } from '../../src/domain/species/risk.js';
import { AtmosporeProvider, atmosporeVerdict } from '../../src/providers/atmospore.js';
import { atmosporeCategory } from '../helpers/atmospore.js';
import { fixture } from '../helpers/fixtures.js';
import { failureOf, testHttp } from '../helpers/provider-client.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'ak_test-key-7c21e9';
const austin = DEFAULT_CITIES.get('austin')!;
const D0 = dayNumber('2025-04-01');
const fortnight = { from: D0, to: D0 + 13 };

let server: ScriptedServer;
beforeEach(async () => (server = await scriptedServer()));
afterEach(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

function setup(options: { retries?: number; timeoutMs?: number } = {}) {
  const { sleeps, http } = testHttp('atmospore', KEY, options);
  return { sleeps, http, atmospore: new AtmosporeProvider({ apiKey: KEY, http, baseUrl: server.url }) };
}
const pollen = (url: URL) => url.pathname === '/v1/pollen';
const failure = failureOf(KEY);

type Entry = { value: number; risk_level: string; display_name: string; category: Category };
type Item = { date: string; overall_risk: string; species: Record<string, Entry> };
/** The fixture's own sum of a category's values on a day, to compare with what the client stores. */

describe('Atmospore client', () => {
  it('asks /v1/pollen by longitude and latitude from dt for forecast_days, the key only in x-api-key', async () => {
    const { atmospore } = setup();
    server.on(pollen, { status: 200, body: fixture('atmospore-austin.json') });
    await atmospore.pollenDays(austin, fortnight);
    const { url, headers } = server.seen[0]!;
    expect(Object.fromEntries(url.searchParams)).toEqual({ lon: '-97.7431', lat: '30.2672', dt: '2025-04-01', forecast_days: '14' });
    expect(headers['x-api-key']).toBe(KEY);
    expect(server.seen[0]!.path).not.toContain(KEY);
  });

  it.each([
    ['austin', 'atmospore-austin.json'],
    ['tulsa', 'atmospore-tulsa.json'],
    ['new-york', 'atmospore-new-york.json'],
  ])('reads 14 days of %s: plants by the table, category sums, its own levels kept apart', async (slug, file) => {
    const { atmospore } = setup();
    const body = fixture(file);
    server.on(pollen, { status: 200, body });
    const batch = await atmospore.pollenDays(DEFAULT_CITIES.get(slug)!, fortnight);
    expect(batch.days.map((d) => d.date)).toEqual((body.data as Item[]).map((d) => d.date));
    expect(batch.days).toHaveLength(14);
    expect(batch.timezone).toBeNull();
    expect(batch.generatedAt).toBe(Date.parse('2025-04-01T06:14:00Z'));
    expect(batch.itemFields).toEqual(['date', 'overall_risk', 'species']);
    batch.days.forEach((day, i) => {
      const item = (body.data as Item[])[i]!;
      const species = day.species as Record<string, Record<string, number>>;
      expect(species.Tree!.Oak).toBe(item.species.oak!.value);
      expect(species.Weed!.Ragweed).toBe(item.species.ambrosia!.value);
      expect(species.Grass!['Timothy Grass']).toBe(item.species.timothy!.value);
      expect(Object.keys(species)).toEqual(['Tree', 'Grass', 'Weed']);
      expect([day.tree, day.grass, day.weed]).toEqual([
        atmosporeCategory(item, 'tree'),
        atmosporeCategory(item, 'grass'),
        atmosporeCategory(item, 'weed'),
      ]);
      expect(day.providerLevels).toMatchObject({
        overall: item.overall_risk,
        Oak: item.species.oak!.risk_level,
        Ragweed: item.species.ambrosia!.risk_level,
      });
      expect(Object.keys(day.providerLevels!)).toHaveLength(26); // overall and the 25 plants
    });
  });

  it('sums a category from its taxa and keeps Atmospore words, not NAB labels', async () => {
    const { atmospore } = setup();
    server.on(pollen, { status: 200, body: fixture('atmospore-austin.json') });
    const [first] = (await atmospore.pollenDays(austin, fortnight)).days;
    // 2025-04-01 in Austin: oak 384, hickory 51, cypress 7.2, elm 5.4, pine 18, pine family 20.4, plane 13.2, ash 10.8, poplar 3.6, willow 2.4
    // 516 over every tree taxon, less the Pine family's 20.4 (its members, pine and spruce, are counted).
    expect(first).toMatchObject({ date: '2025-04-01', tree: 495.6, grass: 19.8, weed: 3.6 });
    expect(first!.providerLevels).toMatchObject({ overall: 'moderate', Oak: 'moderate', Hickory: 'low', 'Bermuda Grass': 'low' });
  });

  it('names every one of its species by the table, under the category Atmospore gives', () => {
    for (const item of fixture('atmospore-new-york.json').data as Item[]) {
      for (const [slug, entry] of Object.entries(item.species)) {
        expect(plantName(slug), slug).toMatchObject({ group: SPECIES_KEY[entry.category] });
      }
    }
  });

  it('forecasts from the place’s local day, leaving out dates outside the days asked', async () => {
    const { atmospore } = setup();
    server.on(pollen, { status: 200, body: fixture('atmospore-austin.json') });
    // 03:00 UTC on 1 April is still 31 March in Austin (UTC-5).
    const batch = await atmospore.pollenForecastDays(austin, Date.parse('2025-04-01T03:00:00Z'), 14);
    expect(server.seen[0]!.url.searchParams.get('dt')).toBe('2025-03-31');
    expect(server.seen[0]!.url.searchParams.get('forecast_days')).toBe('14');
    expect(batch.days.map((d) => d.date)).toEqual(Array.from({ length: 13 }, (_, i) => `2025-04-${String(i + 1).padStart(2, '0')}`));
  });

  it('leaves a day missing from the answer absent', async () => {
    const { atmospore } = setup();
    const body = fixture('atmospore-tulsa.json');
    body.data = (body.data as Item[]).filter((d) => d.date !== '2025-04-05');
    server.on(pollen, { status: 200, body });
    const dates = (await atmospore.pollenDays(DEFAULT_CITIES.get('tulsa')!, fortnight)).days.map((d) => d.date);
    expect(dates).toHaveLength(13);
    expect(dates).not.toContain('2025-04-05');
    expect(dates).toContain('2025-04-06');
  });

  it('gives the days in date order whatever order the answer has', async () => {
    const { atmospore } = setup();
    const body = fixture('atmospore-new-york.json');
    const dates = (body.data as Item[]).map((d) => d.date);
    body.data = (body.data as Item[]).reverse();
    server.on(pollen, { status: 200, body });
    expect((await atmospore.pollenDays(DEFAULT_CITIES.get('new-york')!, fortnight)).days.map((d) => d.date)).toEqual(dates);
  });

  it('keeps a species the table does not know under its category, by its display name, and in the sum', async () => {
    const { atmospore } = setup();
    server.on(pollen, {
      status: 200,
      body: {
        meta: { units: 'grains/m³', generated_at: '2025-04-01T06:14:00Z' },
        data: [
          {
            date: '2025-04-01',
            overall_risk: 'high',
            species: {
              oak: { value: 600, risk_level: 'high', display_name: 'Oak', category: 'tree' },
              liquidambar: { value: 40.5, risk_level: 'low', display_name: 'Sweetgum', category: 'tree' },
              sorghum: { value: 7, risk_level: 'low', display_name: 'Johnson Grass', category: 'grass' },
              xanthium: { value: 12, risk_level: 'moderate', display_name: 'Cocklebur', category: 'weed' },
              alternaria: { value: 300, risk_level: 'high', display_name: 'Alternaria', category: 'mold' },
            },
          },
        ],
      },
    });
    const [day] = (await atmospore.pollenDays(austin, { from: D0, to: D0 })).days;
    expect(day!.species).toEqual({
      Tree: { Oak: 600, Sweetgum: 40.5 },
      Grass: { 'Johnson Grass': 7 },
      Weed: { Cocklebur: 12 },
      Others: { Alternaria: 300 },
    });
    expect(day).toMatchObject({ tree: 640.5, grass: 7, weed: 12 });
    expect(day!.providerLevels).toEqual({
      overall: 'high',
      Oak: 'high',
      Sweetgum: 'low',
      'Johnson Grass': 'low',
      Cocklebur: 'moderate',
      Alternaria: 'high',
    });
  });

  it('maps 400 to rejected, without retrying', async () => {
    const { atmospore, http } = setup();
    server.on(pollen, { status: 400, body: { error: 'forecast_days must be between 1 and 14' } });
    const error = await failure(atmospore.pollenDays(austin, fortnight));
    expect(error.failure).toBe('rejected');
    expect(error.message).toContain('forecast_days must be between 1 and 14');
    expect(http.attempts).toBe(1);
  });

  it.each([
    [401, { error: 'Missing API key. Include x-api-key header.' }, /no API key reached it \(set ATMOSPORE_API_KEY\)/],
    [403, { error: `Invalid API key ${KEY}` }, /it refused the API key \(check ATMOSPORE_API_KEY\)/],
  ])('says in plain words that HTTP %i is the key, as unauthorized, never printing it', async (status, body, words) => {
    const { atmospore, http } = setup();
    server.on(pollen, { status, body });
    const error = await failure(atmospore.pollenDays(austin, fortnight));
    expect(error.failure).toBe('unauthorized');
    expect(error.message).toMatch(words);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(http.attempts).toBe(1);
  });

  it('reads 429 as the daily quota: stops at once, not waited out like a rate limit', async () => {
    const { atmospore, http, sleeps } = setup({ retries: 3 });
    server.on(pollen, {
      status: 429,
      body: { error: 'Daily API quota exceeded', limit: 100, used: 101, resets_at: '2025-04-02T00:00:00Z' },
    });
    const error = await failure(atmospore.pollenDays(austin, fortnight));
    expect(error.failure).toBe('quota');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Daily API quota exceeded');
    expect(http.attempts).toBe(1);
    expect(sleeps).toEqual([]);
    expect(atmosporeVerdict(429, '')).toEqual({ ok: false, failure: 'quota' });
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    const { atmospore, http, sleeps } = setup({ retries: 3 });
    server.on(pollen, { status: 503, body: 'busy' });
    server.on(pollen, { status: 502, body: 'bad gateway' });
    server.on(pollen, { status: 200, body: fixture('atmospore-austin.json') });
    expect((await atmospore.pollenDays(austin, fortnight)).days).toHaveLength(14);
    expect(http.attempts).toBe(3);
    expect(sleeps).toEqual([250, 500]);
  });

  it('gives up on 5xx as unavailable after the last retry', async () => {
    const { atmospore, http } = setup({ retries: 2 });
    server.on(pollen, { status: 500, body: { error: 'Internal server error' } }, 3);
    expect((await failure(atmospore.pollenDays(austin, fortnight))).failure).toBe('unavailable');
    expect(http.attempts).toBe(3);
  });

  it('ends a slow answer at the timeout, as unavailable', async () => {
    const { atmospore, http } = setup({ retries: 1, timeoutMs: 50 });
    server.on(pollen, { status: 200, body: fixture('atmospore-austin.json'), delayMs: 2000 }, 2);
    const error = await failure(atmospore.pollenDays(austin, fortnight));
    expect(error.failure).toBe('unavailable');
    expect(error.message).toMatch(/timed out after 50 ms/);
    expect(http.attempts).toBe(2);
  });

  it.each([
    ['an empty data list', { status: 200, body: { meta: { units: 'grains/m³' }, data: [] } }],
    ['a 404', { status: 404, body: { error: 'Not found' } }],
  ])('reads %s for a point outside coverage as not covered', async (_what, reply) => {
    const { atmospore, http } = setup();
    server.on(pollen, reply);
    const error = await failure(atmospore.pollenDays({ ...austin, lat: 0, lon: -140 }, fortnight));
    expect(error.failure).toBe('not_covered');
    expect(http.attempts).toBe(1);
  });

  it.each([
    ['a body that is not JSON', '{"data": [', 'not JSON'],
    ['no data list', { meta: {}, forecast: [] }, 'no data list'],
    ['an item without a real date', { data: [{ date: '2025-02-30', species: {} }] }, 'no valid date'],
    ['a date twice', { data: [{ date: '2025-04-01' }, { date: '2025-04-01' }] }, 'repeats the date'],
    [
      'a value that is not a number',
      { data: [{ date: '2025-04-01', species: { oak: { value: 'high', category: 'tree' } } }] },
      'not a number',
    ],
  ])('rejects %s as a bad payload, without retrying', async (_what, body, message) => {
    const { atmospore, http } = setup();
    server.on(pollen, { status: 200, body });
    const error = await failure(atmospore.pollenDays(austin, fortnight));
    expect(error.failure).toBe('bad_payload');
    expect(error.message).toContain(message);
    expect(http.attempts).toBe(1);
  });

  it('never asks for more than 14 days in one request', async () => {
    const { atmospore } = setup();
    await expect(atmospore.pollenDays(austin, { from: D0, to: D0 + 14 })).rejects.toThrow(/1 to 14 days/);
    await expect(atmospore.pollenForecastDays(austin, Date.parse('2025-04-01T12:00:00Z'), 15)).rejects.toThrow(/1 to 14 days/);
    expect(server.seen).toHaveLength(0);
  });

  it('declares today and the UTC day before it, with no history older than that', () => {
    const { atmospore } = setup();
    expect(atmospore.dayCoverage(Date.parse('2025-04-10T02:00:00Z'))).toEqual({
      oldestDay: dayNumber('2025-04-09'),
      newestDay: dayNumber('2025-04-10'),
    });
    expect(atmospore).toMatchObject({ id: 'atmospore', resolution: 'daily', dayMeans: 'local', maxDaysPerCall: 14, forecastDays: 14 });
  });
});
