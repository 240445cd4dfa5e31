/**
 * /api/forecast from a provider that gives days (Atmospore, its recorded format on loopback): no
 * hourly rows and why; its dates as the daily rows; with days, its own forecast of each date to
 * its horizon beside the outlook; and the forecast function's chain as POLLEN_PROVIDERS sets it.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DAYS_AHEAD } from '../../src/api/endpoints/forecast.js';
import { respond } from '../../src/api/http/respond.js';
import type { OutlookFile } from '../../src/deploy-data/outlook-file.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString } from '../../src/domain/dates.js';
import { dailyDayValues, dailyRowOf } from '../../src/domain/day-values.js';
import { normalizeDayValue } from '../../src/domain/hours.js';
import { RISK_LABELS } from '../../src/domain/species/risk.js';
import { SqliteForecastCache } from '../../src/forecast/cache.js';
import { ForecastService } from '../../src/forecast/service.js';
import { isDaily } from '../../src/providers/provider.js';
import { createProviders, PROVIDER_IDS } from '../../src/providers/registry.js';
import { openStore } from '../../src/store/store.js';
import { environmentContext, lazyContext } from '../../src/wiring/contexts.js';
import { atmosporeCategory } from '../helpers/atmospore.js';
import { fixture } from '../helpers/fixtures.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { type ScriptedServer, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

type Json = Record<string, any>;
const KEY = 'ak_daily-forecast-key-0b7e';
// Austin at 10:00 CDT on the first date of the Atmospore fixture.
const NOW = Date.parse('2025-04-01T15:00:00Z');
const D0 = dayNumber('2025-04-01');
const body = fixture('atmospore-austin.json');

let server: ScriptedServer;
beforeEach(async () => {
  server = await scriptedServer();
  server.on((url) => url.pathname === '/v1/pollen', { status: 200, body });
});
afterEach(async () => {
  expect(server.unexpected).toEqual([]);
  await server.close();
});

/** The outlook a render would leave for Austin's tree pollen, issued today, to 7 days ahead. */
const outlooks: OutlookFile = {
  issued: '2025-04-01',
  provider: 'atmospore',
  cities: {
    austin: {
      tree: {
        issued: '2025-04-01',
        basis: 'climatology',
        window_days: 7,
        earlier_years: [2024],
        shift_days: {},
        anomaly_log10: null,
        anomaly_days: 0,
        days: Array.from({ length: 8 }, (_, lead) => ({
          date: dayString(D0 + lead),
          lead,
          probabilities: Object.fromEntries(RISK_LABELS.map((r) => [r, 0.2])),
          served: 'climatology',
          why: 'climatology: the outlook has not beaten it',
          outlook: null,
          climatology: Object.fromEntries(RISK_LABELS.map((r) => [r, 0.2])),
          members: 10,
          anomaly_weight: 0,
          rpss: null,
          rpss_interval: null,
        })),
      },
    } as unknown as OutlookFile['cities'][string],
  },
};

function setup() {
  const providers = createProviders({
    pollen: 'atmospore',
    weather: 'sample',
    env: { ATMOSPORE_API_KEY: KEY, ATMOSPORE_BASE_URL: server.url, HTTP_RETRIES: '0' },
  }).chain;
  const logged: string[] = [];
  const service = new ForecastService({
    providers,
    cache: new SqliteForecastCache(openStore(join(tempDir(), 'cache.db'))),
    dailyBudget: null,
    now: () => NOW,
    log: (m, e) => logged.push(`${m} ${String(e)}`),
  });
  const ctx = lazyContext({
    store: () => {
      throw new Error('the forecast reads no store');
    },
    cities: () => DEFAULT_CITIES,
    forecast: () => service,
    outlooks: () => outlooks,
    settings: { now: () => NOW },
  });
  const get = async (query: string, path = '/api/forecast') => {
    const res = await respond({ method: 'GET', path, query: new URLSearchParams(query), origin: 'https://pollen.example' }, ctx);
    const text = res.body as string;
    expect(text).not.toContain(KEY);
    return { status: res.status, body: JSON.parse(text) as Json };
  };
  return { get, logged };
}

/** Each fixture date's values as the daily rows make them. */
const expectedRows = () =>
  (body.data as Array<{ date: string }>).map((_, i) => {
    const d = body.data[i] as { date: string; species: Record<string, { value: number; category: string }> };
    const sum = (c: string) => atmosporeCategory(d, c);
    return { date: d.date, tree: sum('tree'), grass: sum('grass'), weed: sum('weed') };
  });

