/**
 * The render's output held to a recorded digest: a full render of a fixed sample store, and the
 * daily render that follows its next day, write the same bytes as the render recorded in
 * render-golden.json did. A change to how the render is organised (its steps, its cache) must
 * leave every file as it was; a change meant to alter what is served records the new digests with
 * `RENDER_GOLDEN=write npx vitest run test/render/render-golden.test.ts`, and the diff of the JSON
 * names the folders it changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardManifestPath } from '../../src/deploy-data/shard-folder.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { keepForecasts } from '../../src/ingest/keep-forecasts.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { listFiles } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { dayAfter, setClock } from '../helpers/clock.js';
import { renderTo } from '../helpers/renders.js';
import { tempDir } from '../helpers/tmp.js';

const GOLDEN = join(import.meta.dirname, 'render-golden.json');
const CITIES = ['austin', 'honolulu', 'scranton', 'wichita'];
const SPAN = { from: dayNumber('2025-02-20'), to: dayNumber('2025-04-08') };
const sample = new SampleProvider();

/** A tree's files, counted and digested by their folder (two levels deep), and the shards' manifest. */
interface TreeDigest {
  files: number;
  folders: Record<string, string>;
  shards: string;
}

function treeDigest(folder: string, db: string): TreeDigest {
  const files = listFiles(folder).sort();
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  for (const file of files) {
    const key = file.split('/').slice(0, 2).join('/');
    const hash = hashes.get(key) ?? createHash('sha256');
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(folder, file)))
      .update('\0');
    hashes.set(key, hash);
  }
  const folders = Object.fromEntries([...hashes].map(([key, hash]) => [key, hash.digest('hex').slice(0, 16)]));
  const shards = createHash('sha256')
    .update(readFileSync(shardManifestPath(db)))
    .digest('hex')
    .slice(0, 16);
  return { files: files.length, folders, shards };
}

describe('the render against its recorded output', () => {
  it('writes, from a full render and then a daily one, the files recorded', async () => {
    const dir = tempDir();
    const now = dayAfter(SPAN.to);
    const restore = setClock(now);
    try {
      const db = join(dir, 'pollen.db');
      const cities = CITIES.map((slug) => DEFAULT_CITIES.get(slug)!);
      // Each ingest's fetch time is in the weather rows and the bulk files: taken from the fixed clock too.
      const ingestDays = async (span: { from: number; to: number }, at: number) => {
        const store = openStore(db);
        await ingest({ store, pollen: sample, weather: sample, cities, span, now: () => at });
        store.close();
      };
      await ingestDays(SPAN, now);
      const keep = async (at: number) => {
        const store = openStore(db);
        await keepForecasts({ store, providers: [sample], cities, now: at, serveDays: 730 });
        store.close();
      };
      await keep(now);
      const cache = join(dir, 'cache');
      await renderTo(db, join(dir, 'full'), { cacheDir: cache });
      const full = treeDigest(join(dir, 'full'), db);

      await ingestDays({ from: SPAN.to + 1, to: SPAN.to + 1 }, now + 86_400_000);
      await keep(now + 86_400_000);
      const daily = await renderTo(db, join(dir, 'daily'), { cacheDir: cache });
      expect(daily.unitsReused).toBeGreaterThan(0);
      const actual = { full, daily: treeDigest(join(dir, 'daily'), db) };
      if (process.env.RENDER_GOLDEN === 'write') writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
      expect(actual).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
    } finally {
      restore();
    }
  }, 240_000);
});
