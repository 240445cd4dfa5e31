/**
 * The forecast-skill step shared by threads (scoring-threads.ts, city-turns.ts): whichever thread
 * scores a city, the writing thread writes every city in the cities' order, so the pairs files,
 * the outlooks and the served store's skills are the same as from one thread; and a failure in a
 * helper fails the step, naming the city, instead of leaving the writer waiting.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { DAY_MS, dayNumber } from '../../src/domain/dates.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { failureReply, RenderError, replyError } from '../../src/output/render-error.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { codeDigest } from '../../src/render/cache/cache-files.js';
import { writeServedStore } from '../../src/render/served-store.js';
import { threadCode } from '../../src/render/threads/thread-code.js';
import { CityTurns } from '../../src/scoring/city-turns.js';
import { computeSkills, type SkillOutput, scoreForWriter } from '../../src/scoring/score-cities.js';
import { planSkills, type SkillsPlan } from '../../src/scoring/scoring-plan.js';
import { computeSkillsInThreads } from '../../src/scoring/scoring-threads.js';
import { openStore, type Store } from '../../src/store/store.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'chicago', 'honolulu', 'scranton', 'seattle', 'wichita', 'tulsa'];
/** More than a year: outlooks with an earlier year to score against, and a season year of each category. */
const SPAN = { from: dayNumber('2024-03-01'), to: dayNumber('2025-04-10') };

/** A run of the step: its served store, the render's folder it writes the pairs files into, and its plan (no render cache). */
interface Run {
  served: string;
  folder: string;
  plan: SkillsPlan;
}

/** What the step wrote: the pairs files' bytes, the outlooks as the outlook file writes them, each city's skill in the served store, and its closed years' digests. */
function written(output: SkillOutput, run: Run): { files: Buffer[]; outlooks: string; skills: unknown[]; years: Record<string, string> } {
  const db = new Database(run.served, { readonly: true });
  try {
    return {
      files: output.files.map((f) => readFileSync(join(run.folder, f.path))),
      years: output.years,
      outlooks: JSON.stringify(output.outlooks),
      skills: db.prepare('SELECT city_id, skill FROM forecast_skill ORDER BY city_id').raw().all(),
    };
  } finally {
    db.close();
  }
}

/** The same pairs files, outlooks and skills, byte for byte. */
function expectSame(got: ReturnType<typeof written>, expected: ReturnType<typeof written>): void {
  expect(got.outlooks).toBe(expected.outlooks);
  expect(got.years).toEqual(expected.years);
  expect(got.skills).toEqual(expected.skills);
  expect(got.files.length).toBe(expected.files.length);
  expect(got.files.map((f, i) => f.equals(expected.files[i]!))).toEqual(expected.files.map(() => true));
}

/** Turns handed out in a given order, in one thread: a test's stand-in for threads that race. */
class ScriptedTurns extends CityTurns {
  constructor(private readonly order: number[]) {
    super(CityTurns.memory());
  }

  override take(): number {
    return this.order.shift()!;
  }
}

describe('the forecast-skill step in threads', () => {
  let dir: string;
  let db: string;
  let served: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pollen-skills-'));
    db = await buildStore(dir, CITIES, SPAN);
    const store = openStore(db);
    const cities = CITIES.map((slug) => DEFAULT_CITIES.get(slug)!);
    await keepForecasts({ store, providers: [new SampleProvider()], cities, now: (SPAN.to + 1) * DAY_MS, serveDays: 730 });
    served = join(dir, 'served.db');
    writeServedStore(store, served, 730);
    store.close();
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the served store for one run of the step to write into, a folder for its files, and its plan. */
  function runOf(store: Store): Run {
    const at = tempDir();
    const copy = join(at, 'served.db');
    copyFileSync(served, copy);
    const folder = join(at, 'render');
    mkdirSync(folder);
    const s = openStore(copy, { readonly: true });
    try {
      return { served: copy, folder, plan: planSkills(store, s, folder, undefined, join(at, 'years')).plan };
    } finally {
      s.close();
    }
  }

  it('writes the same files, outlooks and skills from three threads as from one', async () => {
    const store = openStore(db, { readonly: true });
    const [one, three] = [runOf(store), runOf(store)];
    try {
      const alone = await computeSkills(store, one.served, one.folder, one.plan);
      const shared = await computeSkillsInThreads(
        { storePath: db, servedPath: three.served, folder: three.folder, plan: three.plan },
        () => threadCode(codeDigest()).start('scoring-worker'),
        3,
      );
      const expected = written(alone, one);
      // Every city of the set, the seven with days among them.
      const slugs = DEFAULT_CITIES.list.map((c) => c.slug).sort();
      expect(Object.keys(alone.outlooks.cities)).toEqual(slugs);
      expect(expected.skills).toHaveLength(slugs.length);
      for (const city of CITIES) expect(alone.outlooks.cities[city]?.tree?.days).toHaveLength(8);
      // Every month in both formats; and the closed years (the 2024 tree and grass seasons) of each city with days.
      expect(alone.files).toHaveLength(one.plan.months.length * 2);
      expect(Object.keys(alone.years).sort()).toEqual([...CITIES].sort());
      expectSame(written(shared, three), expected);
    } finally {
      store.close();
    }
  }, 300_000);

  it('writes the cities in their order whatever order they are handed in', async () => {
    const store = openStore(db, { readonly: true });
    const [one, handed] = [runOf(store), runOf(store)];
    try {
      const alone = await computeSkills(store, one.served, one.folder, one.plan);
      // In this thread: the helper first, given every city but the first, last to second; then the
      // writer, given the first. A writer that wrote cities as they came would write them backwards.
      const count = Object.keys(alone.outlooks.cities).length;
      const turns = new ScriptedTurns([...Array.from({ length: count - 1 }, (_, i) => count - 1 - i), count, 0, count]);
      const { port1, port2 } = new MessageChannel();
      scoreForWriter(store, handed.served, handed.plan, turns, port2);
      const merged = await computeSkills(store, handed.served, handed.folder, handed.plan, turns, [port1]);
      port1.close();
      expectSame(written(merged, handed), written(alone, one));
    } finally {
      store.close();
    }
  }, 120_000);

  it("fails with a helper's failure, naming the city, instead of waiting for the city", async () => {
    const store = openStore(db, { readonly: true });
    const run = runOf(store);
    const path = run.served;
    const raw = new Database(path);
    raw.prepare("UPDATE species_shape SET keys = 'not json'").run();
    raw.close();
    try {
      // In this thread, the helper first: it takes every city, fails on the first and hands its failure over.
      const turns = new CityTurns(CityTurns.memory());
      const { port1, port2 } = new MessageChannel();
      scoreForWriter(store, path, run.plan, turns, port2);
      await expect(computeSkills(store, path, run.folder, run.plan, turns, [port1])).rejects.toThrow(
        /^the forecast skill of austin could not be computed: .*Nothing was published\.$/,
      );
      port1.close();
      // In threads, whichever takes it.
      await expect(
        computeSkillsInThreads(
          { storePath: db, servedPath: path, folder: run.folder, plan: run.plan },
          () => threadCode(codeDigest()).start('scoring-worker'),
          2,
        ),
      ).rejects.toThrow(/^the forecast skill of [a-z]+ could not be computed: .*Nothing was published\.$/);
    } finally {
      store.close();
    }
  }, 120_000);

  it('passes a failure on as it came, from the helper through the writing thread', () => {
    for (const error of [new Error('boom'), new RenderError('the forecast skill of x could not be computed')]) {
      const first = failureReply(error);
      expect(failureReply(replyError(first))).toEqual(first);
    }
  });
});
