/** smoke's checks of the endpoints' answers: every endpoint and mode, the errors, and what no request may do. */
import { DAY_MS } from '../domain/dates.js';
import { PROVIDER_LEADS } from '../domain/verification/leads.js';
import { type Json, must, type Probe, q } from './probe.js';

/** The day after a `YYYY-MM-DD` date. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** Health: fresh real data (`ok`, 200); the sample's (`simulated`, 503) only where `allowSimulated` says a demonstration is checked. */
export async function health(p: Probe, expectNode?: number, allowSimulated = false): Promise<string> {
  const r = await p.get('/api/health');
  const h = r.json();
  must(r.headers.get('cache-control') === 'no-store', `Cache-Control ${JSON.stringify(r.headers.get('cache-control'))}, expected no-store`);
  // Learned before the status and Node.js checks, which the later checks do not need.
  if (typeof h.provider === 'string' && h.provider !== '') p.found.provider = h.provider;
  if (h.status === 'simulated')
    must(
      allowSimulated && r.status === 503,
      `HTTP ${r.status}, status "simulated": the deployment serves the sample provider's invented data (--allow-simulated checks a demonstration site)`,
    );
  else
    must(
      r.status === 200 && h.status === 'ok',
      `HTTP ${r.status}, status ${JSON.stringify(h.status)}: newest hour ${h.latestHour}, ${h.dataAgeHours} hours old`,
    );
  must(typeof h.provider === 'string' && h.provider !== '', `no provider: ${JSON.stringify(h.provider)}`);
  const major = Number(/^v(\d+)\./.exec(String(h.node))?.[1]);
  if (expectNode !== undefined) must(major === expectNode, `functions run Node ${h.node}, expected ${expectNode}`);
  return `${h.status}, ${h.dataAgeHours} h old, ${h.cities} cities, provider ${h.provider}, Node ${h.node}`;
}

export async function dates(p: Probe): Promise<string> {
  const date = String((await p.data('/api/latest-date')).date);
  const { dates } = await p.data('/api/available-dates');
  must(Array.isArray(dates) && dates[0] === date, `available-dates starts ${dates?.[0]}, latest-date is ${date}`);
  p.found.date = date;
  return `${date}, ${dates.length} dates`;
}

export async function cities(p: Probe): Promise<string> {
  const body = await p.data('/api/cities');
  must(Array.isArray(body.cities) && body.cities.length > 0, 'no cities');
  // The checks read a city with data on the latest date.
  const withData = (await p.data(`/api/pollen?${q({ date: p.found.date })}`)).rows?.[0]?.city;
  must(typeof withData === 'string' && body.cities.some((c: Json) => c.slug === withData), `no listed city has data on ${p.found.date}`);
  p.found.city = withData;
  return `${body.cities.length} cities; checking ${withData}`;
}

export async function nearest(p: Probe): Promise<string> {
  const { city } = p.found;
  const listed = ((await p.data('/api/cities')).cities as Json[]).find((c) => c.slug === city);
  must(listed && typeof listed.lat === 'number' && typeof listed.lon === 'number', `/api/cities gives ${city} no lat and lon`);
  const here = await p.data(`/api/nearest?${q({ lat: String(listed!.lat), lon: String(listed!.lon) })}`);
  must(
    here.cities?.[0]?.slug === city && here.cities[0].distance_km === 0,
    `${city}'s own position gives ${JSON.stringify(here.cities?.[0])}`,
  );
  // Manhattan: any deployment has a city within 1,000 km of it or answers NO_CITY_NEARBY; UNKNOWN_ZIP means no ZIP table.
  const r = await p.get(`/api/nearest?${q({ zip: '10001', limit: '10', max_km: '1000' })}`);
  const byZip = r.json();
  must(
    (r.status === 200 && byZip.origin?.zip === '10001') || (r.status === 404 && byZip.code === 'NO_CITY_NEARBY'),
    `zip=10001: HTTP ${r.status} ${r.text.slice(0, 160)}`,
  );
  const sea = await p.problem(`/api/nearest?${q({ lat: '0', lon: '-140' })}`, 404);
  must(sea.code === 'NO_CITY_NEARBY' && typeof sea.nearest === 'string', `a point at sea: ${JSON.stringify(sea)}`);
  const bad = await p.problem(`/api/nearest?${q({ zip: '1234' })}`, 400);
  must(/'zip'/.test(bad.error), `400 names no parameter: ${bad.error}`);
  const zipped =
    r.status === 200
      ? byZip.cities
          .map((c: Json) => c.slug)
          .slice(0, 3)
          .join(', ')
      : 'none within 1000 km';
  return `${city} at 0 km; zip 10001: ${zipped}; at sea: ${sea.nearest} at ${sea.distance_km} km`;
}

