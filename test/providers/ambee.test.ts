import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { HOUR_MS } from '../../src/domain/dates.js';
import { AmbeeProvider, itemTime } from '../../src/providers/ambee.js';
import { StoreLedger } from '../../src/providers/call-budget.js';
import { openStore } from '../../src/store/store.js';
import { fixture } from '../helpers/fixtures.js';
import { failureOf, testHttp } from '../helpers/provider-client.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'test-key-4f9a1c';
const austin = DEFAULT_CITIES.get('austin')!;
const H0 = Date.parse('2025-04-01T00:00:00Z') / HOUR_MS;
const day = { from: H0, to: H0 + 24 };

let server: ScriptedServer;
beforeEach(async () => (server = await scriptedServer()));
afterEach(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

function setup(options: { retries?: number; ledger?: StoreLedger; timeoutMs?: number; historyHours?: number } = {}) {
  const { sleeps, http } = testHttp('ambee', KEY, options);
  return { sleeps, http, ambee: new AmbeeProvider({ apiKey: KEY, http, baseUrl: server.url, historyHours: options.historyHours }) };
}
const history = (url: URL) => url.pathname === '/v3/pollen/history';
const failure = failureOf(KEY);

describe('Ambee client', () => {
  it('asks v3 history by latitude and longitude, with the key in x-api-key, and reads the v3 shape (no time field)', async () => {
    const { ambee } = setup();
    const v3 = fixture('ambee-v3-history.json');
    server.on(history, { status: 200, body: v3 });
    const batch = await ambee.pollenHistory(austin, day);
    const { url, headers } = server.seen[0]!;
    expect(Object.fromEntries(url.searchParams)).toEqual({
      lat: '30.2672',
      lng: '-97.7431',
      speciesRisk: 'true',
      from: '2025-04-01 00:00:00',
      to: '2025-04-01 23:59:59',
    });
    expect(headers['x-api-key']).toBe(KEY);
    expect(batch.timezone).toBe('America/Chicago');
    expect(batch.itemFields).toEqual(['Count', 'Risk', 'Species', 'extraField', 'timestamp', 'unixTs']);
    const [first, second] = batch.hours;
    expect(first).toEqual({ time: Date.parse('2025-04-01T00:00:00Z'), tree: 2472, grass: 45, weed: 0, species: v3.data[0].Species });
    expect(second).toMatchObject({ time: Date.parse('2025-04-01T01:00:00Z'), tree: 2001, grass: 38.5, weed: null });
    expect(JSON.stringify(second!.species)).toBe(JSON.stringify(v3.data[1].Species));
  });

  it('reads v2 items: the hour from time in seconds, the zone from each item', async () => {
    const { ambee } = setup();
    server.on((u) => u.pathname === '/v3/pollen/forecast/48hrs', { status: 200, body: fixture('ambee-v2-forecast.json') });
    const batch = await ambee.pollenForecast(DEFAULT_CITIES.get('los-angeles')!, Date.now());
    expect(batch.timezone).toBe('America/Los_Angeles');
    expect(batch.hours.map((h) => new Date(h.time).toISOString())).toEqual(['2024-11-17T03:00:00.000Z', '2024-11-17T06:00:00.000Z']);
    expect(batch.hours[1]).toMatchObject({ tree: 4, grass: 1, weed: 46 });
    server.on(history, { status: 200, body: fixture('ambee-v2-history.json') });
    const ny = Date.parse('2024-11-16T00:00:00Z') / HOUR_MS;
    const v2 = await ambee.pollenHistory(DEFAULT_CITIES.get('new-york')!, { from: ny, to: ny + 24 });
    expect(v2.hours.map((h) => new Date(h.time).toISOString())).toEqual(['2024-11-16T22:00:00.000Z']);
    expect(v2.timezone).toBe('America/New_York');
  });

  it.each([
    ['timestamp (ISO)', { timestamp: '2025-04-01T05:00:00.000Z' }, '2025-04-01T05:00:00.000Z'],
    ['unixTs (seconds)', { unixTs: 1743483600 }, '2025-04-01T05:00:00.000Z'],
    ['createdAt (ISO, v2 history)', { createdAt: '2025-04-01T05:00:00.000Z' }, '2025-04-01T05:00:00.000Z'],
    ['time (seconds, v2)', { time: 1743483600 }, '2025-04-01T05:00:00.000Z'],
    ['time (seconds as text)', { time: '1743483600' }, '2025-04-01T05:00:00.000Z'],
    [
      'timestamp before the others',
      { timestamp: '2025-04-01T05:00:00Z', unixTs: 1, createdAt: '1999-01-01T00:00:00Z', time: 2 },
      '2025-04-01T05:00:00.000Z',
    ],
    ['unixTs before createdAt and time', { unixTs: 1743483600, createdAt: '1999-01-01T00:00:00Z', time: 2 }, '2025-04-01T05:00:00.000Z'],
    ['createdAt before time', { createdAt: '2025-04-01T05:00:00Z', time: 2 }, '2025-04-01T05:00:00.000Z'],
    ['an unusable timestamp, then unixTs', { timestamp: 'soon', unixTs: 1743483600 }, '2025-04-01T05:00:00.000Z'],
  ])('takes the hour of an item from %s', (_what, item, expected) => {
    expect(new Date(itemTime(item)).toISOString()).toBe(expected);
  });

  it.each([
    [206, { message: 'success', data: [] }, 'quota'],
    [422, { message: 'Quota exceeded' }, 'quota'],
    [401, { message: `refused for key ${KEY}` }, 'unauthorized'],
    [403, { message: 'Forbidden' }, 'unauthorized'],
    [404, { message: 'Data not available!', data: [] }, 'not_covered'],
    [400, { message: 'Only past 2 days data available!' }, 'outside_window'],
    [400, { message: "Invalid 'from'" }, 'rejected'],
    [299, { message: 'deprecated' }, 'rejected'],
  ])('maps HTTP %i %j to %s, without retrying', async (status, body, kind) => {
    const { ambee, http } = setup();
    server.on(history, { status, body, headers: { 'retry-after': '120' } });
    const error = await failure(ambee.pollenHistory(austin, day));
    expect(error.failure).toBe(kind);
    expect(http.attempts).toBe(1);
    if (status === 401) expect(error.message).toContain('***');
  });

  it('treats 429 as a rate limit: waits what Retry-After says, however long, then asks again', async () => {
    const { ambee, http, sleeps } = setup({ retries: 2 });
    server.on(history, { status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '90' } });
    server.on(history, { status: 200, body: fixture('ambee-v3-history.json') });
    expect((await ambee.pollenHistory(austin, day)).hours).toHaveLength(2);
    expect(http.attempts).toBe(2);
    expect(sleeps).toEqual([90_000]); // not capped at maxBackoffMs (8 s)
  });

  it('retries 5xx with exponential backoff and jitter, then succeeds', async () => {
    const { ambee, http, sleeps } = setup({ retries: 3 });
    server.on(history, { status: 503, body: 'busy' });
    server.on(history, { status: 502, body: 'bad gateway' });
    server.on(history, { status: 200, body: fixture('ambee-v3-history.json') });
    expect((await ambee.pollenHistory(austin, day)).hours).toHaveLength(2);
    expect(http.attempts).toBe(3);
    expect(sleeps).toEqual([250, 500]); // 500 ms x 2^attempt, times a jitter of 0.5
  });

  it('gives up as unavailable after the last retry', async () => {
    const { ambee, http, sleeps } = setup({ retries: 2 });
    server.on(history, { status: 500, body: 'down' }, 3);
    expect((await failure(ambee.pollenHistory(austin, day))).failure).toBe('unavailable');
    expect(http.attempts).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('treats a timeout and a reset connection as retryable', async () => {
    const { ambee, http } = setup({ retries: 1, timeoutMs: 50 });
    server.on(history, { status: 200, body: fixture('ambee-v3-history.json'), delayMs: 500 });
    server.on(history, { status: 0, reset: true });
    const error = await failure(ambee.pollenHistory(austin, day));
    expect(error.failure).toBe('unavailable');
    expect(http.attempts).toBe(2);
  });

  it.each([
    ['a body that is not JSON', '{"data": [', 'not JSON'],
    ['no data list', { message: 'success' }, 'no data list'],
    ['an item without a time', { data: [{ Count: { tree_pollen: 1 } }] }, 'no valid time'],
    ['an item with only a v2 `time` it cannot read', { data: [{ time: 'yesterday' }] }, 'no valid time'],
  ])('rejects %s as a bad payload, without retrying', async (_what, body, message) => {
    const { ambee, http } = setup();
    server.on(history, { status: 200, body });
    const error = await failure(ambee.pollenHistory(austin, day));
    expect(error.failure).toBe('bad_payload');
    expect(error.message).toContain(message);
    expect(http.attempts).toBe(1);
  });

  it('accepts items with missing or extra fields, and leaves out hours it was not asked for', async () => {
    const { ambee } = setup();
    server.on(history, {
      status: 200,
      body: { data: [{ unixTs: H0 * 3600, surprise: true }, { unixTs: (H0 + 30) * 3600 }], timezone: 'America/Chicago' },
    });
    expect((await ambee.pollenHistory(austin, day)).hours).toEqual([
      { time: H0 * HOUR_MS, tree: null, grass: null, weed: null, species: null },
    ]);
  });

  it('declares the past 48 hours by default, with a margin at the old edge, and more when the plan serves more', () => {
    const now = Date.parse('2026-03-10T06:30:00Z');
    const nowHour = Math.floor(now / HOUR_MS);
    expect(setup().ambee.coverage(now)).toEqual({ oldestHour: nowHour - 47, newestHour: nowHour, retryFromHour: nowHour - 47 });
    expect(setup().ambee.coverage(Date.parse('2026-03-10T06:55:00Z')).oldestHour).toBe(nowHour - 46);
    expect(setup({ historyHours: 24 * 30 }).ambee.coverage(now).oldestHour).toBe(nowHour - 24 * 30 + 1);
  });

  it('never asks for more than 48 hours in one request', async () => {
    const { ambee } = setup();
    await expect(ambee.pollenHistory(austin, { from: H0, to: H0 + 49 })).rejects.toThrow(/at most 48 hours/);
    expect(server.seen).toHaveLength(0);
  });

  it('stops before the call once the daily budget (less the forecast reserve) is spent', async () => {
    const store = openStore(join(tempDir(), 'ledger.db'));
    const now = () => Date.parse('2026-03-01T12:00:00Z');
    const { ambee, http } = setup({ ledger: new StoreLedger(store, 'ambee', { daily: 3, forecastReserve: 1 }, 'ingest', now) });
    server.on(history, { status: 200, body: fixture('ambee-v3-history.json') }, 2);
    await ambee.pollenHistory(austin, day);
    await ambee.pollenHistory(austin, day);
    const error = await failure(ambee.pollenHistory(austin, day));
    expect(error.failure).toBe('quota');
    expect(error.message).toMatch(/daily budget spent: 2 of 3 calls used on 2026-03-01, 1 kept for forecasts/);
    expect(http.attempts).toBe(2);
    expect(store.ledger.callsOn('ambee', '2026-03-01')).toEqual({ ingest: 2, forecast: 0 });
    store.close();
  });
});
