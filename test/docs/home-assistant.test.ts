/**
 * The "Home Assistant" section of docs/integrations.md: its YAML parses, its `rest:` configuration polls
 * `/api/forecast` as the section says, every JSON path its templates read exists in a real answer
 * of the service, and (where Debian's Python has Jinja2) its templates answer as intended with
 * three, two, one and no rows, with null risks, and with an error body.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond } from '../../src/api/http/respond.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { HOUR_MS } from '../../src/domain/dates.js';
import { CATEGORIES } from '../../src/domain/species/risk.js';
import { SqliteForecastCache } from '../../src/forecast/cache.js';
import { ForecastService } from '../../src/forecast/service.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { lazyContext } from '../../src/wiring/contexts.js';

type Json = Record<string, any>;
type Path = Array<string | number>;

const TIMEOUT = 60_000;
/** Austin at 10:20 local time (CDT) in April: three local days, High tree and grass, weed None. */
const NOW = Date.parse('2026-04-15T15:20:00Z');
const CITY = 'austin';
const FORECAST_QUERY = `city=${CITY}&aggregate=day&timezone=local`;
const PYTHON = '/usr/bin/python3';

/** The lines of docs/integrations.md from `## Home Assistant` up to the next `## ` heading outside a code fence. */
function docSection(): string {
  const lines = readFileSync(new URL('../../docs/integrations.md', import.meta.url), 'utf8').split('\n');
  const start = lines.indexOf('## Home Assistant');
  if (start < 0) throw new Error('docs/integrations.md has no "## Home Assistant" heading');
  let end = lines.length;
  let fenced = false;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.startsWith('```')) fenced = !fenced;
    else if (!fenced && lines[i]!.startsWith('## ')) {
      end = i;
      break;
    }
  }
  return lines.slice(start, end).join('\n');
}

/** The bodies of the ```yaml blocks of a Markdown text. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

const ACCESSORS = String.raw`(?:\.[A-Za-z_]\w*|\[\s*(?:\d+|'[^']*'|"[^"]*")\s*\])*`;

/** `.rows[1]['peak_risk_tree']` as ['rows', 1, 'peak_risk_tree']. */
function parseAccessors(chain: string): Path {
  return [...chain.matchAll(/\.([A-Za-z_]\w*)|\[\s*(\d+|'[^']*'|"[^"]*")\s*\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : /^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!.slice(1, -1),
  );
}

/**
 * Every path into the answer a template reads: `value_json` followed by attribute and index
 * accessors, and the same through names bound by `{% set name = value_json... %}`.
 */
function jsonPaths(template: string): Path[] {
  const aliases = new Map<string, Path>([['value_json', []]]);
  for (const m of template.matchAll(new RegExp(String.raw`\{%-?\s*set\s+([A-Za-z_]\w*)\s*=\s*value_json(${ACCESSORS})\s*-?%\}`, 'g'))) {
    aliases.set(m[1]!, parseAccessors(m[2]!));
  }
  const names = [...aliases.keys()].join('|');
  const paths: Path[] = [];
  for (const m of template.matchAll(new RegExp(String.raw`(?<![\w.'"])(${names})(${ACCESSORS})`, 'g'))) {
    // The binding itself (`set rows = ...`) names the alias, it does not read it.
    if (m[1] !== 'value_json' && /set\s+$/.test(template.slice(0, m.index))) continue;
    paths.push([...aliases.get(m[1]!)!, ...parseAccessors(m[2]!)]);
  }
  return paths;
}

/** Whether a path leads to a value (null included) in a JSON document. */
function exists(doc: unknown, path: Path): boolean {
  let here: unknown = doc;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(here) || step >= here.length) return false;
      here = here[step];
    } else {
      if (here === null || typeof here !== 'object' || Array.isArray(here) || !Object.hasOwn(here, step)) return false;
      here = (here as Json)[step];
    }
  }
  return true;
}

/** Home Assistant's entity id for a YAML-configured sensor without a registry entry: its name, slugified. */
const entityId = (name: string) =>
  `sensor.${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;

interface Section {
  text: string;
  rest: Json;
  sensors: Json[];
  automation: Json;
}

function parseSection(): Section {
  const text = docSection();
  const docs = yamlBlocks(text).map((block) => yaml.load(block) as Json);
  const restDocs = docs.filter((d) => d && 'rest' in d);
  const automations = docs.filter((d) => d && 'automation' in d);
  expect(restDocs, 'one ```yaml block with a rest: configuration').toHaveLength(1);
  expect(automations, 'one ```yaml block with an automation').toHaveLength(1);
  const entries = restDocs[0]!.rest as Json[];
  expect(entries, 'rest: is a list with one resource').toHaveLength(1);
  const rest = entries[0]!;
  const automation = (automations[0]!.automation as Json[])[0]!;
  return { text, rest, sensors: rest.sensor as Json[], automation };
}

