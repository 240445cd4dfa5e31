/**
 * `smoke`: conformance of any deployment, local or real, from the outside. This machine reaches
 * no Netlify site, so this is the check a deployer (and the scheduled rebuild, against its draft
 * deploy) runs: every endpoint and mode, the errors, CORS and cache headers present exactly once,
 * extra parameters harmless, placeholder traversal refused, health on the expected Node major, a
 * store-backed function answering, nearest (and its ZIP table), what each function needs in its
 * environment (a forecast, over HTTP and MCP, from the store's provider), one URL and one cache
 * entry per answer, MCP one message per POST, and at most one forecast request (alerts and MCP
 * read the forecast's cache). The checks are a table of named functions, run in order: the first
 * ones find the provider, a date and a city the others read.
 */
import * as endpoint from './endpoint-checks.js';
import * as fn from './function-checks.js';
import { Failure, Probe } from './probe.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeOptions {
  /** The Node.js major the functions must run on (from /api/health). */
  expectNode?: number;
  /** A demonstration site: health may say `simulated` (the sample provider's data). */
  allowSimulated?: boolean;
  timeoutMs?: number;
}

/** A check: what it says it checks, and how; its detail when it passes. */
interface Named {
  name: string;
  run: (p: Probe, options: SmokeOptions) => Promise<string>;
}

export const CHECKS: readonly Named[] = [
  { name: 'health: fresh data, on the expected Node.js', run: (p, o) => endpoint.health(p, o.expectNode, o.allowSimulated) },
  { name: 'latest date and available dates', run: endpoint.dates },
  { name: 'cities', run: endpoint.cities },
  { name: 'nearest: a city from its own position, a ZIP code (the table ships), a point at sea, a bad ZIP', run: endpoint.nearest },
  { name: 'pollen: a city-day, a city, a date, and neither', run: endpoint.pollen },
  { name: "season: a city's default answer, an earlier year and one category, a bad category", run: endpoint.season },
  { name: "forecast skill: a city's answer from the store's provider, one category and lead, a bad lead", run: endpoint.forecastSkill },
  { name: 'map: a date and latest, as GeoJSON', run: endpoint.map },
  { name: 'weather: a city, a city-day, a date, and neither', run: endpoint.weather },
  { name: 'pollen-range: hourly, daily, CSV (a store-backed function)', run: endpoint.range },
  { name: 'pollen-range with an unknown parameter: the same answer, CDN cache status', run: fn.rangeCacheKey },
  { name: 'bulk files: the manifest, and a byte range of a Parquet file', run: endpoint.bulk },
  { name: 'the fallback function: a day outside the snapshot is empty rows', run: endpoint.fallback },
  { name: 'one URL per answer: no computed endpoint under /data/fallback/', run: fn.oneUrl },
  { name: 'local days: every form, timezone=UTC as without it, and a bad value refused', run: endpoint.localDays },
  { name: "forecast from the store's provider (one upstream request at most; the day view reads the cache)", run: fn.forecast },
  { name: "forecast map: today from the forecast's cache, agreeing with the city's forecast", run: fn.forecastMap },
  { name: "alerts: JSON, calendar and feeds from the forecast's cache, linking to this host", run: fn.alerts },
  { name: 'errors: 400 naming the parameter, 404 UNSUPPORTED_CITY, 405, unknown path', run: endpoint.errors },
  { name: 'extra query parameters change nothing', run: endpoint.extraParameters },
  { name: 'placeholder traversal refused', run: endpoint.traversal },
  { name: 'discovery: OpenAPI, llms.txt, the landing page', run: endpoint.discovery },
  { name: 'MCP: tools/list', run: fn.mcpTools },
  { name: "MCP: get_forecast from the store's provider", run: fn.mcpForecast },
  { name: 'MCP: one message per POST (a batch is refused), nosniff', run: fn.mcpBatch },
];

/** Runs every check against `base` (an http or https URL without a path). */
export async function smoke(base: string, options: SmokeOptions = {}): Promise<Check[]> {
  const probe = new Probe(base, options.timeoutMs ?? 20_000);
  const checks: Check[] = [];
  for (const { name, run } of CHECKS) {
    try {
      checks.push({ name, ok: true, detail: await run(probe, options) });
    } catch (error) {
      const detail = error instanceof Failure ? error.message : `${error instanceof Error ? error.message : String(error)}`;
      checks.push({ name, ok: false, detail });
    }
  }
  return checks;
}

/** The checks as a table. */
export function formatSmoke(base: string, checks: readonly Check[]): string {
  const failed = checks.filter((c) => !c.ok).length;
  const rows = checks.map((c) => `| ${c.name} | ${c.ok ? 'pass' : '**FAIL**'} | ${c.detail.replace(/\|/g, '\\|')} |`);
  return [
    `smoke: ${base}`,
    '',
    '| check | result | detail |',
    '|---|---|---|',
    ...rows,
    '',
    `smoke: ${checks.length - failed} of ${checks.length} checks passed`,
    '',
  ].join('\n');
}

/** The base URL of a deployment, or an error saying why this is not one. */
export function parseBase(text: string | undefined): URL {
  if (!text) throw new RangeError('a deployment URL is required, such as https://your-site.netlify.app');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`not an http(s) URL: ${JSON.stringify(text)}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new RangeError(`give the site's root, without a path or query: ${JSON.stringify(text)}`);
  return url;
}
