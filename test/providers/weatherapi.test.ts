import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, HOUR_MS } from '../../src/domain/dates.js';
import { HISTORY_START_DAY, WeatherApiProvider, weatherapiVerdict } from '../../src/providers/weatherapi.js';
import { fixture } from '../helpers/fixtures.js';
import { failureOf, testHttp } from '../helpers/provider-client.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';

const KEY = 'wapi-test-key-7c21e0';
const austin = DEFAULT_CITIES.get('austin')!;
const tulsa = DEFAULT_CITIES.get('tulsa')!;
const newYork = DEFAULT_CITIES.get('new-york')!;
/** The fixtures' forecasts were issued at 07:30 in Austin and Tulsa (CDT), 08:30 in New York (EDT). */
const NOW = Date.parse('2025-04-14T12:30:00Z');
const NOW_HOUR = Math.floor(NOW / HOUR_MS);
const hourOf = (iso: string) => Date.parse(iso) / HOUR_MS;
const iso = (ms: number) => new Date(ms).toISOString();

let server: ScriptedServer;
beforeEach(async () => (server = await scriptedServer()));
afterEach(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

function setup(options: { retries?: number; timeoutMs?: number; enterprise?: boolean } = {}) {
  const { sleeps, http } = testHttp('weatherapi', KEY, options);
  return { sleeps, http, wapi: new WeatherApiProvider({ apiKey: KEY, http, baseUrl: server.url, enterprise: options.enterprise }) };
}
const forecast = (url: URL) => url.pathname === '/v1/forecast.json';
const history = (url: URL) => url.pathname === '/v1/history.json';
const failure = failureOf(KEY);
/** A fixture's hours, each day's hour list changed by `edit`. */
function edited(name: string, edit: (hour: Record<string, any>) => void): Record<string, any> {
  const body = fixture(name);
  for (const day of body.forecast.forecastday) for (const hour of day.hour) edit(hour);
  return body;
}

describe('WeatherAPI.com client', () => {
  it('asks the forecast by latitude and longitude with pollen=yes, the key only as the key parameter', async () => {
    const { wapi } = setup();
    server.on(forecast, { status: 200, body: fixture('weatherapi-forecast-austin.json') });
    await wapi.pollenForecast(austin, NOW);
    const { url, headers } = server.seen[0]!;
    expect(Object.fromEntries(url.searchParams)).toEqual({
      key: KEY,
      q: '30.2672,-97.7431',
      days: '3',
      pollen: 'yes',
      aqi: 'no',
      alerts: 'no',
    });
    expect(JSON.stringify(headers)).not.toContain(KEY);
  });

  it('reads the 48 hours from the current one: species by the stored names, each category the sum of its plants', async () => {
    const { wapi } = setup();
    const body = fixture('weatherapi-forecast-austin.json');
    server.on(forecast, { status: 200, body });
    const batch = await wapi.pollenForecast(austin, NOW);
    expect(batch.timezone).toBe('America/Chicago');
    expect(batch.hours).toHaveLength(48);
    expect(iso(batch.hours[0]!.time)).toBe('2025-04-14T12:00:00.000Z');
    expect(iso(batch.hours.at(-1)!.time)).toBe('2025-04-16T11:00:00.000Z');
    // 07:00 in Austin is the first day's eighth hour.
    expect(body.forecast.forecastday[0].hour[7].pollen).toEqual({
      Hazel: 0,
      Alder: 0.9,
      Birch: 2.5,
      Oak: 105.6,
      Grass: 8.8,
      Mugwort: 0.2,
      Ragweed: 0.6,
    });
    const first = batch.hours[0]!;
    expect(first.species).toEqual({
      Tree: { Hazel: 0, Alder: 0.9, Birch: 2.5, Oak: 105.6 },
      Grass: { 'Grass / Poaceae': 8.8 },
      Weed: { Mugwort: 0.2, Ragweed: 0.6 },
    });
    expect(first.tree).toBeCloseTo(109, 9);
    expect(first.grass).toBe(8.8);
    expect(first.weed).toBeCloseTo(0.8, 9);
    expect(batch.itemFields).toContain('time_epoch');
    expect(batch.itemFields).toContain('pollen.Ragweed');
  });

  it('without Enterprise, takes history from the forecast of the local today: the hours before the local midnight are not there', async () => {
    const { wapi } = setup();
    server.on(forecast, { status: 200, body: fixture('weatherapi-forecast-new-york.json') });
    const day = hourOf('2025-04-14T00:00:00Z');
    const batch = await wapi.pollenHistory(newYork, { from: day, to: NOW_HOUR });
    expect(server.seen[0]!.url.searchParams.get('days')).toBe('1');
    // New York's 2025-04-14 starts at 04:00Z (EDT); up to, not including, the current hour.
    expect(batch.hours.map((h) => iso(h.time).slice(11, 13))).toEqual(['04', '05', '06', '07', '08', '09', '10', '11']);
    expect(batch.timezone).toBe('America/New_York');
  });

  it('declares the hours the local today can hold without Enterprise, and everything since 2010 with it', () => {
    expect(setup().wapi.coverage(NOW)).toEqual({ oldestHour: NOW_HOUR - 23, newestHour: NOW_HOUR, retryFromHour: NOW_HOUR - 23 });
    expect(setup().wapi.maxDaysPerCall).toBe(2);
    const enterprise = setup({ enterprise: true }).wapi;
    expect(enterprise.coverage(NOW)).toMatchObject({ oldestHour: HISTORY_START_DAY * 24, newestHour: NOW_HOUR });
    expect(HISTORY_START_DAY).toBe(dayNumber('2010-01-02'));
    expect(enterprise.maxDaysPerCall).toBe(28);
  });

  it('on Enterprise, asks history.json for the local dates of the span and keeps the hours asked', async () => {
    const { wapi } = setup({ enterprise: true });
    server.on(history, { status: 200, body: fixture('weatherapi-history-tulsa.json') });
    const span = { from: hourOf('2025-03-31T00:00:00Z'), to: hourOf('2025-04-14T00:00:00Z') };
    const batch = await wapi.pollenHistory(tulsa, span);
    const params = Object.fromEntries(server.seen[0]!.url.searchParams);
    expect(params).toMatchObject({ key: KEY, q: '36.154,-95.9928', dt: '2025-03-30', end_dt: '2025-04-13', pollen: 'yes' });
    expect(params.days).toBeUndefined();
    // The fixture starts at Tulsa's 2025-03-31 00:00, 05:00Z: 14 days less those five hours.
    expect(batch.hours).toHaveLength(14 * 24 - 5);
    expect(iso(batch.hours[0]!.time)).toBe('2025-03-31T05:00:00.000Z');
    expect(iso(batch.hours.at(-1)!.time)).toBe('2025-04-13T23:00:00.000Z');
  });

  it('leaves a day the answer lacks empty, without failing the others', async () => {
    const { wapi } = setup({ enterprise: true });
    const body = fixture('weatherapi-history-austin.json');
    body.forecast.forecastday = body.forecast.forecastday.filter((d: { date: string }) => d.date !== '2025-04-05');
    server.on(history, { status: 200, body });
    const batch = await wapi.pollenHistory(austin, { from: hourOf('2025-04-04T05:00:00Z'), to: hourOf('2025-04-07T05:00:00Z') });
    const dates = new Set(batch.hours.map((h) => iso(h.time - 5 * HOUR_MS).slice(0, 10)));
    expect([...dates]).toEqual(['2025-04-04', '2025-04-06']);
    expect(batch.hours).toHaveLength(48);
  });

  it('never asks history.json for more dates than a call serves', async () => {
    const { wapi } = setup({ enterprise: true });
    const from = hourOf('2025-03-01T00:00:00Z');
    await expect(wapi.pollenHistory(austin, { from, to: from + 29 * 24 })).rejects.toThrow(/at most 28 days/);
    expect(server.seen).toHaveLength(0);
  });

  it('keeps a plant the table does not name under Others, and one it names where it belongs', async () => {
    const { wapi } = setup();
    server.on(forecast, {
      status: 200,
      body: edited('weatherapi-forecast-tulsa.json', (h) => Object.assign(h.pollen, { Chestnut: 4.5, Olive: 2 })),
    });
    const [first] = (await wapi.pollenForecast(tulsa, NOW)).hours;
    expect(first!.species).toMatchObject({ Tree: { Olive: 2 }, Others: { Chestnut: 4.5 } });
    const tree = first!.species as { Tree: Record<string, number> };
    const sum = Object.values(tree.Tree).reduce((a, b) => a + b, 0);
    expect(first!.tree).toBeCloseTo(sum, 9); // Olive counted with the trees, Chestnut with none
    expect(Object.keys(tree.Tree)).toEqual(['Hazel', 'Alder', 'Birch', 'Oak', 'Olive']);
  });

  it('reads a value that is not a number as null, and a category with no number as null', async () => {
    const { wapi } = setup();
    server.on(forecast, {
      status: 200,
      body: edited('weatherapi-forecast-austin.json', (h) => Object.assign(h.pollen, { Grass: null, Mugwort: 'n/a', Ragweed: null })),
    });
    const [first] = (await wapi.pollenForecast(austin, NOW)).hours;
    expect(first).toMatchObject({ grass: null, weed: null });
    expect(first!.species).toMatchObject({ Grass: { 'Grass / Poaceae': null }, Weed: { Mugwort: null, Ragweed: null } });
  });

  it('calls a place outside the pollen coverage not covered, and keeps only the hours that carry pollen', async () => {
    const { wapi } = setup();
    server.on(forecast, { status: 200, body: edited('weatherapi-forecast-austin.json', (h) => delete h.pollen) });
    const error = await failure(wapi.pollenForecast(austin, NOW));
    expect(error.failure).toBe('not_covered');
    expect(error.message).toMatch(/US, Canada, the UK and Europe/);
    server.on(forecast, {
      status: 200,
      body: edited('weatherapi-forecast-austin.json', (h) => {
        if (h.time_epoch * 1000 >= Date.parse('2025-04-15T00:00:00Z')) delete h.pollen;
      }),
    });
    expect((await wapi.pollenForecast(austin, NOW)).hours).toHaveLength(12);
  });

  it.each([
    [400, 1003, "Parameter 'q' not provided.", 'rejected', /q' not provided/],
    [400, 1005, 'API request url is invalid', 'rejected', /url is invalid/],
    [400, 1006, "No location found matching parameter 'q'", 'not_covered', /no place matches these coordinates/],
    [401, 1002, 'API key not provided.', 'unauthorized', /no API key was sent/],
    [401, 2006, 'API key provided is invalid', 'unauthorized', /the API key is not valid/],
    [403, 2007, 'API key has exceeded calls per month quota.', 'quota', /calls for this month are spent/],
    [403, 2008, 'API key has been disabled.', 'unauthorized', /the API key has been disabled/],
    [
      403,
      2009,
      'API key does not have access to the resource. Please check pricing page for what is allowed in your API subscription plan.',
      'unauthorized',
      /plan does not include this \(pollen needs Pro\+ or above/,
    ],
  ])('maps HTTP %i with code %i (%s) to %s in plain words, without retrying', async (status, code, message, kind, words) => {
    const { wapi, http } = setup();
    server.on(forecast, { status, body: { error: { code, message } } });
    const error = await failure(wapi.pollenForecast(austin, NOW));
    expect(error.failure).toBe(kind);
    expect(error.message).toMatch(words);
    expect(http.attempts).toBe(1);
  });

  it('reads a status without a known code by the status alone', () => {
    expect(weatherapiVerdict(403, '<html>Forbidden</html>')).toEqual({ ok: false, failure: 'unauthorized' });
    expect(weatherapiVerdict(400, '{"error":{"code":9000,"message":"Json body passed in bulk request is invalid."}}')).toEqual({
      ok: false,
      failure: 'rejected',
    });
    expect(weatherapiVerdict(502, 'bad gateway')).toEqual({ ok: false, failure: 'unavailable' });
    expect(weatherapiVerdict(200, '{"error":{"code":2007}}')).toEqual({ ok: true });
  });

  it('keeps the key out of a message whose body echoes the URL it was asked with', async () => {
    const { wapi } = setup();
    const asked = `${server.url}/v1/forecast.json?key=${KEY}&q=30.2672,-97.7431`;
    server.on(forecast, { status: 401, body: { error: { code: 2006, message: `API key provided is invalid: ${asked}` } } });
    const error = await failure(wapi.pollenForecast(austin, NOW));
    expect(error.message).toContain('key=***');
    expect(error.message).toContain('/v1/forecast.json');
  });

  it('retries 5xx with backoff, then gives up as unavailable', async () => {
    const { wapi, http, sleeps } = setup({ retries: 2 });
    server.on(forecast, { status: 503, body: 'busy' });
    server.on(forecast, { status: 200, body: fixture('weatherapi-forecast-austin.json') });
    expect((await wapi.pollenForecast(austin, NOW)).hours).toHaveLength(48);
    expect(http.attempts).toBe(2);
    server.on(forecast, { status: 500, body: { error: { code: 9999, message: 'Internal application error.' } } }, 3);
    expect((await failure(wapi.pollenForecast(austin, NOW))).failure).toBe('unavailable');
    expect(http.attempts).toBe(5);
    expect(sleeps).toEqual([250, 250, 500]);
  });

  it('gives up on a slow answer as unavailable, after asking again', async () => {
    const { wapi, http } = setup({ retries: 1, timeoutMs: 50 });
    server.on(forecast, { status: 200, body: fixture('weatherapi-forecast-austin.json'), delayMs: 1000 }, 2);
    const error = await failure(wapi.pollenForecast(austin, NOW));
    expect(error.failure).toBe('unavailable');
    expect(error.message).toMatch(/timed out/);
    expect(http.attempts).toBe(2);
  });

  it.each([
    ['a body that is not JSON', '{"location": ', 'not JSON'],
    ['no forecast', { location: { tz_id: 'America/Chicago' }, current: {} }, 'no forecast.forecastday list'],
    ['a day without hours', { forecast: { forecastday: [{ date: '2025-04-14' }] } }, 'forecastday[0] has no hour list'],
    [
      'an hour without time_epoch',
      { forecast: { forecastday: [{ hour: [{ time: '2025-04-14 00:00', pollen: {} }] }] } },
      'no valid time_epoch',
    ],
  ])('rejects %s as a bad payload, without retrying', async (_what, body, message) => {
    const { wapi, http } = setup();
    server.on(forecast, { status: 200, body });
    const error = await failure(wapi.pollenForecast(austin, NOW));
    expect(error.failure).toBe('bad_payload');
    expect(error.message).toContain(message);
    expect(http.attempts).toBe(1);
  });
});
