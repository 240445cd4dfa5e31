/**
 * The daily build's forecast-skill step does the day's work (scoring/scoring-plan.ts): with one more day
 * ingested and its forecasts and outlooks kept, what was issued before stays as it was, the pairs
 * files of the months before stay the render cache's (the same inodes), each city's closed season
 * years come from the cache, and what the render publishes is byte for byte what a render from
 * nothing publishes, scores and intervals included.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { servedStorePath } from '../../src/deploy-data/site-file.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber, dayString } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { listFiles, type RenderSummary, render } from '../../src/render/render.js';
import { openStore, type Store } from '../../src/store/store.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'scranton', 'seattle'];
/** Fifteen months: the 2024 season years of tree, grass, weed and ragweed closed, the 2025 ones under way. */
const SPAN = { from: dayNumber('2024-03-01'), to: dayNumber('2025-06-10') };
const NEXT_DAY = SPAN.to + 1;
const CLOSED_YEARS = 4;

const cities = () => CITIES.map((c) => DEFAULT_CITIES.get(c)!);

/** Every file of a tree and its bytes. */
function treeOf(dir: string): Map<string, Buffer> {
  return new Map(
    listFiles(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

/** The rows a table holds, in order: what the store kept as issued. */
function rows(db: string, sql: string): unknown[] {
  const raw = new Database(db, { readonly: true });
  try {
    return raw.prepare(sql).raw().all();
  } finally {
    raw.close();
  }
}

/** Austin's hours of a day replaced by higher counts, as a provider's correction would. */
function correctAustin(store: Store, day: number): void {
  const hours = Array.from({ length: 24 }, (_, h) => ({
    hour: day * 24 + h,
    tree: 900 + h,
    grass: 400,
    weed: 300,
    total: 1600 + h,
    species: null,
  }));
  store.writeCityDay({
    city: 'austin',
    day,
    pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: (day + 1) * DAY_MS, hours },
  });
}

describe("the daily render's forecast skill", () => {
  it('scores only the new day and the periods still open, publishing what a render from nothing publishes', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const provider = new SampleProvider();
    const keep = async (newest: number) => {
      const store = openStore(db);
      try {
        await keepForecasts({ store, providers: [provider], cities: cities(), now: (newest + 1) * DAY_MS, serveDays: 730 });
      } finally {
        store.close();
      }
    };
    const renderTo = async (name: string, cacheDir: string): Promise<RenderSummary> => {
      const store = openStore(db, { readonly: true });
      try {
        return await render(store, join(dir, name), { cacheDir });
      } finally {
        store.close();
      }
    };
    const cache = join(dir, 'cache');
    await keep(SPAN.to);
    const first = await renderTo('first', cache);
    const months = first.bulkMonths;
    expect(first.skillScoring).toMatchObject({ monthsReused: 0, yearsReused: 0 });
    const pairsOf = (name: string) => listFiles(join(dir, name)).filter((f) => /\/forecast-pairs-\d{4}-\d{2}\./.test(f));
    expect(pairsOf('first')).toHaveLength(months * 2);
    const inodes = new Map(pairsOf('first').map((f) => [f, statSync(join(dir, 'first', f)).ino]));
    const kept = {
      outlooks: `SELECT * FROM outlook_issued WHERE issue_day <= ${SPAN.to} ORDER BY city_id, issue_day`,
      climatologies: `SELECT * FROM climatology_issued WHERE day <= ${SPAN.to} ORDER BY city_id, day`,
      forecasts: `SELECT * FROM forecast_issued WHERE issued_at < ${NEXT_DAY * DAY_MS} ORDER BY city_id, issued_at`,
    };
    const before = Object.fromEntries(Object.entries(kept).map(([k, sql]) => [k, rows(db, sql)]));
    expect((before.outlooks as unknown[]).length).toBeGreaterThan(300 * CITIES.length);

    // The next day's build: its day ingested, its forecasts and outlooks kept.
    const store = openStore(db);
    await ingest({ store, pollen: provider, weather: provider, cities: cities(), span: { from: NEXT_DAY, to: NEXT_DAY } });
    store.close();
    await keep(NEXT_DAY);
    // What was issued before the day is kept as it was issued: nothing made again, nothing rescored.
    for (const [k, sql] of Object.entries(kept)) expect(rows(db, sql), k).toEqual(before[k]);

    const next = await renderTo('next', cache);
    const nextSkills = rows(servedStorePath(db), 'SELECT city_id, skill FROM forecast_skill ORDER BY city_id');
    // June's pairs files written anew; every earlier month's the cache's very files.
    expect(next.skillScoring).toMatchObject({ monthsReused: months - 1, yearsReused: CLOSED_YEARS * CITIES.length });
    const current = pairsOf('next').filter((f) => f.includes('2025-06'));
    expect(current).toHaveLength(2);
    for (const f of pairsOf('next')) {
      if (current.includes(f)) expect(statSync(join(dir, 'next', f)).ino, f).not.toBe(inodes.get(f));
      else expect(statSync(join(dir, 'next', f)).ino, f).toBe(inodes.get(f));
    }

    // The current month's file, written anew, holds every earlier day's pairs as they were.
    const june = current.find((f) => f.endsWith('.csv.gz'))!;
    const earlier = (name: string) => {
      const [header, ...lines] = gunzipSync(readFileSync(join(dir, name, june)))
        .toString('utf8')
        .trimEnd()
        .split('\n');
      const date = header!.split(',').indexOf('date');
      return lines.filter((line) => line.split(',')[date]! < dayString(NEXT_DAY));
    };
    const held = earlier('first');
    expect(held.length).toBeGreaterThan(CITIES.length * 4 * 9);
    expect(earlier('next')).toEqual(held);

    // A render from nothing: every file the same, and every city's scores, intervals included.
    const fresh = await renderTo('fresh', join(dir, 'no-cache'));
    expect(fresh.skillScoring).toMatchObject({ monthsReused: 0, yearsReused: 0 });
    expect(rows(servedStorePath(db), 'SELECT city_id, skill FROM forecast_skill ORDER BY city_id')).toEqual(nextSkills);
    const [a, b] = [treeOf(join(dir, 'fresh')), treeOf(join(dir, 'next'))];
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [f, bytes] of a) expect(b.get(f)!.equals(bytes), f).toBe(true);

    // A city's closed years the cache no longer vouches for are scored again, to the same scores.
    const yearsFile = join(cache, 'skills', 'austin.json.deflate');
    writeFileSync(yearsFile, Buffer.from('not what was recorded'));
    const healed = await renderTo('healed', cache);
    expect(healed.skillScoring).toMatchObject({ monthsReused: months, yearsReused: CLOSED_YEARS * (CITIES.length - 1) });
    expect(rows(servedStorePath(db), 'SELECT city_id, skill FROM forecast_skill ORDER BY city_id')).toEqual(nextSkills);
    const c = treeOf(join(dir, 'healed'));
    for (const [f, bytes] of a) expect(c.get(f)!.equals(bytes), f).toBe(true);

    // A provider's correction of a November day in Austin: November's pairs files made again, and
    // the closed years holding the day (grass, weed and ragweed 2024; tree's 2025 is under way),
    // every city's (what a year is made from is known by day, not by city); still what a render from nothing makes.
    const corrected = openStore(db);
    correctAustin(corrected, dayNumber('2024-11-15'));
    corrected.close();
    const after = await renderTo('corrected', cache);
    expect(after.skillScoring).toMatchObject({ monthsReused: months - 1, yearsReused: CITIES.length });
    const changed = pairsOf('corrected').filter((f) => statSync(join(dir, 'corrected', f)).ino !== statSync(join(dir, 'healed', f)).ino);
    expect(changed.sort()).toEqual(
      pairsOf('corrected')
        .filter((f) => f.includes('2024-11'))
        .sort(),
    );
    const correctedSkills = rows(servedStorePath(db), 'SELECT city_id, skill FROM forecast_skill ORDER BY city_id');
    expect(correctedSkills).not.toEqual(nextSkills);
    const again = await renderTo('again', join(dir, 'no-cache-again'));
    expect(rows(servedStorePath(db), 'SELECT city_id, skill FROM forecast_skill ORDER BY city_id')).toEqual(correctedSkills);
    const [d, e] = [treeOf(join(dir, 'again')), treeOf(join(dir, 'corrected'))];
    expect([...e.keys()]).toEqual([...d.keys()]);
    for (const [f, bytes] of d) expect(e.get(f)!.equals(bytes), f).toBe(true);
    expect(again.skillScoring).toMatchObject({ monthsReused: 0, yearsReused: 0 });
  }, 600_000);
});
