/**
 * The forecast-pairs bulk files against /api/forecast-skill, end to end on the sample provider: a
 * store of two cities over more than a year, its past forecasts and outlooks made again, rendered
 * and served; then an independent reader (pandas in python3, forecast-pairs-scores.py) computes
 * every point score again from the monthly gzip CSVs alone, and each city's answer must say the
 * same, for every category, lead and period (the trailing window, its days in season, each
 * season year), for the forecast, persistence, climatology, the outlook and what was served.
 * DuckDB checks that each month's Parquet holds the same rows as its CSV.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBulkIndex } from '../../src/deploy-data/bulk-index.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import type { SkillTable } from '../../src/domain/schemas.js';
import type { ForecastSkill, SkillScores } from '../../src/domain/verification/skill-schemas.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { pairsPath } from '../../src/scoring/score-cities.js';
import { ROOT } from '../helpers/cli.js';
import { useSite } from '../helpers/site.js';

const CITIES = ['austin', 'scranton'];
/** 406 days: a trailing window of 90, two season years of each category, and earlier days for climatology. */
const SPAN = { from: dayNumber('2024-03-01'), to: dayNumber('2025-04-10') };
const SCRIPT = join(ROOT, 'test/render/forecast-pairs-scores.py');
/** Scores agree to this many decimal places (answers give six; the two readers sum in different orders). */
const DIGITS = 5;

/** Debian's python3 first (python3-pandas), then the one on PATH: the first that imports pandas. */
const PYTHON = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
if (!PYTHON) console.warn('the forecast-pairs recomputation is skipped: no python3 imports pandas (apt-get install python3-pandas)');

type Categorical = Pick<SkillTable, 'table' | 'high' | 'heidke' | 'gerrity' | 'pod' | 'far' | 'spearman' | 'rmse_log'> & {
  /** A forecast's scores less each compared reference's. */
  differences?: Record<string, { gerrity: number | null; heidke: number | null }>;
};
type Probabilistic = { days: number; rps: number | null; rps_climatology: number | null; rpss: number | null };
interface Recomputed {
  days: number;
  forecast: Categorical | null;
  persistence: Categorical | null;
  climatology: Categorical | null;
  outlook: Probabilistic;
  served: Probabilistic;
  side_by_side: {
    days: number;
    providers: Record<string, Categorical | null>;
    persistence: Categorical | null;
    climatology: Categorical | null;
  };
}

const SCORES = ['heidke', 'gerrity', 'pod', 'far', 'spearman', 'rmse_log'] as const;

