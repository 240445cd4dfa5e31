/**
 * Each provider's forecast scored side by side: a sample store whose forecasts were kept (48
 * hours: leads 0 to 2), with a daily provider's forecasts kept beside them for its last 60 issue
 * days (14 dates each, `hours: 0`: leads 0 to 13), each saying what was then observed, and a
 * third provider's single forecast. Every provider's forecast is compared on every observed day,
 * on the days the compared ones share (DuckDB counts them again from the pairs files), to the
 * furthest lead kept; a provider beyond its reach, or with too few days, says why.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBulkIndex } from '../../src/deploy-data/bulk-index.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayString, HOUR_MS } from '../../src/domain/dates.js';
import type { ForecastSkill, SkillScores } from '../../src/domain/verification/skill-schemas.js';
import { type KeptDay, levelsOf } from '../../src/domain/verification/target-days.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { useSite } from '../helpers/site.js';

const CITY = 'austin';
const SPAN = { from: dayNumber('2025-01-01'), to: dayNumber('2025-04-10') };
const DAILY = 'atmospore';
/** The daily provider's issue days: its last 60, each at noon UTC (the same date in Austin). */
const DAILY_FROM = SPAN.to - 59;
const FEW = 'ambee';

describe("each provider's forecast scored side by side", () => {
  const site = useSite({
    cities: [CITY],
    span: SPAN,
    prepare: async (store) => {
      const city = DEFAULT_CITIES.get(CITY)!;
      await keepForecasts({ store, providers: [new SampleProvider()], cities: [city], now: (SPAN.to + 1) * DAY_MS, serveDays: 730 });
      const observed = store.values.span(CITY, 'UTC', SPAN.from, SPAN.to);
      const said = (day: number) => levelsOf(observed.get(day)!);
      for (let issue = DAILY_FROM; issue <= SPAN.to; issue++) {
        const issuedAt = issue * DAY_MS + 12 * HOUR_MS;
        // Its 14 dates, as far as the observed days go: each the level then observed (a perfect forecast).
        const days: KeptDay[] = [];
        for (let lead = 0; lead < 14 && issue + lead <= SPAN.to; lead++)
          days.push({ day: issue + lead, lead, issuedAt, hours: 0, levels: said(issue + lead) });
        expect(store.issued.keep(CITY, { issuedAt, source: DAILY, origin: 'build', days })).toBe(true);
      }
      const once = (SPAN.to - 3) * DAY_MS + 6 * HOUR_MS;
      const two = [1, 2].map((lead) => ({ day: SPAN.to - 3 + lead, lead, issuedAt: once, hours: 24, levels: said(SPAN.to - 3 + lead) }));
      expect(store.issued.keep(CITY, { issuedAt: once, source: FEW, origin: 'build', days: two })).toBe(true);
    },
  });
  let skill: ForecastSkill;
  const at = (category: string, lead: number): SkillScores =>
    skill.categories.find((c) => c.category === category)!.leads.find((l) => l.lead === lead)!.window;

  beforeAll(async () => {
    const res = await site.get(`/api/forecast-skill?city=${CITY}`);
    expect(res.status).toBe(200);
    skill = (await res.json()) as ForecastSkill;
  }, 120_000);

  /** Counts of the pairs files' rows, by DuckDB from the Parquet files the manifest lists. */
  async function count(where: string): Promise<number> {
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      const files = readBulkIndex(join(site.publish, 'data/bulk/index.json'))!
        .files.filter((f) => f.kind === 'forecast-pairs' && f.format === 'parquet')
        .map((f) => `'${join(site.publish, f.path).replaceAll("'", "''")}'`);
      const rows = await (
        await db.run(`SELECT count(*)::INTEGER AS n FROM read_parquet([${files.join(', ')}]) WHERE ${where}`)
      ).getRowObjectsJson();
      return rows[0]!.n as number;
    } finally {
      db.closeSync();
    }
  }

  it('scores every provider with enough days on the days they share, beside persistence on the same days', async () => {
    for (const category of ['tree', 'grass']) {
      const w = at(category, 1);
      const side = w.side_by_side;
      expect(side.providers.map((p) => p.provider)).toEqual(['sample', DAILY, FEW]);
      const [sample, daily, few] = side.providers;
      // The days both have a forecast for at lead 1 in the window, with a persistence (the store's first year: no climatology).
      expect(side.left_out.climatology).toBeDefined();
      const window = `category = '${category}' AND date BETWEEN '${skill.window.from}' AND '${skill.window.to}'`;
      const shared = await count(
        `${window} AND forecast_sample_level_1 IS NOT NULL AND forecast_${DAILY}_level_1 IS NOT NULL AND persistence_level_1 IS NOT NULL`,
      );
      expect(shared).toBeGreaterThanOrEqual(50);
      expect(side.days).toBe(shared);
      const sum = (t: { table: number[][] } | null) => t!.table.flat().reduce((a, b) => a + b, 0);
      expect([sum(sample!.forecast), sum(daily!.forecast), sum(side.persistence)]).toEqual([shared, shared, shared]);
      // Each provider's own days at the lead, whoever wrote the observed day.
      expect(sample!.days).toBe(await count(`${window} AND forecast_sample_level_1 IS NOT NULL`));
      expect(daily!.days).toBe(await count(`${window} AND forecast_${DAILY}_level_1 IS NOT NULL`));
      // The daily provider's forecast is the level observed: every day on the table's diagonal.
      const table = daily!.forecast!.table;
      expect(table.flatMap((row, f) => row.filter((_, o) => o !== f)).every((n) => n === 0)).toBe(true);
      // The sample's forecast compared side by side is scored on fewer days than alone, so differs from `forecast`.
      expect(w.days).toBeGreaterThan(side.days);
      expect(sample!.reason).toBe(side.reason);
      // A provider with a forecast on too few days is named, and says why, without cutting the shared days.
      expect(few).toMatchObject({ provider: FEW, days: 1, forecast: null });
      expect(few!.reason).toBe('a forecast at this lead on only 1 of the days: fewer than min_pairs');
    }
  });

  it('goes to the furthest lead kept, saying at each lead a provider does not reach that it does not', async () => {
    const grass = skill.categories.find((c) => c.category === 'grass')!;
    expect(grass.leads.map((l) => l.lead)).toEqual(Array.from({ length: 14 }, (_, lead) => lead));
    for (const lead of [5, 13]) {
      const side = at('grass', lead).side_by_side;
      const [sample, daily, few] = side.providers;
      expect(sample).toMatchObject({ provider: 'sample', days: 0, forecast: null });
      expect(sample!.reason).toBe(`its kept forecasts reach lead 2: none reaches lead ${lead}`);
      expect(few!.reason).toBe(`its kept forecasts reach lead 2: none reaches lead ${lead}`);
      expect(daily!.forecast).not.toBeNull();
      const window = `category = 'grass' AND date BETWEEN '${skill.window.from}' AND '${skill.window.to}'`;
      expect(side.days).toBe(
        await count(`${window} AND forecast_${DAILY}_level_${lead} IS NOT NULL AND persistence_level_${lead} IS NOT NULL`),
      );
      expect(side.days).toBeGreaterThanOrEqual(30);
    }
    // The outlook reaches lead 7: beyond it, it says so.
    expect(at('grass', 10).outlook).toMatchObject({
      days: 0,
      rpss: null,
      reason: "the outlook reaches lead 7: beyond it, only the providers' forecasts are scored",
    });
    const res = await site.get(`/api/forecast-skill?city=${CITY}&category=grass&lead=13`);
    expect(res.status).toBe(200);
    const one = (await res.json()) as ForecastSkill;
    expect(one.categories[0]!.leads.map((l) => l.lead)).toEqual([13]);
    expect((await site.get(`/api/forecast-skill?city=${CITY}&lead=14`)).status).toBe(400);
  });

  it("carries each provider's forecast in the pairs files as far as its kept forecasts reach", async () => {
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      const file = readBulkIndex(join(site.publish, 'data/bulk/index.json'))!.files.find(
        (f) => f.kind === 'forecast-pairs' && f.format === 'parquet' && f.month === dayString(SPAN.to).slice(0, 7),
      )!;
      const described = await (
        await db.run(
          `SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet('${join(site.publish, file.path).replaceAll("'", "''")}'))`,
        )
      ).getRowObjectsJson();
      const names = described.map((r) => r.column_name as string);
      const leadsOf = (prefix: string) => names.filter((n) => n.startsWith(prefix)).length;
      expect([leadsOf('forecast_sample_level_'), leadsOf(`forecast_${DAILY}_level_`), leadsOf(`forecast_${FEW}_level_`)]).toEqual([
        3, 14, 3,
      ]);
      expect([leadsOf('persistence_level_'), leadsOf('in_season_'), leadsOf('outlook_rps_')]).toEqual([14, 14, 8]);
    } finally {
      db.closeSync();
    }
  });
});
