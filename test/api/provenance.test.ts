/**
 * Where the values come from: every JSON answer that carries values names its provider, and on the
 * sample provider says the values are simulated, over HTTP, in the rendered files and over MCP;
 * a store a real provider filled says which, and nothing of simulation.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { JsonRows } from '../../src/api/contract/answer.js';
import { API_ROUTES, findRoute } from '../../src/api/routes.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import type { PollenProvider, WeatherProvider } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore } from '../../src/store/store.js';
import { storeContext } from '../../src/wiring/contexts.js';
import { useSite } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

type Json = Record<string, any>;

/** The answers that carry no values (cities, dates, files, freshness): the rest must say where their values come from. */
const VALUELESS = ['/api/cities', '/api/nearest', '/api/available-dates', '/api/latest-date', '/data/bulk/index.json', '/api/health'];

/** One request of each value-carrying form, on the site's sample store (2025-04-01..10). */
const REQUESTS = [
  '/api/pollen?city=austin&date=2025-04-03',
  '/api/pollen?city=austin',
  '/api/pollen?date=2025-04-03',
  '/api/pollen?city=austin&timezone=local',
  '/api/pollen',
  '/api/map-data',
  '/api/map-data?date=2025-04-03&timezone=local',
  '/api/weather?city=austin&date=2025-04-03',
  '/api/weather?city=austin',
  '/api/weather',
  '/api/pollen-range?from=2025-04-02&to=2025-04-03&city=austin',
  '/api/pollen-range?from=2025-04-02&to=2025-04-04&aggregate=day&timezone=local',
  '/api/season?city=austin',
  '/api/forecast?city=austin',
  '/api/forecast?city=austin&aggregate=day&timezone=local',
  '/api/alerts?city=austin&min=Low',
  '/api/forecast-skill?city=austin',
  '/api/forecast-skill?city=austin&category=tree&lead=1',
];

/** The keys of a route's 200 body, whichever of its forms. */
function bodyKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as z.ZodType[]).flatMap(bodyKeys))];
  return [];
}

describe('where the values come from', () => {
  it('is part of the schema of every answer that carries values', () => {
    const withValues = API_ROUTES.filter((r) => r.response && !VALUELESS.includes(r.path));
    expect(withValues.map((r) => r.path).sort()).toEqual(
      [
        '/api/alerts',
        '/api/forecast',
        '/api/forecast-map',
        '/api/forecast-skill',
        '/api/map-data',
        '/api/pollen',
        '/api/pollen-range',
        '/api/season',
        '/api/weather',
      ].sort(),
    );
    for (const route of withValues) {
      const forms = route.response instanceof z.ZodUnion ? (route.response.options as z.ZodType[]) : [route.response!];
      for (const form of forms) expect(bodyKeys(form), route.path).toEqual(expect.arrayContaining(['provider', 'simulated']));
    }
  });

  describe('on the sample provider', () => {
    const site = useSite();
    let client: Client;
    beforeAll(async () => {
      client = new Client({ name: 'provenance-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${site.server.url}/mcp`)));
    });
    afterAll(async () => client?.close());

    it.each(REQUESTS)('says the values are the sample provider’s, simulated: %s', async (request) => {
      const res = await site.get(request);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Json;
      expect([body.provider, body.simulated]).toEqual(['sample', true]);
    });

    it.each([
      ['get_pollen', { city: 'austin', date: '2025-04-03' }],
      ['get_pollen', { date: '2025-04-03' }],
      ['get_pollen_map', {}],
      ['get_weather', { city: 'austin' }],
      ['get_pollen_range', { from: '2025-04-02', to: '2025-04-03', cities: ['austin'] }],
      ['get_season', { city: 'austin', category: 'tree' }],
      ['get_forecast', { city: 'austin', aggregate: 'day' }],
      ['get_alerts', { city: 'austin' }],
      ['get_forecast', { city: 'austin', days: 7 }],
      ['get_forecast_skill', { city: 'austin', lead: 1 }],
    ])('says so in the MCP answer of %s %j', async (name, args) => {
      const result = (await client.callTool({ name, arguments: args })) as { structuredContent?: Json; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect([result.structuredContent?.provider, result.structuredContent?.simulated]).toEqual(['sample', true]);
    });
  });

  it('names a real provider, and says nothing of simulation, on a store that provider filled', async () => {
    const sample = new SampleProvider();
    // The sample's values under real providers' ids: what a store records is the id ingest wrote.
    const as = <T extends object>(id: string, provider: T): T => Object.assign(Object.create(provider) as T, { id });
    const store = openStore(`${tempDir()}/real.db`);
    const austin = DEFAULT_CITIES.get('austin')!;
    const span = { from: dayNumber('2025-04-01'), to: dayNumber('2025-04-03') };
    await ingest({
      store,
      pollen: as<PollenProvider>('ambee', sample),
      weather: as<WeatherProvider>('open-meteo', sample),
      cities: [austin],
      span,
    });
    const ctx = storeContext(store);
    const ask = async (path: string, query: string): Promise<Json> => {
      const answer = await findRoute(path)!.handler(new URLSearchParams(query), ctx);
      if (!('body' in answer)) throw new Error(`${path} answered text`);
      return (answer.body instanceof JsonRows ? answer.body.value() : answer.body) as Json;
    };
    const answers = {
      pollen: await ask('/api/pollen', 'city=austin'),
      map: await ask('/api/map-data', ''),
      range: await ask('/api/pollen-range', 'from=2025-04-01&to=2025-04-02'),
      season: await ask('/api/season', 'city=austin'),
      weather: await ask('/api/weather', 'city=austin'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, body]) => [k, [body.provider, 'simulated' in body]]))).toEqual({
      pollen: ['ambee', false],
      map: ['ambee', false],
      range: ['ambee', false],
      season: ['ambee', false],
      weather: ['open-meteo', false],
    });
    store.close();
  });
});
