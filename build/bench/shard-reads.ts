/**
 * B18: answers read from the shards in Netlify Blobs (a BlobsServer on loopback, as the functions
 * read them: the bounded fetch, the rounds of fetch-rounds.ts), cold (a new function instance each
 * answer: the index and every shard fetched) and warm (one instance, its shards kept), against the
 * same answers from the served store in SQLite in-process, the store functions carried before:
 * p50 and p95 of a city-day (what the fallback answers), a city's 30-day range, and an MCP tool's
 * answer (get_pollen_range through callRoute).
 */
import type { ApiContext } from '../../src/api/contract/context.js';
import { respond, respondFetched } from '../../src/api/http/respond.js';
import { ROUTES } from '../../src/api/routes.js';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { dayString } from '../../src/domain/dates.js';
import { callRoute } from '../../src/mcp/tools.js';
import { openStore } from '../../src/store/store.js';
import { environmentContext, storeContext } from '../../src/wiring/contexts.js';
import { type Measure, ms, percentile } from './measure.js';

const ASKS = 40;

/** Asks both ways over every store route for a sample of cities and days; says how many agree (the first that does not, to stderr). */
async function equalAnswers(
  slugs: readonly string[],
  latest: number,
  fromBlobs: (ask: string) => Promise<string>,
  fromStore: (ask: string) => Promise<string>,
): Promise<{ asked: number; equal: number }> {
  const cities = [0, 1, 57, 120, slugs.length - 1].map((i) => slugs[Math.min(i, slugs.length - 1)]!);
  const days = [latest, latest - 1, latest - 95, latest - 400, latest - 729].map(dayString);
  const asks = ['/api/health', '/api/available-dates', '/api/latest-date', '/api/cities', '/api/season'];
  for (const city of cities) {
    asks.push(
      `/api/pollen?city=${city}`,
      `/api/weather?city=${city}`,
      `/api/season?city=${city}&timezone=local`,
      `/api/forecast-skill?city=${city}`,
    );
    for (const d of days) asks.push(`/api/pollen?city=${city}&date=${d}&timezone=local`, `/api/weather?city=${city}&date=${d}`);
    asks.push(`mcp:/api/pollen-range?city=${city}&from=${days[2]}&to=${days[0]}&aggregate=day&limit=2000`);
  }
  for (const d of days) asks.push(`/api/map-data?date=${d}&timezone=local`, `/api/pollen?date=${d}`, `/api/weather?date=${d}`);
  asks.push(`/api/pollen-range?cities=${cities.join(',')}&from=${days[3]}&to=${days[0]}&aggregate=day`);
  asks.push(`/api/pollen-range?from=${days[1]}&to=${days[0]}&limit=50000`, `/api/pollen-range?from=${days[4]}&to=${days[0]}&limit=50000`);
  let equal = 0;
  for (const ask of asks) {
    const [a, b] = [await fromBlobs(ask), await fromStore(ask)];
    if (a === b) equal++;
    else process.stderr.write(`bench: B18: ${ask} differs from Blobs: ${a.slice(0, 160)} | ${b.slice(0, 160)}\n`);
  }
  return { asked: asks.length, equal };
}

/** The answer's text (an MCP result's JSON), and how long it took. */
async function timedAnswer(ask: string, ctx: ApiContext, fetched: boolean): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const url = new URL(ask.replace(/^mcp:/, ''), 'http://bench.test');
  let text: string;
  if (ask.startsWith('mcp:')) {
    const route = ROUTES.find((r) => r.path === url.pathname)!;
    text = JSON.stringify(await callRoute(route, ctx, url.searchParams));
  } else {
    const req = { method: 'GET', path: url.pathname, query: url.searchParams };
    const r = fetched ? await respondFetched(req, ctx) : await respond(req, ctx);
    text = `${r.status} ${JSON.stringify(r.headers)} ${typeof r.body === 'string' ? r.body : [...r.body].join('')}`;
  }
  return { text, ms: performance.now() - started };
}

