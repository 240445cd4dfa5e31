/**
 * Every example of the README, the pages of docs/ and /llms.txt runs against a sample store, with
 * that store's dates: the docs write `YYYY-MM-DD` for a date with data, `YYYY-MM` for a month and
 * `YYYY` for a year (a person reads them as placeholders), and this test puts in the store's
 * latest date, the month before its month and the year before its year.
 *
 * - Every request the docs name (in code, a code block or a link; a parameter left empty or
 *   written as a choice is given a value) is a parameter of its endpoint and answers.
 * - Every `curl` line of a shell block runs in bash, and prints what the comment under it shows
 *   (`…` stands for anything); an abridged JSON answer (with `…`) must parse with its endpoint's
 *   schema instead.
 * - The bulk examples of docs/data.md run: DuckDB in-process, pandas, pyarrow and Polars in
 *   python3, R's arrow, each where installed, and their numbers are the API's.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/documents/openapi.js';
import { API_ROUTES, findRoute } from '../../src/api/routes.js';
import type { BulkManifest } from '../../src/deploy-data/bulk-index.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ROOT } from '../helpers/cli.js';
import { parameterProblem } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const run = promisify(execFile);
const DOCUMENT = openApiDocument(API_ROUTES) as { paths: Record<string, unknown> };

/** The hosts the docs write, each standing for the local server. */
const HOSTS = ['https://your-site.netlify.app', 'webcal://your-site.netlify.app', 'http://127.0.0.1:8888', 'https://<site>'];
const CITIES = ['austin', 'tulsa'];
/** Two years to a day in late November, as `npm start` holds on 25 November. */
const LAST = dayNumber('2025-11-24');

const DOC_FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md')).sort();

interface Block {
  file: string;
  line: number;
  language: string;
  text: string;
}

/** The fenced code blocks of a Markdown file, and the text outside them with fences blanked. */
function parse(file: string): { blocks: Block[]; prose: string[] } {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  const prose: string[] = [];
  let open: Block | undefined;
  lines.forEach((line, i) => {
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence && !open) open = { file, line: i + 1, language: fence[1]!, text: '' };
    else if (fence && open) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.text += `${line.replace(/^ {2}/, '')}\n`;
    prose.push(open || fence ? '' : line);
  });
  return { blocks, prose };
}

