/**
 * The render cache: a render that reuses the previous build's files where their inputs are
 * unchanged writes the same tree, byte for byte, as a render from nothing of the same store.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readShardManifest, shardManifestPath } from '../../src/deploy-data/shard-folder.js';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { cacheKeyOf, signatureOf } from '../../src/render/cache/key.js';
import { type RenderSummary, render } from '../../src/render/render.js';
import { openStore, type Store } from '../../src/store/store.js';
import { expectSameTree } from '../helpers/renders.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'honolulu', 'scranton'];
// Two months of bulk files. The units reused or rendered: 12 dates, and each of the built-in
// cities (the store serves them all; three have data).
const SPAN = { from: dayNumber('2025-03-28'), to: dayNumber('2025-04-08') };
const NEXT_DAY = SPAN.to + 1;
const REFRESHED = dayNumber('2025-04-05');

/** Austin's hours of a day replaced by higher counts, as a provider's correction would. */
function refreshAustin(store: Store, day: number): void {
  const hours = Array.from({ length: 24 }, (_, h) => ({
    hour: day * 24 + h,
    tree: 90 + h,
    grass: 4,
    weed: 1,
    total: 95 + h,
    species: null,
  }));
  store.writeCityDay({
    city: 'austin',
    day,
    pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: Date.UTC(2025, 3, 9), hours },
  });
}

describe('the render cache', () => {
  it('reuses what is unchanged and renders the rest, byte-identical to a render from nothing', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const cache = join(dir, 'cache');
    const renderTo = async (name: string, cacheDir = cache): Promise<RenderSummary> => {
      const store = openStore(db, { readonly: true });
      try {
        return await render(store, join(dir, name), { cacheDir });
      } finally {
        store.close();
      }
    };

    const shardNames = () => Object.keys(readShardManifest(shardManifestPath(db))!.shards);
    const cities = DEFAULT_CITIES.list.length;
    const first = await renderTo('first');
    expect([first.units, first.unitsReused, first.bulkMonths, first.bulkReused]).toEqual([cities + 12, 0, 2, 0]);
    expect(first.made).toBe(first.files);
    expect([first.shards.reused, first.shards.written]).toEqual([0, first.shards.names]);
    const again = await renderTo('again');
    expect([again.unitsReused, again.bulkReused]).toEqual([cities + 12, 2]);
    // Every quarter's and day's shards taken as they were; the skills and the index made again, the same bytes.
    const remade = shardNames().filter((n) => n === 'index' || n.startsWith('skill/')).length;
    expect([again.shards.reused, again.shards.written]).toEqual([again.shards.names - remade, 0]);
    // Written anew: only the files made once, the site's, _redirects and the bulk manifest.
    expect(again.made).toBeLessThan(20);
    expectSameTree(join(dir, 'first'), join(dir, 'again'));

    // A new day, a day the provider corrected, and a published file edited in place (the cache
    // holds hard links to it) of a date that would otherwise be reused.
    const store = openStore(db);
    const sample = new SampleProvider();
    await ingest({
      store,
      pollen: sample,
      weather: sample,
      cities: CITIES.map((c) => DEFAULT_CITIES.get(c)!),
      span: { from: NEXT_DAY, to: NEXT_DAY },
    });
    refreshAustin(store, REFRESHED);
    store.close();
    const edited = join(dir, 'again', 'data/pollen/by-date/2025-03-30.json');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('"austin"', '"AUSTIN"'));

    const next = await renderTo('next');
    const nextShards = readFileSync(shardManifestPath(db), 'utf8');
    const fresh = await renderTo('fresh', join(dir, 'empty-cache'));
    expect(fresh.unitsReused).toBe(0);
    expectSameTree(join(dir, 'fresh'), join(dir, 'next'));
    // The shards: March's quarter and the days the new day and the correction leave alone taken as they were, the
    // rest made again, and the same manifest, key for key, as a render from nothing.
    expect(fresh.shards.reused).toBe(0);
    expect(next.shards.reused).toBeGreaterThan(0);
    expect(next.shards.reused).toBeLessThan(next.shards.names - remade);
    expect(readFileSync(shardManifestPath(db), 'utf8')).toBe(nextShards);
    // Reused: the cities without data, and the dates before the correction's local days and its
    // maps' series (03-28..04-03) but the edited one. Rendered: the three cities (a new day in
    // each list), 04-04..04-09, and April's bulk files.
    expect([next.units, next.unitsReused, next.bulkMonths, next.bulkReused]).toEqual([cities + 13, cities - 3 + 6, 2, 1]);
  }, 120_000);

  it('renders everything again from a cache whose files were made by other code', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const store = openStore(db, { readonly: true });
    const cache = join(dir, 'cache');
    await render(store, join(dir, 'a'), { cacheDir: cache });
    // Signed with the build's own key: a state a render of other code wrote.
    const state = JSON.parse(JSON.parse(readFileSync(join(cache, 'state.json'), 'utf8')).state);
    const text = JSON.stringify({ ...state, code: 'another version' });
    writeFileSync(join(cache, 'state.json'), JSON.stringify({ signature: signatureOf(cacheKeyOf(db), text), state: text }));
    const b = await render(store, join(dir, 'b'), { cacheDir: cache });
    store.close();
    expect([b.unitsReused, b.bulkReused]).toEqual([0, 0]);
    expectSameTree(join(dir, 'a'), join(dir, 'b'));
  }, 120_000);
});
