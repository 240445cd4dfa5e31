import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cityBySlug } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { AmbeeProvider } from '../../src/providers/ambee.js';
import { StoreLedger } from '../../src/providers/budget.js';
import { HttpClient } from '../../src/providers/http.js';
import { ProviderError } from '../../src/providers/provider.js';
import { openStore } from '../../src/store/store.js';
import { fixture, mockAgent } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'test-key-4f9a1c';
const BASE = 'https://api.ambeedata.com';
const austin = cityBySlug('austin')!;
const span = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-01') };

function setup(options: { retries?: number; ledger?: StoreLedger; timeoutMs?: number } = {}) {
  const agent = mockAgent();
  const sleeps: number[] = [];
  const http = new HttpClient({
    provider: 'ambee',
    policy: { retries: options.retries ?? 2, backoffMs: 500, maxBackoffMs: 8000, timeoutMs: options.timeoutMs ?? 2000 },
    dispatcher: agent,
    secrets: [KEY],
    ledger: options.ledger,
    random: () => 0.5,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { agent, pool: agent.get(BASE), sleeps, http, ambee: new AmbeeProvider({ apiKey: KEY, http }) };
}
const history = { path: (p: string) => p.startsWith('/v3/pollen/history?'), method: 'GET' };
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as Error).message).not.toContain(KEY);
  return error as ProviderError;
};

describe('Ambee client', () => {
  it('asks for the window by latitude and longitude with the key in x-api-key, and maps every field', async () => {
    const { pool, ambee } = setup();
    let seen: { path: string; headers: Record<string, string> } | undefined;
    pool.intercept(history).reply((req) => {
      seen = { path: req.path, headers: req.headers as Record<string, string> };
      return { statusCode: 200, data: fixture('ambee-history.json') };
    });
    const batch = await ambee.pollenHistory(austin, span);
    const url = new URL(seen!.path, BASE);
    expect(url.searchParams.get('lat')).toBe('30.2672');
    expect(url.searchParams.get('lng')).toBe('-97.7431');
    expect(url.searchParams.get('from')).toBe('2025-04-01 00:00:00');
    expect(url.searchParams.get('to')).toBe('2025-04-01 23:59:59');
    expect(seen!.headers['x-api-key']).toBe(KEY);
    expect(batch.timezone).toBe('America/Chicago');
    const [first, second] = batch.hours;
    expect(first).toEqual({ time: Date.parse('2025-04-01T00:00:00Z'), tree: 2472, grass: 45, weed: 0, species: fixture('ambee-history.json').data[0].Species });
    expect(second).toMatchObject({ time: Date.parse('2025-04-01T01:00:00Z'), tree: 2001, grass: 38.5, weed: null });
    expect(JSON.stringify(second!.species)).toBe(JSON.stringify(fixture('ambee-history.json').data[1].Species));
  });

  it('reads the forecast endpoint', async () => {
    const { pool, ambee } = setup();
    pool.intercept({ path: (p) => p.startsWith('/v3/pollen/forecast/48hrs?lat=30.2672&lng=-97.7431'), method: 'GET' }).reply(200, fixture('ambee-history.json'));
    expect((await ambee.pollenForecast(austin, Date.now())).hours).toHaveLength(2);
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'unauthorized'],
    [404, 'not_covered'],
    [429, 'quota'],
    [400, 'bad_payload'],
  ])('maps HTTP %i to %s without retrying', async (status, kind) => {
    const { pool, ambee, http } = setup();
    pool.intercept(history).reply(status, { message: `refused for key ${KEY}` }, { headers: { 'retry-after': '120' } });
    const error = await failure(ambee.pollenHistory(austin, span));
    expect(error.failure).toBe(kind);
    expect(error.message).toContain('***');
    expect(http.attempts).toBe(1);
    if (status === 429) expect(error.retryAfterSeconds).toBe(120);
  });

  it('retries 5xx with exponential backoff and jitter, then succeeds', async () => {
    const { pool, ambee, http, sleeps } = setup({ retries: 3 });
    pool.intercept(history).reply(503, 'busy');
    pool.intercept(history).reply(502, 'bad gateway');
    pool.intercept(history).reply(200, fixture('ambee-history.json'));
    expect((await ambee.pollenHistory(austin, span)).hours).toHaveLength(2);
    expect(http.attempts).toBe(3);
    expect(sleeps).toEqual([250, 500]); // 500 ms x 2^attempt, times a jitter of 0.5
  });

  it('gives up as unavailable after the last retry', async () => {
    const { pool, ambee, http, sleeps } = setup({ retries: 2 });
    pool.intercept(history).reply(500, 'down').times(3);
    expect((await failure(ambee.pollenHistory(austin, span))).failure).toBe('unavailable');
    expect(http.attempts).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('treats a timeout and a reset connection as retryable', async () => {
    const { pool, ambee, http } = setup({ retries: 1, timeoutMs: 50 });
    pool.intercept(history).reply(200, fixture('ambee-history.json')).delay(500);
    pool.intercept(history).replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const error = await failure(ambee.pollenHistory(austin, span));
    expect(error.failure).toBe('unavailable');
    expect(http.attempts).toBe(2);
  });

  it.each([
    ['a body that is not JSON', '{"data": [', 'not JSON'],
    ['no data list', { message: 'success' }, 'no data list'],
    ['an item without a time', { data: [{ Count: { tree_pollen: 1 } }] }, 'no valid time'],
  ])('rejects %s as a bad payload, without retrying', async (_what, body, message) => {
    const { pool, ambee, http } = setup();
    pool.intercept(history).reply(200, body as never);
    const error = await failure(ambee.pollenHistory(austin, span));
    expect(error.failure).toBe('bad_payload');
    expect(error.message).toContain(message);
    expect(http.attempts).toBe(1);
  });

  it('accepts items with missing or extra fields', async () => {
    const { pool, ambee } = setup();
    pool.intercept(history).reply(200, { data: [{ time: 1743465600, surprise: true }], timezone: 'America/Chicago' });
    expect((await ambee.pollenHistory(austin, span)).hours).toEqual([{ time: 1743465600000, tree: null, grass: null, weed: null, species: null }]);
  });

  it('stops before the call once the daily budget (less the forecast reserve) is spent', async () => {
    const store = openStore(join(tempDir(), 'ledger.db'));
    const now = () => Date.parse('2026-03-01T12:00:00Z');
    const { pool, ambee, http } = setup({ ledger: new StoreLedger(store, 'ambee', { daily: 3, forecastReserve: 1 }, 'ingest', now) });
    pool.intercept(history).reply(200, fixture('ambee-history.json')).times(2);
    await ambee.pollenHistory(austin, span);
    await ambee.pollenHistory(austin, span);
    const error = await failure(ambee.pollenHistory(austin, span));
    expect(error.failure).toBe('quota');
    expect(error.message).toMatch(/daily budget spent: 2 of 3 calls used on 2026-03-01, 1 kept for forecasts/);
    expect(http.attempts).toBe(2);
    expect(store.callsOn('ambee', '2026-03-01')).toEqual({ ingest: 2, forecast: 0 });
    store.close();
  });
});