export async function pollen(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const hourly = await p.data(`/api/pollen?${q({ city, date })}`);
  must(hourly.rows?.length > 0 && typeof hourly.rows[0].ts === 'string', 'no hourly rows');
  const daily = await p.data(`/api/pollen?${q({ city })}`);
  must(daily.rows?.length > 0 && daily.rows[0].date === date, `daily rows start ${daily.rows?.[0]?.date}`);
  const cross = await p.data(`/api/pollen?${q({ date })}`);
  must(cross.rows?.length > 0, 'no cross-city rows');
  const latest = await p.data('/api/pollen');
  must(JSON.stringify(latest) === JSON.stringify(cross), 'the parameterless answer is not the latest date');
  return `${hourly.rows.length} hours, ${daily.rows.length} days, ${cross.rows.length} cities`;
}

export async function season(p: Probe): Promise<string> {
  const { city } = p.found;
  const latest = await p.data(`/api/season?${q({ city })}`);
  must(latest.city === city && Array.isArray(latest.categories) && latest.categories.length >= 4, 'no categories');
  // Each category has its own years (tree's from 1 October): grass's are the ones to ask grass for.
  const years = (latest.years as Json[]).filter((y) => y.category === 'grass').map((y) => y.year as number);
  const grass = await p.data(`/api/season?${q({ city, year: String(years[0]), category: 'grass' })}`);
  must(
    grass.year === years[0] && grass.categories.length === 1 && grass.categories[0].category === 'grass',
    'not the year and category asked',
  );
  const bad = await p.problem(`/api/season?${q({ city, category: 'tree-oak' })}`, 400);
  must(/'category'/.test(bad.error), `400 names no parameter: ${bad.error}`);
  const tree = (latest.categories as Json[]).find((c) => c.category === 'tree');
  return `${latest.year}: tree ${tree?.season ? `from ${tree.season.start}` : `none (${tree?.reason})`}; years ${years.join(', ')}`;
}

export async function forecastSkill(p: Probe): Promise<string> {
  const { city, provider } = p.found;
  const whole = await p.data(`/api/forecast-skill?${q({ city })}`);
  must(whole.city === city && whole.provider === provider, `not ${city}'s skill from ${provider}: ${whole.city}, ${whole.provider}`);
  must(Array.isArray(whole.categories) && whole.categories.length === 4, 'not the four categories');
  // A form no file holds: the fallback function's answer, from the same served store.
  const one = await p.data(`/api/forecast-skill?${q({ city, category: 'Tree', lead: '1' })}`);
  const tree = (one.categories as Json[])[0]!;
  must(
    one.categories.length === 1 && tree.category === 'tree' && tree.leads.length === 1 && tree.leads[0].lead === 1,
    'not the category and lead asked',
  );
  const bad = await p.problem(`/api/forecast-skill?${q({ city, lead: String(PROVIDER_LEADS) })}`, 400);
  must(/'lead'/.test(bad.error), `400 names no parameter: ${bad.error}`);
  const window = tree.leads[0].window;
  const gerrity = window.forecast?.gerrity;
  const score =
    gerrity == null
      ? `none (${window.reason ?? window.forecast?.score_reasons?.gerrity ?? 'no forecast'})`
      : `${gerrity} ${JSON.stringify(window.forecast.gerrity_interval)}`;
  return `${whole.archive.forecasts} forecasts and ${whole.archive.outlooks.issued + whole.archive.outlooks.made_again} outlooks kept; tree a day ahead: ${window.days} days, Gerrity ${score}`;
}

