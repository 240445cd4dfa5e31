import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_REFUSED } from '../../src/mcp/streamable-http.js';
import { type RunningServer, serve } from '../../src/server/server.js';
import { ROOT } from '../helpers/cli.js';

describe('/mcp tells a body that is not JSON from JSON that is not a JSON-RPC message', () => {
  let dir = '';
  let server: RunningServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-mcp-'));
    // No site is needed: no body here reaches a tool.
    server = await serve({ root: ROOT, publishDir: join(dir, 'publish'), port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: string) => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
    });
    return { status: res.status, nosniff: res.headers.get('x-content-type-options'), json: (await res.json()) as Record<string, any> };
  };

  it.each([
    ['an object of no JSON-RPC shape', '{"foo":1}'],
    ['a number', '42'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['true', 'true'],
    ['an object with jsonrpc only', '{"jsonrpc":"2.0"}'],
    ['another JSON-RPC version', '{"jsonrpc":"1.0","method":"tools/list","id":1}'],
    ['a method that is not a string', '{"jsonrpc":"2.0","method":7,"id":1}'],
  ])('answers %s with -32600 Invalid Request', async (_what, body) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.nosniff).toBe('nosniff');
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.json.error.message).toMatch(/^Invalid Request/);
  });

  it.each([
    ['a cut-off object', '{"jsonrpc":"2.0","method":'],
    ['a bare word', 'nul'],
    ['an empty body', ''],
  ])('answers %s, which is not JSON, with -32700 Parse error', async (_what, body) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('still refuses a batch, and still answers a request', async () => {
    const batch = await post('[{"jsonrpc":"2.0","method":"tools/list","id":1}]');
    expect(batch.status).toBe(400);
    expect(batch.json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSED }, id: null });
    const list = await post('{"jsonrpc":"2.0","method":"tools/list","id":1}');
    expect(list.status).toBe(200);
    expect(list.json.id).toBe(1);
    expect(Array.isArray(list.json.result.tools)).toBe(true);
  });
});
