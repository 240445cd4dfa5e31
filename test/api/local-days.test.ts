import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fallback from '../../functions/fallback.js';
import { requestForFile } from '../../src/api/http/file-requests.js';
import { findRoute } from '../../src/api/routes.js';
import { dayNumber, HOUR_MS, isoHour } from '../../src/domain/dates.js';
import { crossCityRow, dailyRow, mapDay } from '../../src/domain/day-values.js';
import { dailyMeans, hourlyRow } from '../../src/domain/pollen-rows.js';
import { listFiles } from '../../src/render/render.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

// Both 2026 daylight-saving changes, and Honolulu (no DST, 10 hours behind UTC).
const site = useSite({ cities: ['chicago', 'honolulu', 'austin'], span: { from: dayNumber('2026-03-05'), to: dayNumber('2026-11-04') } });
type Json = Record<string, any>;

const at = (iso: string) => Date.parse(iso) / HOUR_MS;
const CUTS = {
  honolulu: { date: '2026-03-09', from: at('2026-03-09T10:00:00Z'), to: at('2026-03-10T10:00:00Z') },
  chicagoSpring: { date: '2026-03-08', from: at('2026-03-08T06:00:00Z'), to: at('2026-03-09T05:00:00Z') },
  chicagoAutumn: { date: '2026-11-01', from: at('2026-11-01T05:00:00Z'), to: at('2026-11-02T06:00:00Z') },
};

async function get(pathAndQuery: string): Promise<{ status: number; body: Json; text: string }> {
  const res = await site.get(pathAndQuery);
  const text = await res.text();
  const body = JSON.parse(text) as Json;
  const path = new URL(pathAndQuery, 'http://x').pathname;
  if (res.status === 200 || res.status === 400) expectMatchesOpenApi(path, res.status, body);
  return { status: res.status, body, text };
}

