import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { ROOT } from '../helpers/cli.js';
import { type Exchange, rawExchange } from '../helpers/raw-exchange.js';
import { buildStore } from '../helpers/site.js';

/** Headers that belong to one connection or one moment, not to the answer. */
const PER_MESSAGE = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'];

describe('HEAD answers carry the headers GET answers carry', () => {
  let dir = '';
  let server: RunningServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-head-'));
    const db = await buildStore(dir, ['tulsa'], { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-02') });
    process.env.POLLEN_DB = db;
    process.env.FORECAST_CACHE_DB = join(dir, 'forecast-cache.db');
    // No render: every answer is a function's.
    server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One raw exchange: the status, every header as sent, and the bytes of the body (none are decoded). */
  const ask = (method: string, path: string, headers: Record<string, string>): Promise<Exchange> =>
    rawExchange(server.url, method, path, headers);
  const answerHeaders = (e: Exchange) => Object.fromEntries(Object.entries(e.headers).filter(([k]) => !PER_MESSAGE.includes(k)));

  it.each([
    ['a streamed answer, brotli accepted', '/api/pollen-range?from=2025-04-01&to=2025-04-02&city=tulsa', 'gzip, deflate, br'],
    ['a streamed answer, gzip accepted', '/api/pollen-range?from=2025-04-01&to=2025-04-02&city=tulsa&format=csv', 'gzip'],
    ['a streamed answer, no encoding accepted', '/api/pollen-range?from=2025-04-01&to=2025-04-02&city=tulsa', 'identity'],
    ['a whole answer', '/api/pollen?city=tulsa&date=2025-04-01', 'gzip, br'],
  ])('%s', async (_what, path, acceptEncoding) => {
    const get = await ask('GET', path, { 'Accept-Encoding': acceptEncoding });
    const head = await ask('HEAD', path, { 'Accept-Encoding': acceptEncoding });
    expect(get.status).toBe(200);
    expect(get.body.length).toBeGreaterThan(0);
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(answerHeaders(head)).toEqual(answerHeaders(get));
  });
});
