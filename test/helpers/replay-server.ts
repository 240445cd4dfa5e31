import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayString, HOUR_MS } from '../../src/domain/dates.js';
import type { PollenBatch } from '../../src/providers/provider.js';
import { SampleProvider } from '../../src/providers/sample/index.js';

/**
 * A loopback server answering in the formats of Ambee v3 and Open-Meteo, with the sample model's
 * values, so an ingest through the real clients can be compared with a sample ingest. It keeps
 * the limits the real services have (test/fixtures/sources.md cites each):
 * - Ambee serves history only for the past `ambeeHistoryHours` (48 by default) and answers an
 *   older `from` with 400 "Only past 2 days data available!"; its v3 items carry `timestamp`
 *   (ISO) and `unixTs` (seconds), never `time`; 404 is "no data for the location"; 422 is its
 *   quota, and 206 a partial answer because the quota ran out mid-answer;
 * - Open-Meteo's archive answers dates after today with 400 "out of allowed range", and its
 *   newest `openMeteoLagDays` days as nulls.
 */
export type Fault = 'timeout' | 'reset' | '5xx' | '429' | '422' | '206' | 'malformed' | 'truncated';

/** What a request met: the fault injected, or none. */
export interface Served {
  url: string;
  fault: Fault | undefined;
  /** The client went before the answer was written whole (its own timeout, on a busy machine): to it, a timeout. */
  gone?: true;
}

export interface ReplayOptions {
  now?: () => number;
  ambeeHistoryHours?: number;
  /** Slugs Ambee has no data for (404). */
  notCovered?: readonly string[];
  openMeteoLagDays?: number;
}

export interface ReplayServer {
  url: string;
  requests: string[];
  served: Served[];
  /** Decides, per request, whether to inject a fault instead of the answer. */
  fault: (url: URL) => Fault | undefined;
  options: ReplayOptions;
  close: () => Promise<void>;
}

const AMBEE_WINDOW_REFUSAL = { message: 'Only past 2 days data available!' };

