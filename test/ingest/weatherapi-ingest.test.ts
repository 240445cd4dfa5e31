/**
 * Fourteen days of three cities from WeatherAPI.com through the CLI's ingest, its Enterprise
 * history (`history.json`, hourly pollen per local date) answered by a loopback server in its
 * recorded format (test/fixtures/weatherapi-*.json): every hour stored as it said it, under the
 * contract's names, the day before the fixtures' first local date partial, and its key (sent as a
 * query parameter) never in what ingest prints.
 */
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import { parseIngestArgs } from '../../src/ingest/args.js';
import type { IngestSummary } from '../../src/ingest/ingest.js';
import { runIngest } from '../../src/ingest/run.js';
import { openStore } from '../../src/store/store.js';
import { fixture } from '../helpers/fixtures.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

type Json = Record<string, any>;

const KEY = 'wapi-ingest-key-2b8e71';
const CITIES = ['austin', 'new-york', 'tulsa'];
const NOW = Date.parse('2025-04-14T12:00:00Z');
const [FROM, TO] = ['2025-03-31', '2025-04-13'];

const history = new Map(CITIES.map((slug) => [slug, fixture(`weatherapi-history-${slug}.json`)]));
const forecasts = new Map(CITIES.map((slug) => [slug, fixture(`weatherapi-forecast-${slug}.json`)]));
const cityAt = (url: URL) =>
  CITIES.find((slug) => {
    const c = DEFAULT_CITIES.get(slug)!;
    return url.searchParams.get('q') === `${c.lat},${c.lon}`;
  })!;

let server: ScriptedServer;
let db: string;
let summary: IngestSummary;
let printed = '';

beforeAll(async () => {
  server = await scriptedServer();
  // history.json: the recorded local dates from dt to end_dt.
  server.on(
    (url) => url.pathname === '/v1/history.json',
    (req) => {
      const body = history.get(cityAt(req.url))!;
      const [dt, end] = [req.url.searchParams.get('dt')!, req.url.searchParams.get('end_dt')!];
      const days = (body.forecast.forecastday as Json[]).filter((d) => d.date >= dt && d.date <= end);
      return { status: 200, body: { ...body, forecast: { forecastday: days } } };
    },
    10,
  );
  server.on(
    (url) => url.pathname === '/v1/forecast.json',
    (req) => ({ status: 200, body: forecasts.get(cityAt(req.url))! }),
    10,
  );
  db = join(tempDir(), 'weatherapi.db');
  const env = { WEATHERAPI_API_KEY: KEY, WEATHERAPI_BASE_URL: server.url, WEATHERAPI_ENTERPRISE: 'true', HTTP_RETRIES: '0' };
  const sink = new Writable({
    write: (chunk, _e, done) => {
      printed += String(chunk);
      done();
    },
  });
  const args = parseIngestArgs(
    { provider: 'weatherapi', weather: 'sample', cities: CITIES.join(','), from: FROM, to: TO, db },
    Math.floor(NOW / DAY_MS),
    db,
    env,
  );
  summary = (await runIngest(args, sink, sink, { env, now: () => NOW }))!;
}, 120_000);

afterAll(async () => server?.close());

describe('ingest from WeatherAPI.com (Enterprise history, loopback in its recorded format)', () => {
  it('asks one history request per city for its fourteen days, and says what each provider gave', () => {
    const asked = server.seen.filter((r) => r.url.pathname === '/v1/history.json');
    expect(asked).toHaveLength(3);
    for (const r of asked) expect([r.url.searchParams.get('pollen'), r.url.searchParams.get('end_dt')]).toEqual(['yes', TO]);
    expect(summary.failed).toEqual([]);
    expect(summary.providers.weatherapi).toEqual({ cityDays: 3 * 14, calls: 3 });
  });

  it("stores every hour of the fixtures' local dates as WeatherAPI.com said it, named as every provider's are", () => {
    const store = openStore(db, { readonly: true });
    try {
      for (const slug of CITIES) {
        const days = store.pollen.storedDays(slug, dayNumber(FROM), dayNumber(TO));
        // The first UTC day begins on the local date before the fixtures' first: its first hours are not there.
        expect([...days.values()].map((d) => d.status)).toEqual(['partial', ...Array<string>(13).fill('complete')]);
        const hours = new Map(store.pollen.hours(slug, dayNumber(FROM) * 24, (dayNumber(TO) + 1) * 24).map((h) => [h.hour, h]));
        for (const day of history.get(slug)!.forecast.forecastday as Json[])
          for (const item of day.hour as Json[]) {
            const hour = (item.time_epoch as number) / 3600;
            if (hour >= (dayNumber(TO) + 1) * 24) continue;
            const h = hours.get(hour)!;
            const p = item.pollen as Record<string, number>;
            expect(h.source).toBe('weatherapi');
            expect(h.species).toEqual({
              Tree: { Hazel: p.Hazel, Alder: p.Alder, Birch: p.Birch, Oak: p.Oak },
              Grass: { 'Grass / Poaceae': p.Grass },
              Weed: { Mugwort: p.Mugwort, Ragweed: p.Ragweed },
            });
            expect(h.tree).toBeCloseTo(p.Hazel! + p.Alder! + p.Birch! + p.Oak!, 6);
            expect([h.grass, h.weed]).toEqual([p.Grass, expect.closeTo(p.Mugwort! + p.Ragweed!, 6)]);
          }
      }
      // The build kept WeatherAPI.com's 48 hours as issued, for each city.
      for (const slug of CITIES) expect(store.issued.since(slug, 0).map((f) => f.source)).toEqual(['weatherapi']);
    } finally {
      store.close();
    }
  });

  it('never prints the key, which the API takes in its query', () => {
    expect(server.seen.every((r) => r.url.searchParams.get('key') === KEY)).toBe(true);
    expect(printed).not.toContain(KEY);
    expect(printed).toMatch(/weatherapi: gave 42 pollen city-days for 3 requests/);
  });
});
