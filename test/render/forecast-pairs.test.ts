/**
 * The forecast-pairs bulk file against /api/forecast-skill, end to end on the sample provider: a
 * store of two cities over more than a year, its past forecasts made again, rendered and served;
 * then an independent reader (pandas in python3, forecast-pairs-scores.py) computes every score
 * again from the gzip CSV alone, and each city's answer must say the same, for every category,
 * lead and period (the trailing window and each season year), for the forecast, persistence,
 * climatology and the outlook. DuckDB checks that the Parquet holds the same rows as the CSV.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import type { ForecastSkill, SkillScores } from '../../src/domain/skill-schemas.js';
import type { SkillTable } from '../../src/domain/schemas.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { pairsPath } from '../../src/render/forecast-skills.js';
import { render } from '../../src/render/render.js';
import { serve, type RunningServer } from '../../src/server/server.js';
import { openStore } from '../../src/store/store.js';
import { ROOT } from '../helpers/cli.js';
import { buildStore } from '../helpers/site.js';

const CITIES = ['austin', 'scranton'];
/** 406 days: a trailing window of 90, two season years of each category, and earlier days for climatology. */
const SPAN = { from: dayNumber('2024-03-01'), to: dayNumber('2025-04-10') };
const SCRIPT = join(ROOT, 'test/render/forecast-pairs-scores.py');
/** Scores agree to this many decimal places (the two readers sum in different orders). */
const DIGITS = 9;

/** Debian's python3 first (python3-pandas), then the one on PATH: the first that imports pandas. */
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
if (!PYTHON) console.warn('the forecast-pairs recomputation is skipped: no python3 imports pandas (apt-get install python3-pandas)');

type Categorical = Pick<SkillTable, 'pairs' | 'table' | 'high' | 'heidke' | 'gerrity' | 'pod' | 'far' | 'spearman' | 'rmse_log'>;
interface Recomputed {
  forecast?: Categorical;
  persistence: Categorical;
  climatology: Categorical;
  outlook: { pairs: number; rps: number | null; rps_climatology: number | null; rpss: number | null };
}

const SCORES = ['heidke', 'gerrity', 'pod', 'far', 'spearman', 'rmse_log'] as const;