export async function startReplayServer(apiKey: string, initial: ReplayOptions = {}): Promise<ReplayServer> {
  const sample = new SampleProvider();
  const requests: string[] = [];
  const served: Served[] = [];
  const replay = { fault: (() => undefined) as ReplayServer['fault'], options: initial };
  const now = () => (replay.options.now ?? Date.now)();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    const fault = replay.fault(url);
    const record: Served = { url: url.pathname + url.search, fault };
    served.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.gone = true;
    });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    switch (fault) {
      case 'timeout':
        return; // never answer; the client's timeout ends it
      case 'reset':
        return req.socket.destroy();
      case '5xx':
        return send(503, { message: 'Service Unavailable' });
      case '429':
        return url.pathname.startsWith('/v1/')
          ? send(
              429,
              { error: true, reason: 'Minutely API request limit exceeded. Please try again in one minute.' },
              { 'retry-after': '1' },
            )
          : send(429, { message: 'Too many requests' }, { 'retry-after': '1' });
      case '422':
        return send(
          url.pathname.startsWith('/v1/') ? 429 : 422,
          url.pathname.startsWith('/v1/')
            ? { error: true, reason: 'Daily API request limit exceeded. Please try again tomorrow.' }
            : { message: 'Quota exceeded' },
        );
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"message":"success","data":[{"timestamp":');
      case 'truncated':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"message":"success","data":[');
        return setTimeout(() => req.socket.destroy(), 5);
      default:
    }
    const q = url.searchParams;
    const city = DEFAULT_CITIES.list.find(
      (c) => String(c.lat) === (q.get('lat') ?? q.get('latitude')) && String(c.lon) === (q.get('lng') ?? q.get('longitude')),
    );
    if (!city) return send(404, { message: 'Data not available!', data: [] });

    if (url.pathname.startsWith('/v3/pollen/')) {
      if (req.headers['x-api-key'] !== apiKey) return send(401, { message: 'Unauthorized' });
      if (replay.options.notCovered?.includes(city.slug)) return send(404, { message: 'Data not available!', data: [] });
      let batch: PollenBatch;
      if (url.pathname === '/v3/pollen/forecast/48hrs') batch = await sample.pollenForecast(city, now());
      else if (url.pathname === '/v3/pollen/history') {
        const from = Date.parse(`${q.get('from')!.replace(' ', 'T')}Z`);
        const to = Date.parse(`${q.get('to')!.replace(' ', 'T')}Z`);
        if (!(from <= to)) return send(400, { message: 'Invalid from/to' });
        if (from < now() - (replay.options.ambeeHistoryHours ?? 48) * HOUR_MS) return send(400, AMBEE_WINDOW_REFUSAL);
        const [first, last] = [Math.ceil(from / HOUR_MS), Math.min(Math.floor(to / HOUR_MS), Math.floor(now() / HOUR_MS) - 1)];
        batch = await sample.pollenHistory(city, { from: first, to: last + 1 });
      } else return send(404, { message: 'no such endpoint' });
      const data = batch.hours.map((h) => ({
        timestamp: new Date(h.time).toISOString(),
        unixTs: h.time / 1000,
        Count: { grass_pollen: h.grass, tree_pollen: h.tree, weed_pollen: h.weed },
        Risk: { grass_pollen: 'Low', tree_pollen: 'Low', weed_pollen: 'Low' },
        Species: h.species,
      }));
      // 206: the quota ran out mid-answer, so only part of the data comes back.
      if (fault === '206')
        return send(206, {
          message: 'success',
          lat: city.lat,
          lng: city.lon,
          timezone: batch.timezone,
          data: data.slice(0, Math.ceil(data.length / 2)),
        });
      return send(200, { message: 'success', lat: city.lat, lng: city.lon, timezone: batch.timezone, data });
    }

    const today = Math.floor(now() / DAY_MS);
    const days = async () => {
      const [from, to] = [dayNumber(q.get('start_date')!), dayNumber(q.get('end_date')!)];
      return sample.weatherHistory(city, { from, to });
    };
    const outOfRange = (start: string) =>
      send(400, {
        error: true,
        reason: `Parameter '${dayNumber(q.get('start_date')!) > today ? 'start_date' : 'end_date'}' is out of allowed range from ${start} to ${dayString(today)}`,
      });
    const lagging = (day: number) => day > today - 1 - (replay.options.openMeteoLagDays ?? 0);
    if (url.pathname === '/v1/archive') {
      if (dayNumber(q.get('end_date')!) > today) return outOfRange('1940-01-01');
      const rows = await days();
      const col = (k: string) => rows.map((r) => (lagging(r.day) ? null : (r.values[k as keyof typeof r.values] ?? null)));
      return send(200, {
        latitude: city.lat,
        longitude: city.lon,
        generationtime_ms: 0.2,
        utc_offset_seconds: 0,
        timezone: 'GMT',
        timezone_abbreviation: 'GMT',
        elevation: 200,
        daily_units: { time: 'iso8601', temperature_2m_min: '°C' },
        daily: {
          time: rows.map((r) => dayString(r.day)),
          temperature_2m_min: col('temp_min_c'),
          temperature_2m_max: col('temp_max_c'),
          temperature_2m_mean: col('temp_day_c'),
          apparent_temperature_mean: col('feels_like_day_c'),
          relative_humidity_2m_mean: col('humidity'),
          pressure_msl_mean: col('pressure_hpa'),
          wind_speed_10m_max: col('wind_speed_ms'),
          wind_direction_10m_dominant: col('wind_deg'),
          cloud_cover_mean: col('clouds_pct'),
          precipitation_sum: col('precip_mm'),
          weather_code: rows.map((r) => (lagging(r.day) ? null : (r.values.precip_mm as number) > 1 ? 63 : 1)),
        },
      });
    }
    if (url.pathname === '/v1/air-quality') {
      const rows = await days();
      const hours = rows.flatMap((r) =>
        Array.from({ length: 24 }, (_, h) => ({ time: new Date(r.day * DAY_MS + h * HOUR_MS).toISOString().slice(0, 16), v: r.values })),
      );
      const col = (k: string) => hours.map((h) => h.v[k as keyof typeof h.v] ?? null);
      return send(200, {
        latitude: city.lat,
        longitude: city.lon,
        generationtime_ms: 0.3,
        utc_offset_seconds: 0,
        timezone: 'GMT',
        timezone_abbreviation: 'GMT',
        elevation: 200,
        hourly_units: { time: 'iso8601', pm2_5: 'μg/m³' },
        hourly: {
          time: hours.map((h) => h.time),
          pm2_5: col('aqi_pm2_5'),
          pm10: col('aqi_pm10'),
          ozone: col('aqi_o3'),
          nitrogen_dioxide: col('aqi_no2'),
          sulphur_dioxide: col('aqi_so2'),
          carbon_monoxide: col('aqi_co'),
        },
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
    get options() {
      return replay.options;
    },
    set options(o) {
      replay.options = o;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
