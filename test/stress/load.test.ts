import autocannon from 'autocannon';
import { describe, expect, it } from 'vitest';
import { useSite } from '../helpers/site.js';
import { count } from './counters.js';

const site = useSite();
const RPC = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_pollen', arguments: { city: 'tulsa', date: '2025-04-05' } },
  });

describe('load on the local server', () => {
  it('serves a mix of static reads, ranges, forecasts and MCP calls at 50 connections for 30 s with no error and no 5xx', async () => {
    const result = await autocannon({
      url: site.server.url,
      connections: 50,
      duration: 30,
      timeout: 20,
      requests: [
        { method: 'GET', path: '/api/pollen?city=austin&date=2025-04-03' },
        { method: 'GET', path: '/api/map-data' },
        { method: 'GET', path: '/api/pollen-range?from=2025-04-01&to=2025-04-04&city=austin,wichita' },
        { method: 'GET', path: '/api/forecast?city=tulsa' },
        {
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: RPC(1),
        },
        { method: 'GET', path: '/api/pollen?city=atlantis' }, // a 404 JSON answer is part of the mix too
      ],
    });
    count({ requests: result.requests.total });
    console.log(
      `load: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    );
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    const codes = Object.keys(result.statusCodeStats ?? {}).map(Number);
    expect(codes.every((c) => c < 500)).toBe(true);
    expect(codes.sort()).toEqual([200, 404]);
    expect(result.requests.total).toBeGreaterThan(1000);
  });
});
