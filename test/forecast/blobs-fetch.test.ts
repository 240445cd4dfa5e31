/**
 * The Blobs client with the bounded fetch, against a real BlobsServer and a loopback server that
 * fails as an outage does: each call is at most two requests, then a 408 the client does not
 * retry, so an outage costs a request seconds instead of the client's five retries. Counted, not
 * timed: without the bounded fetch the same calls make six requests each.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOBS_ATTEMPTS, boundedFetch } from '../../src/deploy-data/blobs-fetch.js';
import { BlobsForecastCache } from '../../src/forecast/cache.js';
import { passedOn } from '../helpers/blobs-outage.js';
import { tempDir } from '../helpers/tmp.js';

type Mode = 'hang' | '503' | '503-once' | 'ok';

/** A loopback stand-in for Blobs that never answers, answers 503, or 503 once and then passes on to the real server. */
function outage(real: () => string) {
  const state = { mode: 'hang' as Mode, requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    if (state.mode === 'hang') return; // no answer: the client's timeout must end it
    if (state.mode === '503' || (state.mode === '503-once' && state.requests === 1)) {
      res.writeHead(503).end('unavailable');
      return;
    }
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      void fetch(`${real()}${req.url}`, {
        method: req.method,
        headers: passedOn(req.headers),
        body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : Buffer.concat(body),
      }).then(async (r) => res.writeHead(r.status, Object.fromEntries(r.headers)).end(Buffer.from(await r.arrayBuffer())));
    });
  });
  return { state, server };
}

describe('the bounded fetch given to the Blobs client', () => {
  let blobs: BlobsServer;
  let blobsUrl = '';
  const { state, server } = outage(() => blobsUrl);
  let proxyUrl = '';
  beforeAll(async () => {
    blobs = new BlobsServer({ directory: tempDir(), token: 'token', logger: () => {} });
    blobsUrl = `http://127.0.0.1:${(await blobs.start()).port}`;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await blobs.stop();
  });
  const store = (bounded: boolean) =>
    getStore({
      name: 'forecast',
      siteID: 'site',
      token: 'token',
      edgeURL: proxyUrl,
      // No pause: each test here counts one call's requests (the pause has its own test).
      ...(bounded ? { fetch: boundedFetch(globalThis.fetch, { timeoutMs: 200, pauseMs: 0 }) } : {}),
    });
  const requestsOf = async (mode: Mode, call: () => Promise<unknown>) => {
    Object.assign(state, { mode, requests: 0 });
    const outcome = await call().then(
      (value) => ({ value }),
      (error: unknown) => ({ error: String(error) }),
    );
    return { requests: state.requests, outcome };
  };

  it('gives up on a server that never answers after two requests, with a 408 the client does not retry', async () => {
    const { requests, outcome } = await requestsOf('hang', () => store(true).get('k', { type: 'json' }));
    expect(requests).toBe(BLOBS_ATTEMPTS);
    expect(outcome).toMatchObject({ error: expect.stringContaining('408') });
  }, 20_000);

  it('tries a 503 once more and then stops, where the client alone would try six times', async () => {
    expect((await requestsOf('503', () => store(true).get('k', { type: 'json' }))).requests).toBe(BLOBS_ATTEMPTS);
    // NODE_ENV=test makes the client's own retries 1 ms apart: six requests, the first and five retries.
    expect((await requestsOf('503', () => store(false).get('k', { type: 'json' }))).requests).toBe(6);
  }, 20_000);

  it('passes a 503 followed by an answer through: one retry is enough, and writes are sent again whole', async () => {
    const written = await requestsOf('503-once', () => store(true).setJSON('k', { a: 1 }));
    expect(written.requests).toBe(2);
    const read = await requestsOf('ok', () => store(true).get('k', { type: 'json' }));
    expect(read).toEqual({ requests: 1, outcome: { value: { a: 1 } } });
  }, 20_000);

  it('after a call gave up, answers the next calls at once without asking, until the pause is over', async () => {
    const clock = { now: 1_000_000 };
    const paused = getStore({
      name: 'forecast',
      siteID: 'site',
      token: 'token',
      edgeURL: proxyUrl,
      fetch: boundedFetch(globalThis.fetch, { timeoutMs: 200, pauseMs: 30_000, now: () => clock.now }),
    });
    expect((await requestsOf('hang', () => paused.get('k', { type: 'json' }))).requests).toBe(BLOBS_ATTEMPTS);
    // Within the pause: three calls (a read, a write, a list), not one request among them.
    const during = await requestsOf('ok', async () => {
      for (const call of [() => paused.get('k'), () => paused.setJSON('k', 1), () => paused.list()])
        await call().then(
          () => expect.unreachable('a call within the pause was answered'),
          (error: unknown) => expect(String(error)).toContain('408'),
        );
    });
    expect(during.requests).toBe(0);
    clock.now += 30_000;
    expect(await requestsOf('ok', () => paused.setJSON('k', 2))).toMatchObject({ requests: 1 });
  }, 20_000);

  it("lets the forecast cache's reads fail fast in an outage, each a counted error", async () => {
    const cache = new BlobsForecastCache(store(true));
    const { requests, outcome } = await requestsOf('hang', () => cache.read('sample', 'austin'));
    expect(requests).toBe(BLOBS_ATTEMPTS);
    expect(outcome).toHaveProperty('error');
  }, 20_000);
});
