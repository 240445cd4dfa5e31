/**
 * The day values kept beside the hours agree with the hours at every moment: after ingest, after
 * a day re-asked for some of its hours, in a store upgraded from an older version, and in the
 * served copy, whose first local day lost hours with the days before it.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { type DayCut, dayHours } from '../../src/domain/day-cuts.js';
import { dayValues } from '../../src/domain/day-values.js';
import { openStore, type Store, StoreVersionError } from '../../src/store/store.js';
import { buildStore, SITE_SPAN } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

/** Every value the store keeps for a city, against a computation from its hours; and no value for a day without hours. */
function expectAgree(store: Store, slug: string, cut: DayCut, from: number, to: number): number {
  const zone = DEFAULT_CITIES.get(slug)!.timezone;
  const kept = store.values.span(slug, cut, from, to);
  let days = 0;
  for (let day = from; day <= to; day++) {
    const { from: a, to: b } = dayHours(cut, zone, day);
    const hours = store.pollen.hours(slug, a, b);
    if (hours.length === 0) expect(kept.has(day), `${slug} ${cut} ${day}`).toBe(false);
    else {
      expect(kept.get(day), `${slug} ${cut} ${day}`).toEqual(dayValues(day, hours));
      days++;
    }
  }
  return days;
}

describe('day values', () => {
  it('are the values of the hours of every UTC and local day after ingest, partial days included', async () => {
    const store = openStore(await buildStore(tempDir(), ['austin', 'honolulu'], SITE_SPAN), { readonly: true });
    for (const slug of ['austin', 'honolulu']) {
      expect(expectAgree(store, slug, 'UTC', SITE_SPAN.from - 2, SITE_SPAN.to + 2)).toBe(10);
      // The local days: the first begins in the first UTC day, the last ends in the day after the span.
      expect(expectAgree(store, slug, 'local', SITE_SPAN.from - 2, SITE_SPAN.to + 2)).toBe(11);
    }
    store.close();
  });

  it('follow a day re-asked for some of its hours, in the UTC day and in both local days it touches', async () => {
    const store = openStore(await buildStore(tempDir(), ['austin'], SITE_SPAN));
    const day = SITE_SPAN.from + 4;
    const before = store.values.on('austin', 'local', day - 1)!;
    const hours = store.pollen.hours('austin', day * 24, day * 24 + 24).map(({ timezone: _t, source: _s, ...h }) => h);
    // The provider revises the first three UTC hours, which belong to the local day before.
    const revised = hours.slice(0, 3).map((h) => ({ ...h, tree: (h.tree ?? 0) + 1000, total: h.total + 1000 }));
    store.writeCityDay({
      city: 'austin',
      day,
      pollen: { source: 'sample', timezone: 'America/Chicago', fetchedAt: 1, hours: revised, asked: { from: day * 24, to: day * 24 + 3 } },
    });
    expect(store.values.on('austin', 'local', day - 1)!.peaks.tree).toBeGreaterThanOrEqual(1000);
    expect(store.values.on('austin', 'local', day - 1)).not.toEqual(before);
    expectAgree(store, 'austin', 'UTC', day - 1, day + 1);
    expectAgree(store, 'austin', 'local', day - 2, day + 1);
    store.close();
  });

  it('are computed for a store of an earlier version when it is upgraded', () => {
    const path = join(tempDir(), 'v2.db');
    copyFileSync(new URL('../fixtures/store-v2.db', import.meta.url), path);
    const store = openStore(path);
    const day = dayNumber('2025-04-02');
    let checked = 0;
    for (const slug of ['austin', 'honolulu', 'tulsa']) {
      checked += expectAgree(store, slug, 'UTC', day - 3, day + 3);
      checked += expectAgree(store, slug, 'local', day - 3, day + 3);
    }
    expect(checked).toBeGreaterThan(0);
    store.close();
  });

  it('are made again by a writer when another version of the code made them, and refused by a reader until then', async () => {
    const path = await buildStore(tempDir(), ['austin'], SITE_SPAN);
    const raw = new Database(path);
    const kept = raw.prepare('SELECT count(*) FROM day_value').pluck().get();
    // As a store whose values an older derivation made: another version recorded, some values gone.
    raw.exec("UPDATE derived SET version = 0 WHERE name = 'day_value'; DELETE FROM day_value WHERE cut = 1");
    raw.close();
    expect(() => openStore(path, { readonly: true })).toThrow(StoreVersionError);
    expect(() => openStore(path, { readonly: true })).toThrow(/day_value made by another version of this code; run `npm run ingest` once/);
    openStore(path).close();
    const store = openStore(path, { readonly: true });
    expect(store.checks.counts().day_value).toBe(kept);
    expectAgree(store, 'austin', 'UTC', SITE_SPAN.from, SITE_SPAN.to);
    expectAgree(store, 'austin', 'local', SITE_SPAN.from - 1, SITE_SPAN.to + 1);
    store.close();
  });

  it("read the same in a store nothing writes, which keeps the last cities' whole cuts decoded", async () => {
    const path = await buildStore(tempDir(), ['austin', 'honolulu', 'chicago', 'seattle', 'denver'], SITE_SPAN);
    const plain = openStore(path, { readonly: true });
    const kept = openStore(path, { readonly: true, immutable: true });
    const [from, to] = [SITE_SPAN.from + 1, SITE_SPAN.from + 3];
    // Twice over more city-cuts (10) than it keeps (4): a span read before its cut is kept, every day, lists, then the span again.
    for (let pass = 0; pass < 2; pass++)
      for (const slug of ['austin', 'honolulu', 'chicago', 'seattle', 'denver'])
        for (const cut of ['UTC', 'local'] as const) {
          expect(kept.values.span(slug, cut, from, to)).toEqual(plain.values.span(slug, cut, from, to));
          expect(kept.values.span(slug, cut, 0, Number.MAX_SAFE_INTEGER)).toEqual(plain.values.span(slug, cut, 0, Number.MAX_SAFE_INTEGER));
          for (const limit of [0, 3, 720]) expect(kept.values.newest(slug, cut, limit)).toEqual(plain.values.newest(slug, cut, limit));
          expect(kept.values.span(slug, cut, from, to)).toEqual(plain.values.span(slug, cut, from, to));
        }
    expect(kept.values.newest('nowhere', 'UTC', 3)).toEqual([]);
    plain.close();
    kept.close();
  });

  it('leave the served copy with the days it holds: the local day before its first lost its first hours', async () => {
    const dir = tempDir();
    const store = openStore(await buildStore(dir, ['austin'], SITE_SPAN));
    const copy = join(dir, 'serve.db');
    store.copyTo(copy);
    store.close();
    const served = openStore(copy);
    served.keepServedDays(SITE_SPAN.from + 3);
    expect(served.values.newest('austin', 'local', 100).at(-1)!.day).toBe(SITE_SPAN.from + 3);
    expect(served.values.newest('austin', 'UTC', 100).at(-1)!.day).toBe(SITE_SPAN.from + 3);
    expectAgree(served, 'austin', 'UTC', SITE_SPAN.from + 3, SITE_SPAN.to);
    expectAgree(served, 'austin', 'local', SITE_SPAN.from + 3, SITE_SPAN.to + 1);
    served.close();
  });
});
