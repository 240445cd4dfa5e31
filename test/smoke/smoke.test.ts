import { renameSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes.js';
import { dayOf } from '../../src/domain/dates.js';
import { formatSmoke, smoke } from '../../src/smoke/smoke.js';
import { runCli } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

// Fresh sample data (yesterday and the day before): /api/health says simulated, which a demonstration site's smoke allows.
const today = dayOf(Date.now());
const fresh = { cities: ['tulsa', 'honolulu'], span: { from: today - 2, to: today - 1 } };
const NODE = Number(process.versions.node.split('.')[0]);

describe('smoke against the local server', () => {
  const site = useSite(fresh);

  it('passes every check, and prints a pass/fail table', async () => {
    const checks = await smoke(site.server.url, { expectNode: NODE, allowSimulated: true });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.length).toBeGreaterThanOrEqual(15);
    const table = formatSmoke(site.server.url, checks);
    expect(table).toContain('| health: fresh data, on the expected Node.js | pass | simulated,');
    // A tool per route that has one, find_city and explain_risk.
    expect(table).toContain(`| MCP: tools/list | pass | ${ROUTES.filter((r) => r.tool).length + 2} tools |`);
    expect(table).toMatch(
      /\| alerts: .* \| pass \| \d+ of [23] local days at Low or above; ics, atom and jsonfeed agree; species=ash watched \|/,
    );
    // The site serves the built-in 40 (data for tulsa and honolulu): Manhattan's nearest is New York.
    expect(table).toMatch(
      /\| nearest: .* \| pass \| \S+ at 0 km; zip 10001: new-york, philadelphia, scranton; at sea: honolulu at \d+(\.\d)? km \|/,
    );
    expect(table).toMatch(
      /\| bulk files: .* \| pass \| \d+ files; \/data\/bulk\/pollen-hourly-\d{4}-\d{2}\.parquet: 206, PAR1, of \d+ bytes \|/,
    );
    expect(table).toMatch(/\| forecast from the store's provider .* \| pass \| \d+ hours from (sample|cache);/);
    expect(table).toMatch(/\| MCP: get_forecast from the store's provider \| pass \| \d+ hours from cache \|/);
    expect(table).toContain('| MCP: one message per POST (a batch is refused), nosniff | pass | 400 -32600, nosniff |');
    expect(table).toContain(
      '| one URL per answer: no computed endpoint under /data/fallback/ | pass | /data/fallback/pollen-range and /data/fallback/forecast are 404s |',
    );
    expect(table).toMatch(/\| pollen-range with an unknown parameter: .* \| pass \| the host sends no Cache-Status/);
    expect(table).toMatch(/\| forecast skill: .* \| pass \| \d+ forecasts and \d+ outlooks kept; tree a day ahead: \d+ days, Gerrity /);
    expect(table).toMatch(/smoke: (\d+) of \1 checks passed/);
  });

  it("fails the forecast checks, saying why, when the functions' environment names another provider", async () => {
    process.env.POLLEN_PROVIDER = 'ambee';
    try {
      const failed = (await smoke(site.server.url, { allowSimulated: true })).filter((c) => !c.ok);
      const why = 'POLLEN_PROVIDER names ambee: unset it, or set it to sample';
      expect(failed.map((c) => c.name)).toEqual([
        "forecast from the store's provider (one upstream request at most; the day view reads the cache)",
        "forecast map: today from the forecast's cache, agreeing with the city's forecast",
        "alerts: JSON, calendar and feeds from the forecast's cache, linking to this host",
        "MCP: get_forecast from the store's provider",
      ]);
      expect(failed[0]!.detail).toContain(why);
      expect(failed[1]!.detail).toContain(why);
      expect(failed[3]!.detail).toContain(why);
    } finally {
      delete process.env.POLLEN_PROVIDER;
    }
  });

  it("fails the health check alone, naming --allow-simulated, when the site serves the sample's data unasked", async () => {
    const failed = (await smoke(site.server.url, { expectNode: NODE })).filter((c) => !c.ok);
    expect(failed).toEqual([
      {
        name: 'health: fresh data, on the expected Node.js',
        ok: false,
        detail: `HTTP 503, status "simulated": the deployment serves the sample provider's invented data (--allow-simulated checks a demonstration site)`,
      },
    ]);
    const run = await runCli(['smoke', site.server.url]);
    expect(run.code).toBe(1);
  });

  it('fails the health check when the functions run another Node.js major', async () => {
    const checks = await smoke(site.server.url, { expectNode: NODE + 1, allowSimulated: true });
    expect(checks.filter((c) => !c.ok).map((c) => c.detail)).toEqual([
      expect.stringMatching(new RegExp(`functions run Node v${NODE}\\..*, expected ${NODE + 1}`)),
    ]);
  });

  it("fails the data checks, saying what to run, when the deploy's shards cannot be read", async () => {
    renameSync(join(site.dir, 'shards'), join(site.dir, 'shards.away'));
    try {
      const failed = (await smoke(site.server.url, { allowSimulated: true })).filter((c) => !c.ok);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.some((c) => /HTTP 503 .*DATA_UNAVAILABLE.*shards upload/.test(c.detail))).toBe(true);
    } finally {
      renameSync(join(site.dir, 'shards.away'), join(site.dir, 'shards'));
    }
  });

  it('exits 0 from the command line, and 2 without a usable URL', async () => {
    const ok = await runCli(['smoke', site.server.url, '--expect-node', String(NODE), '--allow-simulated']);
    expect(ok.code, ok.stdout).toBe(0);
    for (const args of [
      [],
      ['ftp://example.org'],
      ['not a url'],
      [`${site.server.url}/api/cities`],
      [site.server.url, '--expect-node', 'latest'],
    ]) {
      const bad = await runCli(['smoke', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(/^error: /);
    }
  });
});

describe('smoke when query rules match only exactly their parameters', () => {
  const site = useSite({ ...fresh, queryMatching: 'exact' });

  it("still passes: a request with an extra parameter never gets another form's file", async () => {
    const checks = await smoke(site.server.url, { allowSimulated: true });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('smoke against a server that is not this API', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fails, and the command exits 1', async () => {
    const checks = await smoke(url, { timeoutMs: 2000 });
    expect(checks.filter((c) => c.ok)).toEqual([]);
    const run = await runCli(['smoke', url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\| cities \| \*\*FAIL\*\* \|/);
  });
});