describe('the forecast-pairs file, read again by pandas', () => {
  let dir: string;
  let server: RunningServer;
  let publish: string;
  const answers = new Map<string, ForecastSkill>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-pairs-'));
    const db = await buildStore(dir, CITIES, SPAN);
    const writable = openStore(db);
    const cities = CITIES.map((slug) => DEFAULT_CITIES.get(slug)!);
    await keepForecasts({ store: writable, provider: new SampleProvider(), cities, now: (SPAN.to + 1) * DAY_MS, serveDays: 730 });
    writable.close();
    const store = openStore(db, { readonly: true });
    publish = join(dir, 'publish');
    await render(store, publish);
    store.close();
    process.env.POLLEN_DB = db;
    process.env.FORECAST_CACHE_DB = join(dir, 'forecast-cache.db');
    server = await serve({ root: ROOT, publishDir: publish, port: 0 });
    for (const city of CITIES) {
      const res = await fetch(`${server.url}/api/forecast-skill?city=${city}`);
      expect(res.status).toBe(200);
      answers.set(city, (await res.json()) as ForecastSkill);
    }
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every count and score of one table as the answer says it, against the recomputed one. */
  function agree(where: string, served: SkillTable, recomputed: Categorical): number {
    expect({ pairs: served.pairs, table: served.table, high: served.high }, where).toEqual({
      pairs: recomputed.pairs,
      table: recomputed.table,
      high: recomputed.high,
    });
    let compared = 0;
    for (const score of SCORES) {
      const [ours, theirs] = [served[score], recomputed[score]];
      if (theirs === null) expect(ours, `${where} ${score}`).toBeNull();
      else {
        expect(ours, `${where} ${score}`).toBeCloseTo(theirs, DIGITS);
        compared++;
      }
    }
    return compared;
  }

  it.skipIf(!PYTHON)(
    'recomputes every score of every city, category, lead and period from the gzip CSV, as /api/forecast-skill says',
    () => {
      const out = execFileSync(PYTHON!, [SCRIPT, join(publish, pairsPath('csv.gz'))], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const recomputed = new Map(Object.entries(JSON.parse(out) as Record<string, Recomputed>));
      const seen = new Set<string>();
      const compared = { forecast: 0, persistence: 0, climatology: 0, outlook: 0 };
      for (const [city, skill] of answers) {
        expect(skill.categories.map((c) => c.category)).toEqual(['tree', 'grass', 'weed', 'ragweed']);
        for (const c of skill.categories) {
          expect(c.leads.map((l) => l.lead)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
          for (const l of c.leads) {
            const periods: Array<[string, SkillScores]> = [
              ['window', l.window],
              ...l.years.map((y): [string, SkillScores] => [String(y.year), y]),
            ];
            for (const [period, served] of periods) {
              const key = `${city}|${c.category}|${l.lead}|${period}`;
              const theirs = recomputed.get(key);
              expect(theirs, `${key} in the pairs file`).toBeDefined();
              seen.add(key);
              if (theirs!.forecast) compared.forecast += agree(`${key} forecast`, served.forecast, theirs!.forecast);
              else expect(served.forecast.pairs, `${key}: no forecast reaches lead ${l.lead}`).toBe(0);
              compared.persistence += agree(`${key} persistence`, served.persistence, theirs!.persistence);
              compared.climatology += agree(`${key} climatology`, served.climatology, theirs!.climatology);
              const o = theirs!.outlook;
              expect(served.outlook.pairs, `${key} outlook pairs`).toBe(o.pairs);
              for (const score of ['rps', 'rps_climatology', 'rpss'] as const) {
                if (o[score] === null) expect(served.outlook[score], `${key} outlook ${score}`).toBeNull();
                else {
                  expect(served.outlook[score], `${key} outlook ${score}`).toBeCloseTo(o[score]!, DIGITS);
                  compared.outlook++;
                }
              }
            }
          }
        }
      }
      // Every period the file holds is one an answer scores, and the sample gives real scores to compare.
      expect([...recomputed.keys()].filter((k) => !seen.has(k))).toEqual([]);
      expect(compared.forecast).toBeGreaterThan(100);
      expect(compared.persistence).toBeGreaterThan(100);
      expect(compared.climatology).toBeGreaterThan(50);
      expect(compared.outlook).toBeGreaterThan(50);
    },
    120_000,
  );

  it('holds the same rows in the Parquet as in the gzip CSV (DuckDB reads both)', async () => {
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      const [parquet, csv] = [pairsPath('parquet'), pairsPath('csv.gz')].map((p) => join(publish, p).replaceAll("'", "''"));
      // The CSV's timestamps read as text; cast both sides to one type per column.
      const cols = `city, category, date::DATE, season_year, in_window, observed_value, observed_level, climatology_value, climatology_level,
        ${[0, 1, 2].map((l) => `forecast_value_${l}, forecast_level_${l}, epoch_ms(forecast_issued_${l}::TIMESTAMPTZ)`).join(', ')},
        ${Array.from({ length: 8 }, (_, l) => `outlook_rps_${l}`).join(', ')}, climatology_rps`;
      const count = async (sql: string) => Number((await (await db.run(sql)).getRows())[0]![0]);
      const rows = await count(`SELECT count(*) FROM read_parquet('${parquet}')`);
      expect(rows).toBeGreaterThan(2 * 4 * 365);
      expect(await count(`SELECT count(*) FROM read_csv('${csv}', header = true)`)).toBe(rows);
      const differ = `SELECT count(*) FROM (SELECT ${cols} FROM read_parquet('${parquet}') EXCEPT SELECT ${cols} FROM read_csv('${csv}', header = true))`;
      expect(await count(differ)).toBe(0);
    } finally {
      db.closeSync();
    }
  });
});