/** The body of one request to the real handler. */
async function ask(ctx: ReturnType<typeof lazyContext>, path: string, query: string): Promise<{ status: number; text: string }> {
  const res = await respond({ method: 'GET', path, query: new URLSearchParams(query) }, ctx);
  return { status: res.status, text: res.body as string };
}

let scratch: string;
let cacheStore: Store;
/** Real answers of `/api/forecast?city=austin&aggregate=day&timezone=local`: fresh, then stale with the quota spent. */
const answers = { fresh: '', stale: '', notFound: '' };

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ha-docs-'));
  cacheStore = openStore(join(scratch, 'forecast-cache.db'));
  const clock = { now: NOW };
  // A budget of one call per UTC day: the second refresh, 7 hours later, is refused and the stale cache answers.
  const forecast = new ForecastService({
    providers: [new SampleProvider()],
    cache: new SqliteForecastCache(cacheStore),
    dailyBudget: 1,
    now: () => clock.now,
  });
  const ctx = lazyContext({
    store: () => {
      throw new Error('the forecast needs no store');
    },
    cities: () => DEFAULT_CITIES,
    forecast: () => forecast,
    settings: { now: () => clock.now },
  });
  const fresh = await ask(ctx, '/api/forecast', FORECAST_QUERY);
  clock.now += 7 * HOUR_MS;
  const stale = await ask(ctx, '/api/forecast', FORECAST_QUERY);
  const notFound = await ask(ctx, '/api/forecast', 'city=atlantis&aggregate=day&timezone=local');
  expect([fresh.status, stale.status, notFound.status]).toEqual([200, 200, 404]);
  Object.assign(answers, { fresh: fresh.text, stale: stale.text, notFound: notFound.text });
});