export async function map(p: Probe): Promise<string> {
  const { date } = p.found;
  const byDate = await p.data(`/api/map-data?${q({ date })}`, 'application/geo+json');
  must(byDate.type === 'FeatureCollection' && byDate.date === date, `not the map of ${date}`);
  const latest = await p.data('/api/map-data', 'application/geo+json');
  must(latest.date === date, `latest map is of ${latest.date}`);
  return `${byDate.features.length} features`;
}

export async function weather(p: Probe): Promise<string> {
  const { city } = p.found;
  const byCity = await p.data(`/api/weather?${q({ city })}`);
  must(Array.isArray(byCity.rows), 'no rows');
  const day = byCity.rows[0]?.date as string | undefined;
  if (day) must((await p.data(`/api/weather?${q({ city, date: day })}`)).rows.length === 1, `no row for ${city} on ${day}`);
  const latest = await p.data('/api/weather');
  must(Array.isArray(latest.rows), 'no rows');
  if (latest.date) must(Array.isArray((await p.data(`/api/weather?${q({ date: latest.date })}`)).rows), 'no rows');
  return `${byCity.rows.length} days for ${city}, newest ${day ?? 'none'}`;
}

export async function range(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const to = nextDay(date);
  const hourly = await p.data(`/api/pollen-range?${q({ from: date, to, city })}`);
  must(hourly.rows?.length > 0, 'no rows');
  const daily = await p.data(`/api/pollen-range?${q({ from: date, to, city, aggregate: 'day' })}`);
  must(daily.rows?.length === 1, `${daily.rows?.length} daily rows`);
  const csv = await p.get(`/api/pollen-range?${q({ from: date, to, city, format: 'csv' })}`);
  must(
    csv.status === 200 && (csv.headers.get('content-type') ?? '').startsWith('text/csv'),
    `CSV: HTTP ${csv.status} ${csv.headers.get('content-type')}`,
  );
  return `${hourly.rows.length} hours, CSV ${csv.text.split('\n').length - 2} lines`;
}

export async function bulk(p: Probe): Promise<string> {
  const manifest = await p.data('/data/bulk/index.json');
  const file = (manifest.files as Json[] | undefined)?.find((f) => f.format === 'parquet');
  must(file, 'the manifest lists no Parquet file');
  const head = await fetch(new URL(file!.path, p.base), {
    headers: { range: 'bytes=0-3', 'accept-encoding': 'identity' },
    signal: AbortSignal.timeout(p.timeoutMs),
  });
  const bytes = Buffer.from(await head.arrayBuffer());
  must(
    head.status === 206,
    `${file!.path} with Range: bytes=0-3: HTTP ${head.status}, expected 206 (the CDN must serve byte ranges for HTTP Parquet readers)`,
  );
  must(bytes.toString('latin1') === 'PAR1', `${file!.path} bytes 0-3: ${JSON.stringify(bytes.toString('latin1'))}, expected "PAR1"`);
  must(
    head.headers.get('content-range') === `bytes 0-3/${file!.bytes}`,
    `Content-Range ${head.headers.get('content-range')}, expected bytes 0-3/${file!.bytes}`,
  );
  must(!head.headers.get('content-encoding'), `Content-Encoding ${head.headers.get('content-encoding')} on a Parquet file`);
  return `${manifest.files.length} files; ${file!.path}: 206, PAR1, of ${file!.bytes} bytes`;
}

export async function fallback(p: Probe): Promise<string> {
  const body = await p.data(`/api/pollen?${q({ city: p.found.city, date: '1999-01-01' })}`);
  must(Array.isArray(body.rows) && body.rows.length === 0, `rows: ${JSON.stringify(body.rows)?.slice(0, 80)}`);
  return '200 with empty rows';
}

