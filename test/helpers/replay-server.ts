import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CITIES } from '../../src/domain/cities.js';
import { dayNumber, dayString, DAY_MS } from '../../src/domain/dates.js';
import { SampleProvider } from '../../src/providers/sample/index.js';

/**
 * A loopback server answering in the recorded formats of Ambee and Open-Meteo, with the sample
 * model's values, so an ingest through the real clients can be compared with a sample ingest.
 */
export type Fault = 'timeout' | 'reset' | '5xx' | '429' | 'malformed' | 'truncated';

/** What a request met: the fault injected, or none. */
export interface Served {
  url: string;
  fault: Fault | undefined;
}

export interface ReplayServer {
  url: string;
  requests: string[];
  served: Served[];
  /** Decides, per request, whether to inject a fault instead of the answer. */
  fault: (url: URL) => Fault | undefined;
  close: () => Promise<void>;
}

export async function startReplayServer(apiKey: string): Promise<ReplayServer> {
  const sample = new SampleProvider();
  const requests: string[] = [];
  const served: Served[] = [];
  const replay = { fault: (() => undefined) as ReplayServer['fault'] };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    const fault = replay.fault(url);
    served.push({ url: url.pathname + url.search, fault });
    switch (fault) {
      case 'timeout':
        return; // never answer; the client's timeout ends it
      case 'reset':
        return req.socket.destroy();
      case '5xx':
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end('{"message":"Service Unavailable"}');
      case '429':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        return res.end('{"message":"Quota exceeded"}');
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"message":"success","data":[{"time":');
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"message":"success","data":[');
        return setTimeout(() => req.socket.destroy(), 5);
      default:
    }
    const q = url.searchParams;
    const city = CITIES.find((c) => String(c.lat) === (q.get('lat') ?? q.get('latitude')) && String(c.lon) === (q.get('lng') ?? q.get('longitude')));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!city) return send(404, { message: 'Location not covered' });
    if (url.pathname === '/v3/pollen/forecast/48hrs') {
      if (req.headers['x-api-key'] !== apiKey) return send(401, { message: 'Unauthorized' });
      const batch = await sample.pollenForecast(city, Date.now());
      return send(200, { message: 'success', data: batch.hours.map((h) => ({ time: h.time / 1000, timezone: batch.timezone, Count: { grass_pollen: h.grass, tree_pollen: h.tree, weed_pollen: h.weed }, Species: h.species })) });
    }
    if (url.pathname === '/v3/pollen/history') {
      if (req.headers['x-api-key'] !== apiKey) return send(401, { message: 'Unauthorized' });
      const from = Date.parse(`${q.get('from')!.replace(' ', 'T')}Z`);
      const to = Date.parse(`${q.get('to')!.replace(' ', 'T')}Z`);
      const batch = await sample.pollenHistory(city, { from: Math.floor(from / DAY_MS), to: Math.floor(to / DAY_MS) });
      return send(200, {
        message: 'success',
        lat: city.lat,
        lng: city.lon,
        data: batch.hours.map((h) => ({
          time: h.time / 1000,
          timezone: batch.timezone,
          Count: { grass_pollen: h.grass, tree_pollen: h.tree, weed_pollen: h.weed },
          Risk: { grass_pollen: 'Low', tree_pollen: 'Low', weed_pollen: 'Low' },
          Species: h.species,
          updatedAt: new Date(h.time + 300_000).toISOString(),
        })),
      });
    }
    const days = async () => {
      const [from, to] = [dayNumber(q.get('start_date')!), dayNumber(q.get('end_date')!)];
      return sample.weatherHistory(city, { from, to });
    };
    if (url.pathname === '/v1/archive') {
      const rows = await days();
      const col = (k: string) => rows.map((r) => r.values[k as keyof typeof r.values] ?? null);
      return send(200, {
        latitude: city.lat, longitude: city.lon, timezone: 'GMT',
        daily: {
          time: rows.map((r) => dayString(r.day)),
          temperature_2m_min: col('temp_min_c'), temperature_2m_max: col('temp_max_c'), temperature_2m_mean: col('temp_day_c'),
          apparent_temperature_mean: col('feels_like_day_c'), relative_humidity_2m_mean: col('humidity'), pressure_msl_mean: col('pressure_hpa'),
          wind_speed_10m_max: col('wind_speed_ms'), wind_direction_10m_dominant: col('wind_deg'), cloud_cover_mean: col('clouds_pct'),
          precipitation_sum: col('precip_mm'), weather_code: rows.map((r) => (r.values.precip_mm as number) > 1 ? 63 : 1),
        },
      });
    }
    if (url.pathname === '/v1/air-quality') {
      const rows = await days();
      const hours = rows.flatMap((r) => Array.from({ length: 24 }, (_, h) => ({ time: new Date(r.day * DAY_MS + h * 3_600_000).toISOString().slice(0, 16), v: r.values })));
      const col = (k: string) => hours.map((h) => h.v[k as keyof typeof h.v] ?? null);
      return send(200, {
        latitude: city.lat, longitude: city.lon, timezone: 'GMT',
        hourly: { time: hours.map((h) => h.time), pm2_5: col('aqi_pm2_5'), pm10: col('aqi_pm10'), ozone: col('aqi_o3'), nitrogen_dioxide: col('aqi_no2'), sulphur_dioxide: col('aqi_so2'), carbon_monoxide: col('aqi_co') },
      });
    }
    send(404, { message: 'no such endpoint' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    served,
    get fault() {
      return replay.fault;
    },
    set fault(f) {
      replay.fault = f;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