afterAll(() => {
  cacheStore?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the "Home Assistant" section of docs/integrations.md', () => {
  it(
    'has a rest: configuration that polls the day forecast of one city at most every 15 minutes',
    () => {
      const { rest } = parseSection();
      expect(rest.scan_interval, 'scan_interval in seconds').toBeTypeOf('number');
      expect(rest.scan_interval).toBeGreaterThanOrEqual(900);
      expect(rest.resource_template, 'resource, not resource_template').toBeUndefined();
      const url = new URL(rest.resource as string);
      const query = new URLSearchParams(url.search);
      for (const [key, value] of Object.entries((rest.params ?? {}) as Record<string, string>)) query.set(key, String(value));
      expect(url.pathname).toBe('/api/forecast');
      expect(query.get('aggregate')).toBe('day');
      expect(query.get('timezone')).toBe('local');
      expect(query.get('city')).toMatch(/^[a-z0-9-]+$/);
      expect(rest.method ?? 'GET').toBe('GET');
    },
    TIMEOUT,
  );

  it(
    'defines a sensor for the peak risk of each category today and tomorrow, and one that says whether the forecast is stale',
    () => {
      const { sensors } = parseSection();
      for (const sensor of sensors) {
        expect(Object.keys(sensor).sort(), sensor.name).toEqual(expect.arrayContaining(['name', 'unique_id', 'value_template']));
      }
      expect(new Set(sensors.map((s) => s.unique_id)).size, 'unique_id values are unique').toBe(sensors.length);
      const read = sensors.map((s) => jsonPaths(String(s.value_template)).map((p) => p.join('.')));
      for (const [day, label] of [
        [0, 'today'],
        [1, 'tomorrow'],
      ] as const) {
        for (const category of CATEGORIES) {
          const found = sensors.filter((_, i) => read[i]!.includes(`rows.${day}.peak_risk_${category}`));
          expect(
            found.map((s) => s.name),
            `the ${category} risk ${label}`,
          ).toHaveLength(1);
        }
      }
      const staleness = sensors.filter((s, i) => read[i]!.includes('stale') || (s.json_attributes ?? []).includes('stale'));
      expect(staleness.length, 'a sensor or attribute for stale').toBeGreaterThanOrEqual(1);
    },
    TIMEOUT,
  );

  it(
    'reads only JSON paths that exist in a real answer of /api/forecast',
    () => {
      const { sensors } = parseSection();
      const real = [JSON.parse(answers.fresh) as Json, JSON.parse(answers.stale) as Json];
      expect(real[0]!.rows.length, 'the fresh answer has today and tomorrow').toBeGreaterThanOrEqual(2);
      expect(real[1]).toMatchObject({ stale: true, quotaExhausted: true });
      const used: Path[] = [];
      for (const sensor of sensors) {
        for (const key of ['value_template', 'availability'] as const)
          if (sensor[key] !== undefined) used.push(...jsonPaths(String(sensor[key])));
        if (sensor.json_attributes_path !== undefined) {
          expect(sensor.json_attributes_path, 'a JSONPath of the form $.a.b').toMatch(/^\$(\.[A-Za-z_]\w*)*$/);
        }
        const base = sensor.json_attributes_path === undefined ? [] : String(sensor.json_attributes_path).split('.').slice(1);
        for (const key of (sensor.json_attributes ?? []) as string[]) used.push([...base, key]);
      }
      expect(used.length).toBeGreaterThan(0);
      const missing = used.filter((path) => path.length > 0 && !real.some((doc) => exists(doc, path))).map((p) => p.join('.'));
      expect(missing).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'has an automation on the tomorrow sensors that notifies on High or Very High',
    () => {
      const { sensors, automation } = parseSection();
      const tomorrow = sensors
        .filter((s) => jsonPaths(String(s.value_template)).some((p) => p[0] === 'rows' && p[1] === 1))
        .map((s) => entityId(String(s.name)));
      expect(tomorrow).toHaveLength(3);
      const triggers = automation.triggers as Json[];
      expect(triggers.every((t) => t.trigger === 'state')).toBe(true);
      expect(triggers.flatMap((t) => [t.entity_id].flat()).sort()).toEqual([...tomorrow].sort());
      const condition = JSON.stringify(automation.conditions);
      expect(condition).toContain('High');
      expect(condition).toContain('Very High');
      const actions = automation.actions as Json[];
      expect(actions.map((a) => a.action)).toEqual([expect.stringMatching(/^notify\./)]);
      expect(actions[0]!.data.message).toBeTypeOf('string');
    },
    TIMEOUT,
  );

  it(
    'tells where the URL, the slug and its list come from, and cites the Home Assistant docs',
    () => {
      const { text } = parseSection();
      for (const needle of [
        'https://your-site.netlify.app',
        '`austin`',
        '/api/cities',
        '/api/nearest?zip=',
        '255',
        'Sources',
        'source/_integrations/rest.markdown',
      ]) {
        expect(text).toContain(needle);
      }
    },
    TIMEOUT,
  );
});

/**
 * Renders templates with Jinja2 from Debian's Python, in the sandboxed environment Home Assistant
 * also uses. This approximates Home Assistant's template engine: it adds filters and functions of
 * its own (now(), states(), float(0)...), which are not here, so the section's templates must use
 * standard Jinja only. A template error is reported, not thrown: Home Assistant would make the
 * sensor `unknown`, and these templates should never rely on that.
 */
function renderAll(jobs: Array<{ template: string; variables: Json }>): Array<{ out?: string; error?: string }> {
  const script = `
import json, sys
import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
env = ImmutableSandboxedEnvironment()
out = []
for job in json.load(sys.stdin):
    try:
        out.append({"out": env.from_string(job["template"]).render(**job["variables"]).strip()})
    except jinja2.TemplateError as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
json.dump(out, sys.stdout)
`;
  const run = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(jobs), encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`${PYTHON} failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout) as Array<{ out?: string; error?: string }>;
}

/** The variables the RESTful integration gives a template: the body as `value`, and `value_json` when it is JSON. */
function restVariables(body: string): Json {
  try {
    return { value: body, value_json: JSON.parse(body) as unknown };
  } catch {
    return { value: body };
  }
}

const jinja2 = spawnSync(PYTHON, ['-c', 'import jinja2'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!jinja2)(`the section's templates, rendered with Jinja2 (${PYTHON})`, () => {
  /** The real answers and copies cut to fewer rows or with null risks, by name. */
  const cases = (): Record<string, string> => {
    const fresh = JSON.parse(answers.fresh) as Json;
    const withRows = (rows: Json[]) => JSON.stringify({ ...fresh, rows });
    const nullRisks = (fresh.rows as Json[]).map((r) => ({ ...r, peak_risk_tree: null, peak_risk_grass: null, peak_risk_weed: null }));
    return {
      'the fresh answer': answers.fresh,
      'the stale answer': answers.stale,
      'two rows': withRows(fresh.rows.slice(0, 2)),
      'one row': withRows(fresh.rows.slice(0, 1)),
      'no rows': withRows([]),
      'null risks': withRows(nullRisks),
      'an error body': answers.notFound,
    };
  };

  it(
    'answer the peak risk of each day and category, and unknown when the row or the risk is missing',
    () => {
      const { sensors } = parseSection();
      const risky = sensors.flatMap((s) => {
        const path = jsonPaths(String(s.value_template)).find(
          (p) => p[0] === 'rows' && typeof p[1] === 'number' && /^peak_risk_/.test(String(p[2])),
        );
        return path ? [{ template: String(s.value_template), day: path[1] as number, field: path[2] as string }] : [];
      });
      expect(risky).toHaveLength(6);
      const all = Object.entries(cases());
      const jobs = all.flatMap(([, body]) => risky.map((r) => ({ template: r.template, variables: restVariables(body) })));
      const results = renderAll(jobs);
      let k = 0;
      const seen = new Set<string>();
      for (const [name, body] of all) {
        const rows = ((JSON.parse(body) as Json).rows ?? []) as Json[];
        for (const r of risky) {
          const result = results[k++]!;
          const expected = (rows[r.day]?.[r.field] as string | null | undefined) ?? 'unknown';
          seen.add(expected);
          expect(result, `${r.field} of row ${r.day}, ${name}`).toEqual({ out: expected });
        }
      }
      // The cases cover real labels, the label None (not to be confused with a missing value) and unknown.
      expect([...seen]).toEqual(expect.arrayContaining(['High', 'None', 'unknown']));
    },
    TIMEOUT,
  );

  it(
    'say fresh or stale, and are available exactly when the answer has rows',
    () => {
      const { sensors } = parseSection();
      const status = sensors.filter((s) => jsonPaths(String(s.value_template)).some((p) => p.join('.') === 'stale'));
      expect(status).toHaveLength(1);
      const [sensor] = status as [Json];
      const all = Object.entries(cases());
      const jobs = all.flatMap(([, body]) => [
        { template: String(sensor.value_template), variables: restVariables(body) },
        ...(sensor.availability === undefined ? [] : [{ template: String(sensor.availability), variables: restVariables(body) }]),
      ]);
      const results = renderAll(jobs);
      let k = 0;
      for (const [name, body] of all) {
        const doc = JSON.parse(body) as Json;
        const value = results[k++]!;
        if ('rows' in doc) expect(value, name).toEqual({ out: doc.stale ? 'stale' : 'fresh' });
        if (sensor.availability !== undefined)
          expect(results[k++], `availability, ${name}`).toEqual({ out: 'rows' in doc ? 'True' : 'False' });
      }
    },
    TIMEOUT,
  );

  it(
    "let the automation through only for High and Very High, with the sensor's name in the message",
    () => {
      const { automation } = parseSection();
      const conditions = (automation.conditions as Json[]).filter((c) => c.condition === 'template');
      expect(conditions.length).toBeGreaterThanOrEqual(1);
      const labels = ['None', 'Low', 'Moderate', 'High', 'Very High', 'unknown'];
      const trigger = (state: string) => ({
        platform: 'state',
        entity_id: 'sensor.pollen_tree_risk_tomorrow',
        from_state: { state: 'Moderate', name: 'Pollen tree risk tomorrow' },
        to_state: { state, name: 'Pollen tree risk tomorrow' },
      });
      const jobs = labels.flatMap((state) => [
        ...conditions.map((c) => ({ template: String(c.value_template), variables: { trigger: trigger(state) } })),
        { template: String((automation.actions as Json[])[0]!.data.message), variables: { trigger: trigger(state) } },
      ]);
      const results = renderAll(jobs);
      let k = 0;
      for (const state of labels) {
        const passes = conditions.map(() => results[k++]!);
        const message = results[k++]!;
        expect(
          passes.every((p) => p.out === 'True'),
          state,
        ).toBe(state === 'High' || state === 'Very High');
        expect(message.out, state).toContain('Pollen tree risk tomorrow');
        expect(message.out, state).toContain(state);
      }
    },
    TIMEOUT,
  );
});
