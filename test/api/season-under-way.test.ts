/**
 * /api/season on what `npm start` holds in late November: two sample years (730 days) of Austin to
 * 24 November 2026. Each category answers its own year under way, says where its season stands,
 * and is compared with the previous complete year; a year no category holds is a 404 listing those
 * that are.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { expectMatchesOpenApi } from '../helpers/openapi.js';
import { useSite } from '../helpers/site.js';

type Json = Record<string, any>;
const site = useSite({ cities: ['austin'], span: { from: dayNumber('2024-11-25'), to: dayNumber('2026-11-24') } });

async function getJson(pathAndQuery: string): Promise<{ status: number; body: Json }> {
  const res = await site.get(pathAndQuery);
  const body = (await res.json()) as Json;
  expectMatchesOpenApi('/api/season', res.status, body);
  return { status: res.status, body };
}
const byCategory = (body: Json) => Object.fromEntries((body.categories as Json[]).map((c) => [c.category, c]));

describe('GET /api/season in late November', () => {
  it('answers the tree year from 1 October, not started, and grass and ragweed ended, each against the previous complete year', async () => {
    const { status, body } = await getJson('/api/season?city=austin');
    expect([status, body.year]).toEqual([200, 2026]);
    const c = byCategory(body);
    expect(c.tree).toMatchObject({
      year: 2027,
      from: '2026-10-01',
      to: '2027-09-30',
      closed: false,
      complete: false,
      basis: 'earlier years',
    });
    expect(c.tree.status).toMatchObject({ state: 'not started', start: null, end: null, provisional: true });
    expect(c.tree.comparison.years.map((y: Json) => y.year)).toEqual([2026]);
    for (const name of ['grass', 'ragweed']) {
      expect(c[name]).toMatchObject({ year: 2026, closed: false, complete: false });
      expect(c[name].status).toMatchObject({ state: 'ended', provisional: true });
      expect(c[name].status.end < '2026-11-17').toBe(true); // a whole window of 7 days before the latest day
      expect(c[name].season.end).toBe(c[name].status.end);
      expect(c[name].comparison).toMatchObject({
        earlier_years: 1,
        note: 'One earlier year (2025): a comparison with that year, not with a normal.',
      });
      expect(c[name].comparison.years.map((y: Json) => y.year)).toEqual([2025]);
    }
  });

  it("lists each category's own years: the tree year under way is held, an empty one is not", async () => {
    const { body } = await getJson('/api/season?city=austin&category=tree');
    // Tree: 2025 (from 25 November 2024, so over with gaps), 2026 (whole) and 2027 (under way).
    expect((body.years as Json[]).map((y) => [y.year, y.closed, y.complete])).toEqual([
      [2025, true, false],
      [2026, true, true],
      [2027, false, false],
    ]);
    const grass = await getJson('/api/season?city=austin&category=grass');
    expect((grass.body.years as Json[]).map((y) => y.year)).toEqual([2024, 2025, 2026]);
    // A year over with gaps is measured on the days it holds, and says so.
    const gaps = byCategory((await getJson('/api/season?city=austin&year=2025&category=tree')).body).tree;
    expect(gaps).toMatchObject({ closed: true, complete: false, basis: 'days held' });
    expect(gaps.days_with_data).toBeGreaterThan(300); // of the 310 from 25 November 2024; 365 would be complete
    expect(gaps.days_with_data).toBeLessThanOrEqual(310);
    expect(gaps.season.end).not.toBeNull();
  });

  it('answers a year only with the categories that hold it, and 404 with the years held for one none does', async () => {
    const { body } = await getJson('/api/season?city=austin&year=2027');
    expect((body.categories as Json[]).every((c) => c.category === 'tree' || c.category.startsWith('tree_'))).toBe(true);
    expect(byCategory(body).tree.year).toBe(2027);
    expect(await getJson('/api/season?city=austin&year=2028')).toEqual({
      status: 404,
      body: {
        error: 'No daily values for austin in 2028; the years held are 2024, 2025, 2026, 2027 (listed in years).',
        code: 'YEAR_NOT_HELD',
        city: 'austin',
        years: [2024, 2025, 2026, 2027],
      },
    });
    expect((await getJson('/api/season?city=austin&year=2027&category=grass')).body.years).toEqual([2024, 2025, 2026]);
  });
});
