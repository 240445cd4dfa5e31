import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/contract/error.js';
import { type RunningServer, serve } from '../../src/server/server.js';

const MB = 1024 * 1024;
const SIZE = 64 * MB;

/** Bytes this process has passed through read(2) and its kin, page cache and sparse holes included (Linux). */
const PROC_IO = '/proc/self/io';
const bytesRead = (): number => Number(/^rchar: (\d+)$/m.exec(readFileSync(PROC_IO, 'utf8'))![1]);

describe('byte ranges of a large static file', () => {
  let server: RunningServer;
  let root = '';
  let file = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pollen-ranges-'));
    mkdirSync(join(root, 'functions'));
    mkdirSync(join(root, 'publish'));
    writeFileSync(join(root, 'netlify.toml'), '[build]\n  publish = "publish"\n  functions = "functions"\n');
    // 64 MB, sparse but for a marked byte pattern every 2 MB, so that each range has bytes of its own.
    file = join(root, 'publish', 'big.parquet');
    const fd = openSync(file, 'w');
    try {
      for (let at = 0; at < SIZE; at += 2 * MB) writeSync(fd, Buffer.from(`<${at}>`.repeat(8)), 0, undefined, at);
      writeSync(fd, Buffer.from('END'), 0, 3, SIZE - 3);
    } finally {
      closeSync(fd);
    }
    server = await serve({ root, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** The bytes [start, end] of the file, read where they are. */
  const slice = (start: number, end: number): Buffer => {
    const out = Buffer.alloc(end - start + 1);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, out, 0, out.length, start);
    } finally {
      closeSync(fd);
    }
    return out;
  };

  it.skipIf(!existsSync(PROC_IO))(
    'answers 30 ten-byte ranges with 206 and the right bytes, reading far less than the file once (skipped where /proc/self/io is absent)',
    async () => {
      const ranges = Array.from({ length: 30 }, (_, i) => {
        const start = i === 29 ? SIZE - 10 : i * 2 * MB + (i % 5);
        return { start, end: start + 9 };
      });
      const before = bytesRead();
      for (const { start, end } of ranges) {
        const res = await fetch(`${server.url}/big.parquet`, { headers: { Range: `bytes=${start}-${end}` } });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`);
        expect(res.headers.get('content-length')).toBe('10');
        expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
        expect(Buffer.from(await res.arrayBuffer())).toEqual(slice(start, end));
      }
      const read = bytesRead() - before;
      // Reading the whole file for each range reads 30 x 64 MB; reading what is asked reads 300 bytes
      // (and a few kilobytes of sockets). One file's size is a bound no whole-file read can meet.
      expect(read).toBeLessThan(SIZE);
    },
  );

  it("answers a suffix range, a HEAD, and a range past the end with the API's JSON error", async () => {
    const tail = await fetch(`${server.url}/big.parquet`, { headers: { Range: 'bytes=-3' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${SIZE - 3}-${SIZE - 1}/${SIZE}`);
    expect(await tail.text()).toBe('END');

    const head = await fetch(`${server.url}/big.parquet`, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-length')).toBe('10');
    expect(head.headers.get('content-range')).toBe(`bytes 0-9/${SIZE}`);

    const past = await fetch(`${server.url}/big.parquet`, { headers: { Range: `bytes=${SIZE}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect(past.headers.get('cache-control')).toBe('no-store');
    // The API's error, in its JSON: not an empty body under the file's own type.
    expect(past.headers.get('content-type')).toBe('application/json');
    expect(ErrorBody.parse(await past.json())).toEqual({
      error: `The byte range asked for starts past the end of the file (${SIZE} bytes)`,
      code: 'RANGE_NOT_SATISFIABLE',
    });
  });
});
