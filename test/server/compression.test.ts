import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedCoding, compressible, encodedEtag, varyOnEncoding } from '../../src/server/compress.js';
import { type Exchange, rawExchange } from '../helpers/raw-exchange.js';
import { useSite } from '../helpers/site.js';

/** Headers that belong to one connection or one moment, not to the answer. */
const PER_MESSAGE = ['date', 'connection', 'keep-alive', 'transfer-encoding'];

const decode = (e: Exchange): Buffer =>
  e.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(e.body)
    : e.headers['content-encoding'] === 'gzip'
      ? gunzipSync(e.body)
      : e.body;

describe('the local server compresses answers as the CDN does', () => {
  const site = useSite();
  let parquet = '';
  beforeAll(() => {
    writeFileSync(join(site.publish, 'rows.csv'), 'city,day,total\n'.concat('austin,2025-04-01,12\n'.repeat(200)));
    const bulk = readdirSync(join(site.publish, 'data', 'bulk')).find((f) => f.endsWith('.parquet'));
    parquet = `/data/bulk/${bulk}`;
  });

  /** One raw exchange on a connection of its own (no client decoding anything). */
  const ask = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> =>
    rawExchange(site.server.url, method, path, headers);

  /** What answers, whether a file (which answers byte ranges) or a function, and the path. */
  const TEXT: [string, 'file' | 'function', string][] = [
    ['a static JSON file', 'file', '/api/cities'],
    ['the landing page', 'file', '/'],
    ['a static CSV file', 'file', '/rows.csv'],
    ['a whole function answer', 'function', '/api/forecast?city=austin'],
    ['the fallback (a date outside the snapshot)', 'function', '/api/pollen?city=austin&date=2025-03-01'],
    ['a streamed answer, which the function compresses itself', 'function', '/api/pollen-range?from=2025-04-01&to=2025-04-03&city=austin'],
    ['a streamed CSV answer', 'function', '/api/pollen-range?from=2025-04-01&to=2025-04-03&city=austin&format=csv'],
  ];

  it.each(TEXT)('%s (%s): br and gzip decode to the identity bytes, and each varies with Accept-Encoding', async (_what, by, path) => {
    // Once before, so that a forecast comes from the cache the second time as every time after.
    await ask(path);
    const identity = await ask(path);
    expect(identity.status).toBe(200);
    expect(identity.headers['accept-ranges'] === 'bytes').toBe(by === 'file');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(0);
    for (const coding of ['br', 'gzip']) {
      const encoded = await ask(path, { 'Accept-Encoding': coding });
      expect(encoded.status).toBe(200);
      expect(encoded.headers['content-encoding']).toBe(coding);
      expect(encoded.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(encoded).equals(identity.body)).toBe(true);
      // Codings add a few bytes of their own: only a body of some size shrinks.
      if (identity.body.length > 500) expect(encoded.body.length).toBeLessThan(identity.body.length);
      // A length, when sent, is that of the bytes sent.
      if (encoded.headers['content-length'] !== undefined) expect(Number(encoded.headers['content-length'])).toBe(encoded.body.length);
    }
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
  });

  it('a browser header gets Brotli; a file compressed once answers the same bytes again', async () => {
    const first = await ask('/', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    const second = await ask('/', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(second.body.equals(first.body)).toBe(true);
  });

  it('honours q-values: q=0 refuses a coding, the higher q wins, * stands for the others', async () => {
    expect((await ask('/api/cities', { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await ask('/api/cities', { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' })).headers['content-encoding']).toBe('gzip');
    expect((await ask('/api/cities', { 'Accept-Encoding': 'gzip;q=0, br;q=0' })).headers['content-encoding']).toBeUndefined();
    expect((await ask('/api/cities', { 'Accept-Encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect((await ask('/api/cities', { 'Accept-Encoding': '*' })).headers['content-encoding']).toBe('br');
    expect(acceptedCoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(acceptedCoding('BR ; Q=0.8, gzip;q=0.9')).toBe('gzip');
    expect(acceptedCoding(undefined)).toBeUndefined();
  });

  it('a HEAD of a compressed file carries its GET headers, the compressed length included, and no body', async () => {
    for (const path of ['/', '/api/forecast?city=austin']) {
      const get = await ask(path, { 'Accept-Encoding': 'br' });
      const head = await ask(path, { 'Accept-Encoding': 'br' }, 'HEAD');
      expect(head.body.length).toBe(0);
      const answer = (e: Exchange) => Object.fromEntries(Object.entries(e.headers).filter(([k]) => !PER_MESSAGE.includes(k)));
      expect(answer(head)).toEqual(answer(get));
    }
  });

  it('a byte range is of the identity bytes, whatever the client accepts', async () => {
    const whole = await ask('/');
    const part = await ask('/', { 'Accept-Encoding': 'br, gzip', Range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.equals(whole.body.subarray(0, 100))).toBe(true);
  });

  it('Parquet is never compressed, and its ranges still answer', async () => {
    const file = await ask(parquet, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(file.status).toBe(200);
    expect(file.headers['content-encoding']).toBeUndefined();
    expect(Number(file.headers['content-length'])).toBe(file.body.length);
    const magic = await ask(parquet, { 'Accept-Encoding': 'br', Range: 'bytes=0-3' });
    expect(magic.status).toBe(206);
    expect(magic.body.toString()).toBe('PAR1');
  });

  it('text types are compressed, binary ones and event streams are not', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/json',
      'application/geo+json',
      'text/csv; charset=utf-8',
      'text/javascript',
      'text/css',
      'image/svg+xml',
      'application/atom+xml',
    ])
      expect(compressible(type)).toBe(true);
    for (const type of [
      'application/vnd.apache.parquet',
      'image/png',
      'application/gzip',
      'application/octet-stream',
      'text/event-stream',
      undefined,
    ])
      expect(compressible(type)).toBe(false);
  });

  it("keeps Vary's other names, and marks a compressed answer's ETag as Netlify does", () => {
    expect(varyOnEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyOnEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyOnEncoding('accept-encoding')).toBe('accept-encoding');
    expect(encodedEtag('"abc-ssl"')).toBe('"abc-ssl-df"');
    expect(encodedEtag('W/"abc"')).toBe('W/"abc-df"');
  });
});