describe('the forecast-pairs file, read again by pandas', () => {
  const site = useSite({
    cities: CITIES,
    span: SPAN,
    prepare: async (store) => {
      const cities = CITIES.map((slug) => DEFAULT_CITIES.get(slug)!);
      await keepForecasts({ store, providers: [new SampleProvider()], cities, now: (SPAN.to + 1) * DAY_MS, serveDays: 730 });
    },
  });
  const answers = new Map<string, ForecastSkill>();

  beforeAll(async () => {
    for (const city of CITIES) {
      const res = await site.get(`/api/forecast-skill?city=${city}`);
      expect(res.status).toBe(200);
      answers.set(city, (await res.json()) as ForecastSkill);
    }
  }, 300_000);

  /** Every count and score of one table as the answer says it, against the recomputed one (both null: none). */
  function agree(where: string, served: SkillTable | null, recomputed: Categorical | null): number {
    if (recomputed === null || served === null) {
      expect(served, where).toBe(recomputed);
      return 0;
    }
    expect({ table: served.table, high: served.high }, where).toEqual({ table: recomputed.table, high: recomputed.high });
    let compared = 0;
    for (const score of SCORES) {
      const [ours, theirs] = [served[score], recomputed[score]];
      if (theirs === null) expect(ours, `${where} ${score}`).toBeNull();
      else {
        expect(ours, `${where} ${score}`).toBeCloseTo(theirs, DIGITS);
        compared++;
      }
    }
    // A forecast's verdicts: the differences they are read from, each reference compared one.
    if (recomputed.differences) {
      expect(
        (served.verdicts ?? []).map((v) => v.reference),
        `${where} verdicts`,
      ).toEqual(Object.keys(recomputed.differences));
      for (const v of served.verdicts ?? []) {
        const theirs = recomputed.differences[v.reference]!;
        for (const [ours, recomputedDifference] of [
          [v.difference, theirs.gerrity],
          [v.heidke_difference, theirs.heidke],
        ] as const) {
          if (recomputedDifference === null) expect(ours, `${where} ${v.reference} difference`).toBeNull();
          else {
            expect(ours, `${where} ${v.reference} difference`).toBeCloseTo(recomputedDifference, DIGITS);
            compared++;
          }
        }
        if (v.difference === null) expect(v.verdict, `${where} ${v.reference} verdict`).toBeNull();
      }
    } else expect(served.verdicts, `${where} verdicts`).toBeUndefined();
    return compared;
  }

  /** The outlook's or what was served's scores as the answer says them, against the recomputed ones. */
  function agreeProbabilistic(where: string, served: SkillScores['outlook'], recomputed: Probabilistic): number {
    expect(served.days, `${where} days`).toBe(recomputed.days);
    let compared = 0;
    for (const score of ['rps', 'rps_climatology', 'rpss'] as const) {
      if (recomputed[score] === null) expect(served[score], `${where} ${score}`).toBeNull();
      else {
        expect(served[score], `${where} ${score}`).toBeCloseTo(recomputed[score]!, DIGITS);
        compared++;
      }
    }
    return compared;
  }

  /** Every month's pairs file in a format, from the manifest. */
  const monthFiles = (format: 'csv.gz' | 'parquet') =>
    readBulkIndex(join(site.publish, 'data/bulk/index.json'))!
      .files.filter((f) => f.kind === 'forecast-pairs' && f.format === format)
      .map((f) => join(site.publish, f.path));

  it.skipIf(!PYTHON)(
    'recomputes every score of every city, category, lead and period from the monthly gzip CSVs, as /api/forecast-skill says',
    () => {
      const end = answers.get(CITIES[0]!)!.window.to!;
      const out = execFileSync(PYTHON!, [SCRIPT, end, ...monthFiles('csv.gz')], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const recomputed = new Map(Object.entries(JSON.parse(out) as Record<string, Recomputed>));
      const seen = new Set<string>();
      const compared = { forecast: 0, persistence: 0, climatology: 0, outlook: 0, side: 0 };
      for (const [city, skill] of answers) {
        expect(skill.window.to).toBe(end);
        expect(skill.categories.map((c) => c.category)).toEqual(['tree', 'grass', 'weed', 'ragweed']);
        for (const c of skill.categories) {
          expect(c.leads.map((l) => l.lead)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
          for (const l of c.leads) {
            const periods: Array<[string, SkillScores]> = [
              ['window', l.window],
              ['window_in_season', l.window_in_season],
              ...l.years.map((y): [string, SkillScores] => [String(y.year), y]),
            ];
            for (const [period, served] of periods) {
              const key = `${city}|${c.category}|${l.lead}|${period}`;
              const theirs = recomputed.get(key);
              // A window without a day in season holds no row to recompute: the answer has no days either.
              if (!theirs && period === 'window_in_season') {
                expect(served.days + served.outlook.days, key).toBe(0);
                continue;
              }
              expect(theirs, `${key} in the pairs files`).toBeDefined();
              seen.add(key);
              expect(served.days, `${key} days`).toBe(theirs!.days);
              compared.forecast += agree(`${key} forecast`, served.forecast, theirs!.forecast);
              compared.persistence += agree(`${key} persistence`, served.persistence, theirs!.persistence);
              compared.climatology += agree(`${key} climatology`, served.climatology, theirs!.climatology);
              compared.outlook += agreeProbabilistic(`${key} outlook`, served.outlook, theirs!.outlook);
              agreeProbabilistic(`${key} served`, served.served, theirs!.served);
              // Side by side: the one provider's forecast on the days every compared forecast shares.
              const side = served.side_by_side;
              expect(side.days, `${key} side by side days`).toBe(theirs!.side_by_side.days);
              expect(side.providers.map((p) => p.provider)).toEqual(Object.keys(theirs!.side_by_side.providers));
              for (const p of side.providers)
                compared.side += agree(`${key} side by side ${p.provider}`, p.forecast, theirs!.side_by_side.providers[p.provider]!);
              agree(`${key} side by side persistence`, side.persistence, theirs!.side_by_side.persistence);
              agree(`${key} side by side climatology`, side.climatology, theirs!.side_by_side.climatology);
            }
          }
        }
      }
      // Every period the files hold is one an answer scores, and the sample gives real scores to compare.
      expect([...recomputed.keys()].filter((k) => !seen.has(k))).toEqual([]);
      expect(compared.forecast).toBeGreaterThan(100);
      expect(compared.persistence).toBeGreaterThan(100);
      // Climatology's tables are scored less often: a score of levels needs 5 days at every observed level.
      expect(compared.climatology).toBeGreaterThan(30);
      expect(compared.outlook).toBeGreaterThan(50);
      expect(compared.side).toBeGreaterThan(100);
    },
    120_000,
  );

  it("holds the same rows in each month's Parquet as in its gzip CSV (DuckDB reads both)", async () => {
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      // The CSV's timestamps read as text; cast both sides to one type per column.
      const cols = `city, category, date::DATE, provider, season_year, observed_value, observed_level, climatology_value, climatology_level, climatology_rps,
        ${[0, 1, 2].map((l) => `forecast_sample_value_${l}, forecast_sample_level_${l}, epoch_ms(forecast_sample_issued_${l}::TIMESTAMPTZ), persistence_value_${l}, persistence_level_${l}`).join(', ')},
        ${Array.from({ length: 8 }, (_, l) => `outlook_rps_${l}, served_${l}, in_season_${l}::BOOLEAN`).join(', ')}`;
      const count = async (sql: string) => Number((await (await db.run(sql)).getRows())[0]![0]);
      const months = readBulkIndex(join(site.publish, 'data/bulk/index.json'))!
        .files.filter((f) => f.kind === 'forecast-pairs' && f.format === 'parquet')
        .map((f) => f.month!);
      expect(months.length).toBeGreaterThan(12);
      let total = 0;
      for (const month of months) {
        const [parquet, csv] = [pairsPath(month, 'parquet'), pairsPath(month, 'csv.gz')].map((p) =>
          join(site.publish, p).replaceAll("'", "''"),
        );
        const rows = await count(`SELECT count(*) FROM read_parquet('${parquet}')`);
        expect(await count(`SELECT count(*) FROM read_csv('${csv}', header = true)`), month).toBe(rows);
        const differ = `SELECT count(*) FROM (SELECT ${cols} FROM read_parquet('${parquet}') EXCEPT SELECT ${cols} FROM read_csv('${csv}', header = true))`;
        expect(await count(differ), month).toBe(0);
        // A month holds its own days only.
        expect(await count(`SELECT count(*) FROM read_parquet('${parquet}') WHERE strftime(date, '%Y-%m') <> '${month}'`), month).toBe(0);
        total += rows;
      }
      expect(total).toBeGreaterThan(2 * 4 * 365);
    } finally {
      db.closeSync();
    }
  });
});