describe('GET /api/forecast from a daily provider', () => {
  it('answers no hourly rows, saying why, from the provider that answered', async () => {
    const { get, logged } = setup();
    const { status, body: answer } = await get('city=austin');
    expect(status).toBe(200);
    expectMatchesOpenApi('/api/forecast', 200, answer);
    expect(answer).toMatchObject({ city: 'austin', provider: 'atmospore', source: 'atmospore', stale: false, hourly: false, rows: [] });
    expect(answer.note).toBe('atmospore gives one value a day, not hours: see rows with aggregate=day, and provider_days with days');
    expect(answer.provider_days).toBeUndefined();
    expect(server.seen).toHaveLength(1);
    // The second request reads the cache: the provider is not asked again.
    expect((await get('city=austin')).body).toMatchObject({ source: 'cache', provider: 'atmospore', hourly: false, rows: [] });
    expect(server.seen).toHaveLength(1);
    expect(logged.join('\n')).not.toContain(KEY);
  });

  it('with aggregate=day, one daily row per date it forecast from today, hours 0', async () => {
    const { get } = setup();
    const { body: answer } = await get('city=austin&aggregate=day&timezone=local');
    expectMatchesOpenApi('/api/forecast', 200, answer);
    expect(answer.hourly).toBe(false);
    expect(answer.rows).toHaveLength(14);
    const expected = expectedRows();
    answer.rows.forEach((row: Json, i: number) => {
      expect(row.date).toBe(expected[i]!.date);
      // The means rounded to whole grains, the peaks as they are: the day's one value either way.
      for (const c of ['tree', 'grass', 'weed'] as const) {
        expect(Math.abs(row[c] - expected[i]![c])).toBeLessThanOrEqual(0.5);
        expect(row[`peak_${c}`]).toBeCloseTo(expected[i]![c], 3);
      }
      expect(row.hours).toBe(0);
      expect(row.tz).toBe('-05:00');
    });
  });

  it(`with days=${MAX_DAYS_AHEAD}, the provider's 14 dates as it forecast them, its own levels apart, beside the outlook to 7 days ahead`, async () => {
    const { get } = setup();
    const { status, body: answer } = await get(`city=austin&days=${MAX_DAYS_AHEAD}&timezone=local`);
    expect(status).toBe(200);
    expectMatchesOpenApi('/api/forecast', 200, answer);
    expect(answer.rows).toEqual([]);
    const days = answer.provider_days as Json[];
    expect(days).toHaveLength(14);
    days.forEach((d, i) => {
      const item = body.data[i] as { date: string; overall_risk: string; tree?: unknown };
      expect(d).toMatchObject({ date: item.date, provider: 'atmospore', lead: i });
      expect(d.provider_levels.overall).toBe(item.overall_risk);
    });
    // Each date's values and NAB's risks as the daily rows of its value are.
    const first = body.data[0] as { species: Record<string, { value: number; category: string }> };
    const sum = (c: string) => atmosporeCategory(first, c);
    const row = dailyRowOf(
      dailyDayValues({
        day: D0,
        ...normalizeDayValue({ tree: sum('tree'), grass: sum('grass'), weed: sum('weed'), species: days[0]!.species }),
        timezone: null,
        source: 'atmospore',
        levels: null,
      }),
    );
    expect(days[0]).toMatchObject({ risk_tree: row.risk_tree, risk_grass: row.risk_grass, risk_weed: row.risk_weed });
    expect(answer.outlook.dates.map((d: Json) => d.date)).toEqual(Array.from({ length: 8 }, (_, i) => dayString(D0 + i)));
    // One day beyond the longest horizon is refused, naming the parameter.
    const beyond = await get(`city=austin&days=${MAX_DAYS_AHEAD + 1}`);
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'days' });
  });

  it("gives alerts on the provider's dates from today, each from its one value (hours 0), as its daily rows grade it", async () => {
    const { get } = setup();
    const days = await get('city=austin&aggregate=day&timezone=local');
    const { status, body: alerts } = await get('city=austin&min=High&categories=tree', '/api/alerts');
    expect(status).toBe(200);
    expect(alerts.provider).toBe('atmospore');
    // Every date the forecast holds is checked; a date whose tree reaches High is an alert, from its one value.
    expect(alerts.dates).toEqual(days.body.rows.map((r: Json) => r.date));
    const high = days.body.rows.filter((r: Json) => ['High', 'Very High'].includes(r.peak_risk_tree)).map((r: Json) => r.date);
    expect(high.length).toBeGreaterThan(0);
    expect(alerts.alerts.map((a: Json) => a.date)).toEqual(high);
    for (const a of alerts.alerts) {
      expect(a.hours).toBe(0);
      const row = days.body.rows.find((r: Json) => r.date === a.date);
      expect(a.categories).toEqual([{ category: 'tree', risk: row.peak_risk_tree, peak: row.peak_tree }]);
    }
  });

  it("allows days to the longest horizon of the table's pollen providers", () => {
    const env = Object.fromEntries(
      ['AMBEE_API_KEY', 'ATMOSPORE_API_KEY', 'WEATHERAPI_API_KEY', 'WEATHERAPI_KEY'].map((k) => [k, 'k']),
    ) as NodeJS.ProcessEnv;
    const chain = createProviders({ pollen: PROVIDER_IDS.join(','), weather: 'sample', env }).chain;
    const longest = Math.max(...chain.map((p) => (isDaily(p) ? p.forecastDays : 2)));
    expect(MAX_DAYS_AHEAD).toBe(longest - 1);
  });
});

describe("the forecast function's providers", () => {
  it('are those of POLLEN_PROVIDERS when set: one without its key is a 503 naming the variable, never a value', async () => {
    const ctx = environmentContext({
      POLLEN_DB: join(tempDir(), 'none.db'),
      POLLEN_PROVIDERS: 'atmospore,ambee',
      AMBEE_API_KEY: 'ambee-secret-1',
    });
    const res = await respond(
      { method: 'GET', path: '/api/forecast', query: new URLSearchParams('city=austin'), origin: 'https://pollen.example' },
      ctx,
    );
    expect(res.status).toBe(503);
    const answer = JSON.parse(res.body as string) as Json;
    expectMatchesOpenApi('/api/forecast', 503, answer);
    expect(answer.error).toContain('POLLEN_PROVIDERS names atmospore,ambee');
    expect(answer.error).toContain('ATMOSPORE_API_KEY');
    expect(res.body as string).not.toContain('ambee-secret-1');
  });
});
