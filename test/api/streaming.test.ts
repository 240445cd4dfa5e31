import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toResponse } from '../../src/api/http/netlify.js';

describe('streamed responses', () => {
  it.each(['gzip', 'br', 'identity'])('fail the body, not the process, when a row throws (%s)', async (encoding) => {
    const logged: unknown[] = [];
    function* rows() {
      yield '{"rows":[';
      throw new Error('disk gone');
    }
    const res = toResponse({ status: 200, headers: {}, body: rows() }, encoding, (_m, e) => logged.push(e));
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(logged).toHaveLength(1);
    expect((logged[0] as Error).message).toBe('disk gone');
  });

  it.each(['gzip', 'identity'])('closes the row generator when the client cancels (%s), and logs no failure', async (encoding) => {
    let closed = false;
    function* rows() {
      try {
        for (let i = 0; ; i++) yield `${'x'.repeat(1000)}${i}`;
      } finally {
        closed = true;
      }
    }
    const logged: unknown[] = [];
    const res = toResponse({ status: 200, headers: {}, body: rows() }, encoding, (_m, e) => logged.push(e));
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(logged).toEqual([]);
  });

  it('compresses a whole body that gunzips to the same text', async () => {
    const res = toResponse({ status: 200, headers: {}, body: ['{"a":', '1}'][Symbol.iterator]() }, 'gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe('{"a":1}');
  });
});