/** `ASKS` answers of each kind, timed one at a time. */
export async function shardReadBenchmarks(db: string, blobsContext: string): Promise<Measure[]> {
  const served = openStore(servedStorePath(db), { readonly: true, immutable: true });
  const previous = process.env.NETLIFY_BLOBS_CONTEXT;
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContext; // what the Blobs client reads, as Netlify's runtime sets it
  try {
    const slugs = served.cities.set().slugs;
    const latest = served.pollen.latestDay()!;
    // Spread over cities and days: a warm instance keeps what it read, as a real one would.
    const pick = (i: number) => ({ city: slugs[(i * 7) % slugs.length]!, day: latest - ((i * 37) % 700) });
    const kinds: Record<string, (i: number) => string> = {
      'a city-day (the fallback)': (i) => `/api/pollen?city=${pick(i).city}&date=${dayString(pick(i).day)}`,
      "a city's 30-day hourly range": (i) =>
        `/api/pollen-range?city=${pick(i).city}&from=${dayString(pick(i).day - 30)}&to=${dayString(pick(i).day)}`,
      'an MCP tool (get_pollen_range, 7 days)': (i) =>
        `mcp:/api/pollen-range?city=${pick(i).city}&from=${dayString(pick(i).day - 7)}&to=${dayString(pick(i).day)}&limit=2000`,
    };
    // A new environment object is a new context, as a new instance is: nothing fetched yet.
    const env = () => ({ POLLEN_DB: db, NETLIFY_BLOBS_CONTEXT: blobsContext });
    const local = storeContext(served);
    const warm = environmentContext(env());
    // Before timing: the answers from Blobs are the store's, byte for byte, over every store route.
    const checked = equalAnswers(
      slugs,
      latest,
      async (ask) => (await timedAnswer(ask, environmentContext(env()), true)).text,
      async (ask) => (await timedAnswer(ask, local, false)).text,
    );
    const time = async (ask: string, ctx: ReturnType<typeof environmentContext>, fetched: boolean): Promise<number> => {
      const { text, ms } = await timedAnswer(ask, ctx, fetched);
      if (!ask.startsWith('mcp:') && !text.startsWith('200 ')) throw new Error(`${ask} answered ${text.slice(0, 200)}`);
      return ms;
    };
    const same = await checked;
    const measures: Measure[] = [];
    for (const [what, ask] of Object.entries(kinds)) {
      const runs = { sqlite: [] as number[], cold: [] as number[], warm: [] as number[] };
      for (let i = 0; i < ASKS; i++) {
        runs.sqlite.push(await time(ask(i), local, false));
        runs.cold.push(await time(ask(i), environmentContext(env()), true));
        runs.warm.push(await time(ask(i), warm, true));
      }
      const base = percentile(runs.sqlite, 50);
      for (const state of ['cold', 'warm'] as const) {
        const [p50, p95] = [percentile(runs[state], 50), percentile(runs[state], 95)];
        measures.push({
          id: 'B18',
          what: `${what}, from Netlify Blobs on loopback, ${state === 'cold' ? 'cold (a new instance: index and shards fetched)' : 'warm (one instance, shards kept)'}: p50 (p95 ${ms(p95)}), ${ASKS} answers`,
          value: ms(p50),
          baseline: `the served store in SQLite, in-process: p50 ${ms(base)} (p95 ${ms(percentile(runs.sqlite, 95))})`,
          ratio: p50 / base,
          target: 'reported',
          met: null,
        });
      }
    }
    measures.push({
      id: 'B18',
      what: `answers from Netlify Blobs equal to the served store's in SQLite, status, headers and bytes (every store route: cities, dates, both cuts, maps, cross-city rows and ranges, MCP tools)`,
      value: `${same.equal} of ${same.asked}`,
      baseline: '-',
      ratio: null,
      target: 'all',
      met: same.equal === same.asked,
    });
    return measures;
  } finally {
    if (previous === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
    else process.env.NETLIFY_BLOBS_CONTEXT = previous;
    served.close();
  }
}
