import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from '../helpers/browser.js';
import { meterTransfer } from '../helpers/transfer.js';

/** A tiny site whose every answer's bytes on the wire are known: one connection per answer, each length given. */
const PAGE = `<!doctype html><html><head><link rel="icon" href="data:,"><script src="/app.js"></script></head><body>${'<p>pollen</p>'.repeat(300)}</body></html>`;
const APP = `fetch('/data.json').then((r) => r.json()).then((d) => { document.body.dataset.level = d.level; });${' '.repeat(2000)}`;
const DATA = JSON.stringify({ level: 'high', rows: Array.from({ length: 50 }, (_, i) => i) });

describe.skipIf(!hasChromium)('meterTransfer counts the bytes a page received', () => {
  const browser = useBrowser({ now: Date.UTC(2025, 3, 11, 15) });
  let server: Server;
  let origin = '';
  /** Bytes written on each connection, read when it closes; and the bodies as sent. */
  const written: number[] = [];
  const sentBodies = new Map<string, number>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const [status, type, body, coding] =
        req.url === '/'
          ? [200, 'text/html; charset=utf-8', gzipSync(PAGE), 'gzip']
          : req.url === '/app.js'
            ? [200, 'text/javascript', brotliCompressSync(APP), 'br']
            : req.url === '/data.json'
              ? [200, 'application/json', Buffer.from(DATA), undefined]
              : req.url === '/moved'
                ? // Bodiless, as the local server's redirects: Chromium reads no body of a redirect.
                  [302, 'text/plain', Buffer.alloc(0), undefined]
                : [404, 'text/plain', Buffer.from('none'), undefined];
      sentBodies.set(req.url ?? '', body.length);
      res.writeHead(status, {
        'Content-Type': type,
        'Content-Length': String(body.length),
        Connection: 'close',
        ...(coding ? { 'Content-Encoding': coding } : {}),
        ...(status === 302 ? { Location: '/' } : {}),
      });
      res.end(body);
    });
    server.on('connection', (socket: Socket) => socket.on('close', () => written.push(socket.bytesWritten)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the compressed bytes of every answer, headers included, a redirect too: all that the server wrote', async () => {
    const page = await browser().newPage();
    try {
      const meter = await meterTransfer(page);
      await page.goto(`${origin}/moved`);
      await page.waitForSelector('body[data-level="high"]');
      const responses = await meter.responses();
      await meter.stop();
      expect(responses.map((r) => new URL(r.url).pathname)).toEqual(['/moved', '/', '/app.js', '/data.json']);
      expect(responses.every((r) => r.finished)).toBe(true);
      // Each answer is its headers and its body as sent, compressed where it was.
      for (const r of responses) expect(r.bytes).toBeGreaterThan(sentBodies.get(new URL(r.url).pathname)!);
      expect(responses[1]!.bytes).toBeLessThan(PAGE.length);
      await page.close();
      // Every connection has closed once the page has: what the server wrote, all of it.
      await expect.poll(() => written.length).toBeGreaterThanOrEqual(4);
      const total = responses.reduce((sum, r) => sum + r.bytes, 0);
      expect(total).toBe(written.reduce((sum, n) => sum + n, 0));
    } finally {
      if (!page.isClosed()) await page.close();
    }
  });
});