describe('local days (timezone=local)', () => {
  it.each([
    ['honolulu', CUTS.honolulu, 24],
    ['chicago', CUTS.chicagoSpring, 23],
    ['chicago', CUTS.chicagoAutumn, 25],
  ])('answers %s on its local day %j: the hours from local midnight to local midnight', async (city, cut, length) => {
    expect(cut.to - cut.from).toBe(length);
    const { body } = await get(`/api/pollen?city=${city}&date=${cut.date}&timezone=local`);
    const stored = site.store.pollen.hours(city, cut.from, cut.to);
    expect(stored.length).toBeGreaterThanOrEqual(length - 2); // the sample provider leaves an hour out now and then
    expect(body).toEqual({ city, date: cut.date, timezone: 'local', provider: 'sample', simulated: true, rows: stored.map(hourlyRow) });
    expect(body.rows[0].ts >= isoHour(cut.from) && body.rows.at(-1).ts < isoHour(cut.to)).toBe(true);
  });

  it('gives daily rows by local day, each with the hours it holds and the values of those hours', async () => {
    const { body } = await get('/api/pollen?city=chicago&timezone=local');
    expect(body.timezone).toBe('local');
    const row = (date: string) => body.rows.find((r: Json) => r.date === date);
    for (const cut of [CUTS.chicagoSpring, CUTS.chicagoAutumn]) {
      const hours = site.store.pollen.hours('chicago', cut.from, cut.to);
      expect(row(cut.date)).toEqual({ ...dailyRow(dayNumber(cut.date), hours), hours: hours.length });
    }
    // The newest local day is not whole until the next UTC day is ingested.
    expect(body.rows[0]).toMatchObject({
      date: '2026-11-04',
      hours: site.store.pollen.hours('chicago', at('2026-11-04T06:00:00Z'), at('2026-11-05T00:00:00Z')).length,
    });
    expect(body.rows[0].hours).toBeLessThan(24);
    expect(body.rows.map((r: Json) => r.date)).toEqual([...body.rows.map((r: Json) => r.date)].sort().reverse());
  });

  it('gives each city its own local day across cities, and the map its local three-day series', async () => {
    const day = dayNumber('2026-03-08');
    const { body } = await get('/api/pollen?date=2026-03-08&timezone=local');
    const hoursOf = {
      austin: site.store.pollen.hours('austin', at('2026-03-08T06:00:00Z'), at('2026-03-09T05:00:00Z')),
      chicago: site.store.pollen.hours('chicago', CUTS.chicagoSpring.from, CUTS.chicagoSpring.to),
      honolulu: site.store.pollen.hours('honolulu', at('2026-03-08T10:00:00Z'), at('2026-03-09T10:00:00Z')),
    };
    // The sample provider's Honolulu has no data for UTC 2026-03-08: its local 2026-03-08 is the 10 hours of UTC 2026-03-09 before 10:00.
    expect(hoursOf.honolulu.map((h) => isoHour(h.hour).slice(0, 13))).toEqual(Array.from({ length: 10 }, (_, i) => `2026-03-09T0${i}`));
    expect(body).toEqual({
      date: '2026-03-08',
      timezone: 'local',
      provider: 'sample',
      simulated: true,
      rows: (['austin', 'chicago', 'honolulu'] as const).map((s) => crossCityRow(s, day, hoursOf[s])),
    });

    const map = await get('/api/map-data?date=2026-03-08&timezone=local');
    expect(map.body.timezone).toBe('local');
    const chicago = map.body.features.find((f: Json) => f.properties.city === 'chicago').properties;
    expect(chicago.series[2]).toEqual(mapDay(day, hoursOf.chicago));
    expect(chicago.series[0]).toEqual(
      mapDay(day - 2, site.store.pollen.hours('chicago', at('2026-03-06T06:00:00Z'), at('2026-03-07T06:00:00Z'))),
    );
    expect(chicago.tree).toBe(chicago.series[2].tree);
  });

  it('takes latest as the newest local day complete for every city', async () => {
    // The store ends with UTC 2026-11-04: Honolulu's 2026-11-04 ends at 2026-11-05T10:00Z, so 2026-11-03 is the newest whole one.
    expect((await get('/api/pollen?timezone=local')).body.date).toBe('2026-11-03');
    expect((await get('/api/map-data?timezone=local')).body.date).toBe('2026-11-03');
    expect((await get('/api/map-data?date=latest&timezone=local')).body.date).toBe('2026-11-03');
    expect((await get('/api/pollen')).body.date).toBe('2026-11-04');
  });

  it("groups a range by each city's local day from its local midnight, echoing date-only bounds as given", async () => {
    const { body } = await get('/api/pollen-range?from=2026-03-07&to=2026-03-10&city=honolulu,chicago&aggregate=day&timezone=local');
    expect(body).toMatchObject({
      from: '2026-03-07',
      to: '2026-03-10',
      cities: ['chicago', 'honolulu'],
      aggregate: 'day',
      timezone: 'local',
      truncated: false,
    });
    const starts = ['2026-03-07T06:00:00Z', '2026-03-08T06:00:00Z', '2026-03-09T05:00:00Z', '2026-03-10T05:00:00Z'].map(at);
    const chicago = body.rows.filter((r: Json) => r.city === 'chicago');
    expect(chicago.map((r: Json) => r.periodStart)).toEqual(starts.slice(0, 3).map(isoHour));
    chicago.forEach((r: Json, i: number) => {
      const { timezone, species, tree, grass, weed, total, risk_tree, risk_grass, risk_weed } = dailyMeans(
        site.store.pollen.hours('chicago', starts[i]!, starts[i + 1]!),
      );
      expect(r).toEqual({
        city: 'chicago',
        periodStart: isoHour(starts[i]!),
        tree,
        grass,
        weed,
        total,
        timezone,
        species,
        risk_tree,
        risk_grass,
        risk_weed,
      });
    });
    expect(body.rows.filter((r: Json) => r.city === 'honolulu').map((r: Json) => r.periodStart)).toEqual([
      '2026-03-07T10:00:00.000Z',
      '2026-03-08T10:00:00.000Z',
      '2026-03-09T10:00:00.000Z',
    ]);

    const hourly = await get('/api/pollen-range?from=2026-03-08&to=2026-03-09&city=chicago&timezone=local');
    expect(hourly.body.rows.map((r: Json) => r.periodStart)).toEqual(
      site.store.pollen.hours('chicago', CUTS.chicagoSpring.from, CUTS.chicagoSpring.to).map((h) => isoHour(h.hour)),
    );
    // An instant stays an instant, echoed in UTC, the same for every city.
    const instant = await get(
      '/api/pollen-range?from=2026-03-08T00:00:00-06:00&to=2026-03-08T02:00:00-06:00&city=chicago,honolulu&timezone=local',
    );
    expect(instant.body).toMatchObject({ from: '2026-03-08T06:00:00.000Z', to: '2026-03-08T08:00:00.000Z' });
    const window = [at('2026-03-08T06:00:00Z'), at('2026-03-08T08:00:00Z')] as const;
    expect(instant.body.rows.map((r: Json) => `${r.city} ${r.periodStart}`)).toEqual(
      ['chicago', 'honolulu'].flatMap((c) => site.store.pollen.hours(c, ...window).map((h) => `${c} ${isoHour(h.hour)}`)),
    );
  });

  it('counts local days against the limit before streaming', async () => {
    const res = await site.get(
      '/api/pollen-range?from=2026-03-07&to=2026-03-10&city=chicago,honolulu&aggregate=day&timezone=local&limit=4',
    );
    const body = (await res.json()) as Json;
    expect(res.headers.get('x-truncated')).toBe('true');
    expect(res.headers.get('x-total-rows')).toBe('4');
    expect(body.rows).toHaveLength(4);
    const all = await site.get(
      '/api/pollen-range?from=2026-03-07&to=2026-03-10&city=chicago,honolulu&aggregate=day&timezone=local&limit=6',
    );
    expect(all.headers.get('x-truncated')).toBe('false');
    expect(all.headers.get('x-total-rows')).toBe('6');
  });

  it.each(['UTC', 'local'] as const)('aggregates the forecast by %s day: one row per day its hours touch', async (cut) => {
    await get('/api/forecast?city=chicago'); // the first answer comes from the provider, the rest from its cache
    const hourly = await get('/api/forecast?city=chicago');
    const { body } = await get(`/api/forecast?city=chicago&aggregate=day&timezone=${cut}`);
    expect(body).toMatchObject({ city: 'chicago', aggregate: 'day', stale: hourly.body.stale, fetchedAt: hourly.body.fetchedAt });
    expect(body.timezone).toBe(cut === 'local' ? 'local' : undefined);
    const dateOf = (ts: string) =>
      cut === 'UTC' ? ts.slice(0, 10) : new Date(ts).toLocaleDateString('en-CA', { timeZone: 'America/Chicago' });
    const byDate = new Map<string, Json[]>();
    for (const r of hourly.body.rows) byDate.set(dateOf(r.ts), [...(byDate.get(dateOf(r.ts)) ?? []), r]);
    expect(body.rows.map((r: Json) => r.date)).toEqual([...byDate.keys()]);
    expect(body.rows.map((r: Json) => r.hours)).toEqual([...byDate.values()].map((rows) => rows.length));
    for (const row of body.rows) {
      const hours = byDate
        .get(row.date)!
        .map((r) => ({ tree: r.tree, grass: r.grass, weed: r.weed, total: r.total, species: r.species, timezone: r.tz }));
      expect(row).toEqual({
        ...dailyRow(dayNumber(row.date), hours),
        hours: hours.length,
        tz: cut === 'UTC' ? '+00:00' : expect.stringMatching(/^-0[56]:00$/),
      });
    }
    expect((await get('/api/forecast?city=chicago&aggregate=none')).body).toEqual({ ...hourly.body, aggregate: 'none' });
  });

  it.each([
    ['/api/pollen?city=chicago&timezone=utc', 'timezone'],
    ['/api/pollen?date=2026-03-08&timezone=America/Chicago', 'timezone'],
    ['/api/pollen?city=chicago&date=2026-03-08&timezone=', 'timezone'],
    ['/api/pollen?timezone=Local', 'timezone'],
    ['/api/map-data?timezone=local-time', 'timezone'],
    ['/api/pollen-range?from=2026-03-07&to=2026-03-08&timezone=EST', 'timezone'],
    ['/api/pollen-range?from=2026-03-07&to=2026-03-08&timezone=local&timezone=local', 'timezone'],
    ['/api/forecast?city=chicago&timezone=GMT', 'timezone'],
    ['/api/forecast?city=chicago&aggregate=week', 'aggregate'],
  ])('refuses %s with a 400 naming %s', async (path, name) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error).toMatch(new RegExp(`^Invalid parameter '${name}': expected '(UTC' or 'local'|none' or 'day')`));
  });

  it("orders a date-only bound and an instant in each city's zone", async () => {
    // Chicago's 2026-03-08 ends at 05:00Z on the 9th, Honolulu's at 10:00Z: both after 02:00Z on the 8th.
    const mixed = await get('/api/pollen-range?from=2026-03-08T02:00:00Z&to=2026-03-08&city=chicago,honolulu&timezone=local');
    expect(mixed.status).toBe(200);
    expect(mixed.body).toMatchObject({ from: '2026-03-08T02:00:00.000Z', to: '2026-03-08' });
    expect(mixed.body.rows.map((r: Json) => `${r.city} ${r.periodStart}`)).toEqual(
      [
        ['chicago', at('2026-03-08T06:00:00Z')],
        ['honolulu', at('2026-03-08T10:00:00Z')],
      ].flatMap(([c, to]) =>
        site.store.pollen.hours(c as string, at('2026-03-08T02:00:00Z'), to as number).map((h) => `${c} ${isoHour(h.hour)}`),
      ),
    );
    // Chicago's 2026-03-08 begins at 06:00Z, after a 03:00Z `to`: refused, not answered empty.
    const reversed = await get('/api/pollen-range?from=2026-03-08&to=2026-03-08T03:00:00Z&city=chicago&timezone=local');
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toMatch(/^Invalid parameter 'to': expected a time later than 'from'/);
  });

  it('answers a day before standard time (local mean time, not whole hours from UTC) instead of failing', async () => {
    for (const path of [
      '/api/pollen?date=1946-01-01&timezone=local',
      '/api/pollen?city=honolulu&date=1946-01-01&timezone=local',
      '/api/map-data?date=1946-01-01&timezone=local',
      '/api/pollen-range?from=1900-01-01&to=1900-01-02&timezone=local&aggregate=day',
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(200);
      expect(body.rows ?? body.features, path).toEqual([]);
    }
  });

  it.each([
    '/api/pollen?city=chicago&date=2026-03-08',
    '/api/pollen?city=honolulu',
    '/api/pollen?date=2026-11-01',
    '/api/pollen',
    '/api/map-data?date=2026-11-01',
    '/api/map-data',
    '/api/pollen-range?from=2026-03-07&to=2026-03-09&aggregate=day',
    '/api/forecast?city=austin',
  ])('answers %s with timezone=UTC byte-identically to the default', async (path) => {
    await get(path); // the forecast's first answer comes from the provider, the next from its cache
    const plain = await get(path);
    const utc = await get(`${path}${path.includes('?') ? '&' : '?'}timezone=UTC`);
    expect(utc.status).toBe(200);
    expect(utc.text).toBe(plain.text);
  });

  it('ignores timezone where days are UTC days: weather, available dates, the latest date', async () => {
    for (const path of [
      '/api/weather?city=chicago&date=2026-03-08',
      '/api/weather?city=chicago',
      '/api/available-dates',
      '/api/latest-date',
    ]) {
      expect((await get(`${path}${path.includes('?') ? '&' : '?'}timezone=local`)).text, path).toBe((await get(path)).text);
      expect((await get(`${path}${path.includes('?') ? '&' : '?'}timezone=nonsense`)).status, path).toBe(200);
    }
  });

  it("renders the local daily, cross-city and map forms, each file byte-identical to the function's answer", async () => {
    const files = listFiles(site.publish).filter((f) => f.startsWith('data/pollen-local/') || f.startsWith('data/map-data-local/'));
    expect(files.filter((f) => f.startsWith('data/pollen-local/by-date/'))).toHaveLength(245);
    expect(files.filter((f) => f.startsWith('data/map-data-local/'))).toHaveLength(245);
    expect(files.filter((f) => /^data\/pollen-local\/[a-z-]+\.json$/.test(f))).toHaveLength(40); // every city of the (built-in) set
    process.env.POLLEN_DB = site.db;
    for (const file of files) {
      const request = requestForFile(`/${file}`, new URLSearchParams())!;
      expect(request.query.get('timezone'), file).toBe('local');
      expect(findRoute(request.path)).toBeDefined();
      const res = await fallback(new Request(`http://localhost${request.path}?${request.query}`));
      expect(res.status, file).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(site.publish, file))), file).toBe(true);
    }
    // Through the rules: the file, the same bytes as the function.
    const viaRules = await site.get('/api/pollen?date=2026-03-08&timezone=local');
    expect(await viaRules.text()).toBe(readFileSync(join(site.publish, 'data/pollen-local/by-date/2026-03-08.json'), 'utf8'));
  });
});
