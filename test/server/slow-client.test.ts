import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/server/server.js';

/** The idle limit the server is given here, in place of its 30 s. */
const IDLE_MS = 1_000;

describe('a client that stops reading is dropped once nothing has moved for idleTimeoutMs', () => {
  let server: RunningServer;
  let root = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pollen-slow-'));
    mkdirSync(join(root, 'functions'));
    mkdirSync(join(root, 'publish'));
    writeFileSync(join(root, 'netlify.toml'), '[build]\n  publish = "publish"\n  functions = "functions"\n');
    // Larger than any socket buffer, so that a client that reads nothing stalls it.
    writeFileSync(join(root, 'publish', 'big.bin'), '');
    truncateSync(join(root, 'publish', 'big.bin'), 64 * 1024 * 1024);
    writeFileSync(
      join(root, 'functions', 'endless.mjs'),
      [
        'export default () => new Response(new ReadableStream({',
        "  pull: (c) => c.enqueue(new TextEncoder().encode('x'.repeat(65536))),",
        '}));',
        "export const config = { path: '/endless' };",
        '',
      ].join('\n'),
    );
    server = await serve({ root, port: 0, idleTimeoutMs: IDLE_MS });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Milliseconds from sending a request, then reading nothing, to the server closing the connection. */
  async function dropAfter(path: string): Promise<number> {
    const closed = new Promise<number>((resolve) =>
      server.server.once('connection', (socket) => socket.once('close', () => resolve(performance.now()))),
    );
    const client = connect(Number(new URL(server.url).port), '127.0.0.1');
    try {
      client.pause();
      const sent = performance.now();
      client.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      // Bounded: a server that never drops it fails here, not at the suite's timeout.
      const limit = new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 20 * IDLE_MS).unref());
      return (await Promise.race([closed, limit])) - sent;
    } finally {
      client.destroy();
    }
  }

  it.each([
    ['a streamed function answer', '/endless'],
    ['a static file', '/big.bin'],
  ])('%s: not before the limit, and well before twice it', async (_what, path) => {
    const elapsed = await dropAfter(path);
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_MS);
    // Node's own socket timeout lets its first expiry pass while a write is under way, so it drops
    // such a client after at least twice the limit; the margin left covers a busy machine's timers.
    expect(elapsed).toBeLessThan(1.9 * IDLE_MS);
  });
});