export async function localDays(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const local = (body: Json, what: string) => must(body.timezone === 'local', `${what} does not say "timezone": "local"`);
  const hourly = await p.data(`/api/pollen?${q({ city, date, timezone: 'local' })}`);
  local(hourly, 'a local city-day');
  const daily = await p.data(`/api/pollen?${q({ city, timezone: 'local' })}`);
  local(daily, 'local daily rows');
  must(typeof daily.rows?.[0]?.hours === 'number', 'local daily rows carry no hours');
  local(await p.data(`/api/pollen?${q({ date, timezone: 'local' })}`), 'a local date across cities');
  local(await p.data(`/api/map-data?${q({ date, timezone: 'local' })}`, 'application/geo+json'), 'the local map');
  const latest = await p.data(`/api/pollen?${q({ timezone: 'local' })}`);
  must(typeof latest.date === 'string' && latest.date <= date, `the latest local day is ${latest.date}, after ${date}`);
  const range = await p.data(`/api/pollen-range?${q({ from: date, to: nextDay(date), city, aggregate: 'day', timezone: 'local' })}`);
  must(
    range.from === date && range.timezone === 'local' && range.rows?.length === 1,
    `local range: from ${range.from}, ${range.rows?.length} rows`,
  );
  for (const path of [`/api/pollen?${q({ city, date })}`, `/api/pollen?${q({ city })}`]) {
    must(
      JSON.stringify(await p.data(`${path}&timezone=UTC`)) === JSON.stringify(await p.data(path)),
      `${path} answers differently with timezone=UTC`,
    );
  }
  const bad = await p.problem(`/api/pollen?${q({ city, timezone: 'EST' })}`, 400);
  must(/'timezone'/.test(bad.error), `400 names no parameter: ${bad.error}`);
  return `${hourly.rows.length} hours of ${city}'s local ${date}, ${daily.rows[0].hours} in its newest local day`;
}

export async function errors(p: Probe): Promise<string> {
  const { city } = p.found;
  const bad = await p.problem(`/api/pollen?${q({ city, date: '2025-02-30' })}`, 400);
  must(/'date'/.test(bad.error), `400 names no parameter: ${bad.error}`);
  const unknown = await p.problem(`/api/pollen?${q({ city: 'atlantis-smoke' })}`, 404);
  must(unknown.code === 'UNSUPPORTED_CITY' && unknown.city === 'atlantis-smoke', `404 body ${JSON.stringify(unknown)}`);
  const post = await p.get('/api/cities', { method: 'POST' });
  must(post.status === 405 && post.headers.get('allow') !== null, `POST: HTTP ${post.status}, Allow ${post.headers.get('allow')}`);
  await p.problem('/api/no-such-endpoint', 404);
  return '400, 404, 405, 404';
}

export async function extraParameters(p: Probe): Promise<string> {
  const { city, date } = p.found;
  for (const [path, type] of [
    [`/api/pollen?${q({ city, date })}`, 'application/json'],
    [`/api/pollen?${q({ city })}`, 'application/json'],
    [`/api/map-data?${q({ date })}`, 'application/geo+json'],
    [`/api/weather?${q({ city })}`, 'application/json'],
  ] as const) {
    const plain = JSON.stringify(await p.data(path, type));
    must(JSON.stringify(await p.data(`${path}&utm_source=smoke`, type)) === plain, `${path} answers differently with &utm_source=smoke`);
  }
  return '4 forms';
}

export async function traversal(p: Probe): Promise<string> {
  const { city, date } = p.found;
  const cities = (await p.get('/api/cities')).text;
  for (const path of [
    `/api/pollen?city=${city}&date=..%2F..%2Fcities`,
    `/api/pollen?city=..%2Fcities&date=${date}`,
    '/api/map-data?date=..%2Fcities',
  ]) {
    const r = await p.get(path);
    must(
      r.status >= 400 && r.status < 500 && r.text !== cities && typeof r.json().error === 'string',
      `${path}: HTTP ${r.status} ${r.text.slice(0, 80)}`,
    );
  }
  return 'each a JSON 4xx';
}

export async function discovery(p: Probe): Promise<string> {
  const doc = await p.data('/openapi.json');
  must(doc.openapi === '3.1.0' && typeof doc.paths?.['/api/pollen'] === 'object', 'not the OpenAPI 3.1 document');
  const llms = await p.get('/llms.txt');
  must(llms.status === 200 && llms.text.includes('/api/pollen'), `llms.txt: HTTP ${llms.status}`);
  const page = await p.get('/');
  must(page.status === 200 && (page.headers.get('content-type') ?? '').startsWith('text/html'), `/: HTTP ${page.status}`);
  return `OpenAPI ${doc.info?.version}`;
}