/** A request the text names: a path of the API (or a file it serves), with its query if any. */
const REQUEST =
  /(?:(?:https?|webcal):\/\/(?:[\w.-]+(?::\d+)?|<site>))?(?<![\w/.-])(\/(?:api\/[a-z-]+(?![\w/])|openapi\.json|\.well-known\/openapi\.json|llms\.txt|data\/bulk\/[\w.-]+))(\?[^\s'"`<>)]*)?/g;

/** The requests in inline code and links of prose lines, and in code blocks other than shell ones (whose curl lines run). */
function requestsOf(file: string): Array<{ where: string; path: string; query: string }> {
  const { blocks, prose } = parse(file);
  const found: Array<{ where: string; path: string; query: string }> = [];
  const scan = (text: string, where: string) => {
    for (const m of text.matchAll(REQUEST)) found.push({ where, path: m[1]!, query: (m[2] ?? '').replace(/[.,;:]+$/, '') });
  };
  prose.forEach((line, i) => {
    for (const code of line.matchAll(/`([^`]+)`|<((?:https?|webcal):[^>]+)>/g)) scan(code[1] ?? code[2]!, `${file}:${i + 1}`);
  });
  for (const b of blocks) if (!['sh', 'sql', 'python', 'r'].includes(b.language)) scan(b.text, `${file}:${b.line}`);
  return found;
}

/**
 * The dates an example writes by hand, which would leave the data's window: a date, a window's
 * bounds, a year or a bulk file's month written as digits rather than as a placeholder.
 */
const fixedDates = (text: string): string[] =>
  [...text.matchAll(/[?&](?:date|from|to|year)=\d{4}[^&\s'"`]*|\/data\/bulk\/[\w-]*\d{4}-\d{2}[\w.-]*/g)].map((m) => m[0]);

/** A parameter value the docs wrote as a shape (`city=`, `SLUG`, `none|day`, `..`), not a value. */
const isTemplate = (value: string) => /^(|X|N|NNNNN|SLUG|SPECIES|a,b)$|\.\.|…|\||[<>]/.test(value);

describe('the examples of the README, docs/ and llms.txt', () => {
  const site = useSite({ cities: CITIES, span: { from: LAST - 729, to: LAST } });
  const dates = { day: '', month: '', year: '' };
  let manifest: BulkManifest;

  /** The docs' placeholders and hosts, as this store and server have them. */
  const fill = (text: string) =>
    HOSTS.reduce((t, host) => t.replaceAll(host, site.server.url), text)
      .replaceAll('YYYY-MM-DD', dates.day)
      .replaceAll('YYYY-MM', dates.month)
      .replaceAll('YYYY', dates.year);

  /** A value for a parameter the docs left as a shape. */
  const valueFor = (name: string, written: string): string => {
    const values: Record<string, string> = {
      city: written.includes(',') ? CITIES.join(',') : CITIES[0]!,
      date: dates.day,
      year: dates.year,
      from: `${dates.month}-01`,
      to: `${dates.month}-15`,
      lat: '30.27',
      lon: '-97.74',
      zip: '78701',
      limit: '10',
      max_km: '150',
      category: 'tree',
    };
    // A range written as `0..7` takes its first value; a choice as `none|day` its first.
    return values[name] ?? /^(\d+)\.\.\d+$/.exec(written)?.[1] ?? written.split('|')[0]!;
  };
  /** Where a request is written as a request (with a query, or of an endpoint that takes none), and not only as the endpoint's name. */
  const isRequest = (path: string, query: string) => query !== '' || Object.keys(findRoute(path)?.params ?? {}).length === 0;

  /** The request with a value for each parameter written as a shape, and for each required one left out. */
  const instantiate = (path: string, query: string, where: string): string => {
    const route = findRoute(path);
    const params = new URLSearchParams();
    for (const pair of query.replace(/^\?/, '').split('&').filter(Boolean)) {
      const [name, value = ''] = pair.split('=') as [string, string?];
      if (name === '...' || name === '..') continue;
      if (route) expect(Object.keys(route.params), `${where}: ${path} has no parameter '${name}'`).toContain(name);
      const given = isTemplate(value) ? valueFor(name, value) : fill(decodeURIComponent(value));
      // A choice left empty takes its default.
      if (given !== '') params.set(name, given);
    }
    for (const [name, schema] of Object.entries(route?.params ?? {}))
      if (!params.has(name) && !schema.safeParse(undefined).success && params.size > 0) params.set(name, valueFor(name, ''));
    return params.size > 0 ? `${path}?${params}` : path;
  };

  beforeAll(async () => {
    dates.day = ((await (await site.get('/api/latest-date')).json()) as { date: string }).date;
    const [y, m] = dates.day.split('-').map(Number) as [number, number];
    dates.month = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    dates.year = String(y - 1);
    manifest = (await (await site.get('/data/bulk/index.json')).json()) as BulkManifest;
  });

  it('holds the month and the whole year the examples read', () => {
    const months = new Set(manifest.files.map((f) => f.month));
    expect(months).toContain(dates.month);
    for (let m = 1; m <= 12; m++) expect(months).toContain(`${dates.year}-${String(m).padStart(2, '0')}`);
  });

  it('renders as many bulk files as docs/data.md counts for 730 days', () => {
    const said =
      /at 730 days, (\d+) months x 4 kinds \(three of observations, and the forecast pairs\) x 2 formats = (\d+) files, the seasons file with its twin/.exec(
        readFileSync(join(ROOT, 'docs', 'data.md'), 'utf8').replace(/\s+/g, ' '),
      );
    expect(said).not.toBeNull();
    const months = new Set(manifest.files.flatMap((f) => (f.month ? [f.month] : []))).size;
    expect([Number(said![1]), Number(said![2])]).toEqual([months, months * 4 * 2]);
    // The seasons file, with its twin.
    expect(manifest.files).toHaveLength(months * 4 * 2 + 2);
  });

  it.each(DOC_FILES)('answers every request %s names with values, each parameter one of its endpoint', async (file) => {
    const failures: string[] = [];
    for (const b of parse(file).blocks)
      for (const d of fixedDates(b.text)) failures.push(`${file}:${b.line}: ${d} is a date written by hand`);
    for (const { where, path, query } of requestsOf(file)) {
      for (const d of fixedDates(path + query)) failures.push(`${where}: ${d} is a date written by hand`);
      const route = findRoute(path);
      if (!route && !path.startsWith('/data/bulk/')) {
        failures.push(`${where}: ${path} is no endpoint`);
        continue;
      }
      if (!isRequest(path, query)) continue;
      const request = instantiate(fill(path), query, where);
      const problem = await answerProblem(request, path);
      if (problem) failures.push(`${where}: ${request} ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers every request of /llms.txt with values, its shapes given values, each parameter one of its endpoint', async () => {
    const text = await (await site.get('/llms.txt')).text();
    const failures: string[] = [];
    let count = 0;
    for (const m of text.matchAll(REQUEST)) {
      for (const d of fixedDates(m[0])) failures.push(`${d} is a date written by hand`);
      const query = (m[2] ?? '').replace(/[.,;:]+$/, '');
      if (!isRequest(m[1]!, query)) continue;
      const request = instantiate(fill(m[1]!), query, `llms.txt: ${m[0]}`);
      const problem = await answerProblem(request, m[1]!);
      count++;
      if (problem) failures.push(`${request} ${problem}`);
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(10);
  });

  /**
   * What is wrong with an example's answer: a value the OpenAPI document refuses (a generated
   * client would not send it), an error (/api/health's 503 is its answer when stale), or JSON without values.
   */
  const answerProblem = async (request: string, path: string): Promise<string | undefined> => {
    const documented = Object.hasOwn(DOCUMENT.paths, path) ? [...new URL(request, 'http://x').searchParams] : [];
    const refused = documented.map(([name, value]) => parameterProblem(path, name, value)).filter(Boolean);
    if (refused.length > 0) return `has a value the OpenAPI document refuses: ${refused.join('; ')}`;
    const res = await site.get(request);
    const text = await res.text();
    if (!(res.status < 400 || (path === '/api/health' && res.status === 503))) return `answered ${res.status}`;
    if (!(res.headers.get('content-type') ?? '').includes('json')) return undefined;
    const body = JSON.parse(text) as Json;
    const empty = (Array.isArray(body.rows) && body.rows.length === 0) || (Array.isArray(body.features) && body.features.length === 0);
    return empty ? 'answered no values' : undefined;
  };

  const HAS_CURL = spawnSync('bash', ['-c', 'command -v curl && command -v jq'], { stdio: 'ignore' }).status === 0;
  const curlHome = mkdtempSync(join(tmpdir(), 'pollen-curl-'));
  writeFileSync(join(curlHome, '.curlrc'), '--fail\n--silent\n--show-error\n');
  if (!HAS_CURL) console.warn('the curl examples of the docs are skipped: curl or jq is missing (apt-get install curl jq)');

  it.skipIf(!HAS_CURL).each(DOC_FILES)('runs every curl line of %s and prints what its comment shows', async (file) => {
    const failures: string[] = [];
    for (const block of parse(file).blocks.filter((b) => b.language === 'sh')) {
      const lines = block.text.split('\n');
      for (const [i, line] of lines.entries()) {
        if (!line.startsWith('curl ')) continue;
        const shown: string[] = [];
        for (let j = i + 1; lines[j]?.startsWith('#'); j++) shown.push(lines[j]!.replace(/^#\s*/, ''));
        // curl reads $CURL_HOME/.curlrc: an HTTP error fails the line, and nothing but the answer is printed.
        const { stdout } = await run('bash', ['-o', 'pipefail', '-c', fill(line)], {
          timeout: 60_000,
          env: { ...process.env, CURL_HOME: curlHome },
        });
        if (shown.length === 0) continue;
        const expected = fill(shown.join(''));
        const where = `${file}:${block.line + i + 1}`;
        const abridged = abridgedJson(expected);
        if (abridged !== undefined) {
          const path = /\/(?:api\/[a-z-]+)/.exec(line)![0];
          const parsed = findRoute(path)!.response!.safeParse(abridged);
          if (!parsed.success) failures.push(`${where}: the answer shown does not parse with ${path}'s schema: ${parsed.error.message}`);
        } else if (!wildcard(expected).test(stdout.trim()))
          failures.push(`${where}: printed ${stdout.trim().slice(0, 300)}, not ${expected}`);
      }
    }
    expect(failures).toEqual([]);
  });

  /** The code blocks of a language in the "Bulk data" section of docs/data.md, filled in. */
  const bulkExamples = (language: string): string[] => {
    const doc = readFileSync(join(ROOT, 'docs', 'data.md'), 'utf8');
    const start = doc.indexOf('\n## Bulk data\n');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1) === -1 ? undefined : doc.indexOf('\n## ', start + 1));
    return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => fill(m[1]!));
  };
  const api = async (path: string) => (await (await site.get(path)).json()) as Json;
  /** Each city's daily rows of the examples' year. */
  const yearOf = async (city: string) =>
    ((await api(`/api/pollen?city=${city}`)).rows as Json[]).filter((r) => r.date.startsWith(`${dates.year}-`));
  const worstTree = async () =>
    Object.fromEntries(await Promise.all(CITIES.map(async (c) => [c, Math.max(...(await yearOf(c)).map((r) => r.peak_tree))])));
  const daysHeld = async () => Promise.all(CITIES.map(async (c) => (await yearOf(c)).length));
  /** The hourly rows of austin's month, as /api/pollen-range gives them. */
  const austinMonth = async () => {
    const [y, m] = dates.month.split('-').map(Number) as [number, number];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    return (await api(`/api/pollen-range?from=${dates.month}-01&to=${next}-01&city=austin&limit=50000`)).rows as Json[];
  };

  it('runs the DuckDB SQL of docs/data.md on the downloaded files: a month of one city, and a whole year', async () => {
    const [sql] = bulkExamples('sql');
    const local = mkdtempSync(join(tmpdir(), 'pollen-bulk-docs-'));
    for (const f of manifest.files.filter((x) => x.format === 'parquet'))
      writeFileSync(join(local, f.path.split('/').at(-1)!), Buffer.from(await (await site.get(f.path)).arrayBuffer()));
    const duck = await DuckDBInstance.create(':memory:');
    const con = await duck.connect();
    try {
      const [month, year] = sql!
        .replaceAll(`${site.server.url}/data/bulk/`, `${local}/`)
        .split(';\n')
        .filter((s) => s.trim());
      const hours = (await con.runAndReadAll(month!)).getRowObjectsJS() as Json[];
      expect(hours.map((h) => [(h.ts as Date).toISOString(), h.tree, h.grass, h.weed, h.risk_tree])).toEqual(
        (await austinMonth()).map((r) => [r.periodStart, r.tree, r.grass, r.weed, r.risk_tree]),
      );
      const perCity = (await con.runAndReadAll(year!)).getRowObjectsJS() as Json[];
      const worst = await worstTree();
      const counts = await daysHeld();
      expect(Math.min(...counts)).toBeGreaterThan(360);
      expect(perCity.map((r) => [r.city, Number(r.days), r.worst_tree])).toEqual(CITIES.map((c, i) => [c, counts[i], worst[c]]));
    } finally {
      con.closeSync();
      duck.closeSync();
    }
  });

  /** Debian's python3 first (python3-pandas), then the one on PATH: the first that imports `module`. */
  const pythonWith = (module: string) =>
    ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0);
  const python = async (module: string) => {
    const code = bulkExamples('python').find((c) => c.includes(`import ${module}`) || c.includes(`import ${module} `));
    expect(code, `a python example importing ${module}`).toBeDefined();
    // Not execFileSync: the local server answering python runs in this process.
    const { stdout } = await run(pythonWith(module)!, ['-c', code!], { encoding: 'utf8', timeout: 120_000 });
    return stdout.trim().split('\n').at(-1)!;
  };
  const skipped = (what: string, why: string) => console.warn(`the ${what} example of docs/data.md is skipped: ${why}`);
  const PANDAS = pythonWith('pandas');
  if (!PANDAS) skipped('pandas', 'no python3 imports pandas (apt-get install python3-pandas)');
  const PYARROW = pythonWith('pyarrow');
  if (!PYARROW) skipped('pyarrow', 'no python3 imports pyarrow (Debian has no python3-pyarrow; pip install pyarrow)');
  const POLARS = pythonWith('polars');
  if (!POLARS) skipped('Polars', 'no python3 imports polars (Debian has no python3-polars; pip install polars)');
  const R_ARROW = spawnSync('Rscript', ['-e', 'library(arrow)'], { stdio: 'ignore' }).status === 0;
  if (!R_ARROW) skipped('R', 'Rscript with the arrow package is not installed (Debian has no r-cran-arrow)');

  it.skipIf(!PANDAS)('runs the pandas lines of docs/data.md against the local server', async () => {
    const [counts, dict] = (await python('pandas')).split(/ (?=\{)/);
    const monthDays = await Promise.all(
      CITIES.map(async (c) => ((await api(`/api/pollen?city=${c}`)).rows as Json[]).filter((r) => r.date.startsWith(dates.month)).length),
    );
    expect(counts!.split(' ').map(Number)).toEqual([monthDays[0]! + monthDays[1]!, (await daysHeld()).reduce((a, b) => a + b)]);
    const printed = Object.fromEntries([...dict!.matchAll(/'([a-z-]+)': (?:np\.float64\()?([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]));
    expect(printed).toEqual(await worstTree());
  });

  it.skipIf(!PYARROW)('runs the pyarrow lines of docs/data.md against the local server', async () => {
    const rows = manifest.files.find((f) => f.path.endsWith(`pollen-hourly-${dates.month}.parquet`))!.rows;
    expect(Number(await python('pyarrow'))).toBe(rows);
  });

  it.skipIf(!POLARS)('runs the Polars lines of docs/data.md against the local server', async () => {
    const rows = manifest.files.filter((f) => f.format === 'parquet' && f.kind === 'pollen-daily' && f.month?.startsWith(`${dates.year}-`));
    expect(Number(await python('polars'))).toBe(rows.reduce((n, f) => n + f.rows, 0));
  });

  it.skipIf(!R_ARROW)('runs the R lines of docs/data.md against the local server', async () => {
    const [code] = bulkExamples('r');
    const { stdout } = await run('Rscript', ['-e', code!], { encoding: 'utf8', timeout: 120_000 });
    const rows = manifest.files.find((f) => f.path.endsWith(`pollen-hourly-${dates.month}.parquet`))!.rows;
    expect(Number(stdout.trim())).toBe(rows);
  });
});

/** A pattern of a shown output: `…` stands for any text. */
function wildcard(shown: string): RegExp {
  return new RegExp(
    `^${shown
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?')}$`,
    's',
  );
}

/** An abridged JSON answer (with `…` outside its strings) as the JSON it abridges, or undefined when the output is not one. */
function abridgedJson(shown: string): unknown {
  if (!shown.startsWith('{') || !shown.includes('…')) return undefined;
  let out = '';
  let inString = false;
  for (let i = 0; i < shown.length; i++) {
    const c = shown[i]!;
    if (c === '"' && shown[i - 1] !== '\\') inString = !inString;
    if (!inString && c === '…') {
      out = out.replace(/,\s*$/, '');
      continue;
    }
    out += c;
  }
  return JSON.parse(out.replace(/,(\s*[\]}])/g, '$1'));
}
