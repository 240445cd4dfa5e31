/**
 * The forecast skill of a store some of whose days another provider replaced: a sample store whose
 * forecasts and outlooks were kept, then ten of its days written again under another provider's
 * label (as `ingest --replace-provider-days` leaves them), and one forecast of that provider kept.
 * Each pairs row names its day's provider (DuckDB reads the Parquet) and holds each provider's
 * forecast in its own columns; a day's `forecast` is its own provider's only, and the answer says
 * which providers its days come from, per score.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBulkIndex } from '../../src/deploy-data/bulk-index.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayString, HOUR_MS } from '../../src/domain/dates.js';
import type { ForecastSkill } from '../../src/domain/verification/skill-schemas.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { useSite } from '../helpers/site.js';

const CITY = 'austin';
const SPAN = { from: dayNumber('2025-01-01'), to: dayNumber('2025-04-10') };
/** The days the other provider wrote again. */
const REPLACED = { from: dayNumber('2025-03-01'), to: dayNumber('2025-03-10') };
const OTHER = 'ambee';
/** The other provider's one forecast: issued on 4 March, reaching 5 March whole (lead 1). */
const OTHER_ISSUED = dayNumber('2025-03-04') * DAY_MS + 6.5 * HOUR_MS + 60_000;

describe('the forecast skill over days of two providers', () => {
  const site = useSite({
    cities: [CITY],
    span: SPAN,
    prepare: async (store) => {
      const city = DEFAULT_CITIES.get(CITY)!;
      // The sample's forecasts and outlooks of every day, kept before the days were replaced.
      await keepForecasts({ store, providers: [new SampleProvider()], cities: [city], now: (SPAN.to + 1) * DAY_MS, serveDays: 730 });
      for (let day = REPLACED.from; day <= REPLACED.to; day++) {
        const hours = store.pollen.hours(CITY, day * 24, (day + 1) * 24).map(({ source: _, timezone: __, ...h }) => h);
        store.writeCityDay({
          city: CITY,
          day,
          pollen: {
            source: OTHER,
            timezone: city.timezone,
            fetchedAt: (SPAN.to + 1) * DAY_MS,
            hours,
            asked: { from: day * 24, to: (day + 1) * 24 },
          },
        });
      }
      // The other provider's forecast says what the sample's of the same morning said.
      const sampleOne = store.issued.since(CITY, OTHER_ISSUED - HOUR_MS).find((f) => f.source === 'sample')!;
      const days = sampleOne.days.filter((d) => d.lead === 1).map((d) => ({ ...d, issuedAt: OTHER_ISSUED }));
      expect(store.issued.keep(CITY, { issuedAt: OTHER_ISSUED, source: OTHER, origin: 'build', days })).toBe(true);
    },
  });
  let skill: ForecastSkill;

  beforeAll(async () => {
    const res = await site.get(`/api/forecast-skill?city=${CITY}`);
    expect(res.status).toBe(200);
    skill = (await res.json()) as ForecastSkill;
  });

  it("names each day's provider in the pairs files, and holds each provider's forecast of a day in its own columns", async () => {
    const duck = await DuckDBInstance.create(':memory:');
    const db = await duck.connect();
    try {
      const files = readBulkIndex(join(site.publish, 'data/bulk/index.json'))!
        .files.filter((f) => f.kind === 'forecast-pairs' && f.format === 'parquet')
        .map((f) => `'${join(site.publish, f.path).replaceAll("'", "''")}'`);
      const rows = async (sql: string) => (await (await db.run(sql)).getRowObjectsJson()) as Array<Record<string, unknown>>;
      const all = `read_parquet([${files.join(', ')}])`;
      // Every category's row of a day names the day's provider.
      const byProvider = await rows(
        `SELECT provider, count(DISTINCT date)::INTEGER AS days, min(date)::VARCHAR AS first, max(date)::VARCHAR AS last FROM ${all} GROUP BY provider ORDER BY provider`,
      );
      expect(byProvider).toEqual([
        { provider: OTHER, days: 10, first: dayString(REPLACED.from), last: dayString(REPLACED.to) },
        { provider: 'sample', days: SPAN.to - SPAN.from + 1 - 10, first: dayString(SPAN.from), last: dayString(SPAN.to) },
      ]);
      // The other provider's columns hold its one forecast, at lead 1 only: it reaches no further.
      const forecasts = await rows(
        `SELECT date::VARCHAR date, category, epoch_ms(forecast_${OTHER}_issued_1)::DOUBLE AS issued FROM ${all} WHERE forecast_${OTHER}_level_0 IS NOT NULL OR forecast_${OTHER}_level_1 IS NOT NULL ORDER BY category`,
      );
      expect(forecasts.length).toBeGreaterThan(0);
      expect(new Set(forecasts.map((r) => `${r.date} ${r.issued}`))).toEqual(new Set([`2025-03-05 ${OTHER_ISSUED}`]));
      const columns = await rows(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${all}) WHERE column_name LIKE 'forecast_%'`);
      expect(columns.map((c) => c.column_name)).toEqual([
        // The observed day's own provider's, as the files have always had them.
        ...[0, 1, 2].flatMap((l) => [`forecast_value_${l}`, `forecast_level_${l}`, `forecast_issued_${l}`]),
        ...[0, 1, 2].flatMap((l) => [`forecast_sample_value_${l}`, `forecast_sample_level_${l}`, `forecast_sample_issued_${l}`]),
        ...[0, 1].flatMap((l) => [`forecast_${OTHER}_value_${l}`, `forecast_${OTHER}_level_${l}`, `forecast_${OTHER}_issued_${l}`]),
      ]);
      // The sample's forecasts of the replaced days are kept beside it, and of its own days.
      const sample = await rows(
        `SELECT provider, count(*)::INTEGER AS n FROM ${all} WHERE forecast_sample_level_1 IS NOT NULL GROUP BY provider ORDER BY provider`,
      );
      expect(sample.map((r) => r.provider)).toEqual([OTHER, 'sample']);
      expect(sample[1]!.n).toBeGreaterThan(50);
    } finally {
      db.closeSync();
    }
  });

  it("says the days come from two providers, and how many of each score's days are each one's", () => {
    expect(skill).toMatchObject({ provider: null, providers: ['sample', OTHER], simulated: true });
    expect(skill.archive.by_provider).toEqual([
      { provider: 'sample', forecasts: skill.archive.forecasts - 1 },
      { provider: OTHER, forecasts: 1 },
    ]);
    const grass = skill.categories.find((c) => c.category === 'grass')!;
    const lead1 = grass.leads[1]!.window;
    // The window (12 January to 10 April) holds the replaced days; at lead 1 the other provider's one forecast reaches one of them.
    expect(lead1.by_provider).toEqual([
      { provider: 'sample', days: lead1.days - 1 },
      { provider: OTHER, days: 1 },
    ]);
    expect(grass.leads[0]!.window.by_provider).toEqual([{ provider: 'sample', days: grass.leads[0]!.window.days }]);
    // Beyond the provider's forecast no day is compared with one.
    expect(grass.leads[5]!.window.by_provider).toEqual([]);
  });
});
