/**
 * A render cache that does not match what is on disk, or that was tampered with, costs time and
 * never the render: whatever store changes ingest makes and whatever happens to the cache, an
 * incremental render writes the same tree as a render from nothing, and touches nothing outside
 * its folders.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayNumber } from '../../src/domain/dates.js';
import { ingest } from '../../src/ingest/ingest.js';
import { SampleProvider } from '../../src/providers/sample/index.js';
import { codeDigest } from '../../src/render/cache/cache-files.js';
import { cacheKeyOf, signatureOf } from '../../src/render/cache/key.js';
import { openStore } from '../../src/store/store.js';
import { expectSameTree, renderTo } from '../helpers/renders.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'honolulu'];
// Two bulk months.
const SPAN = { from: dayNumber('2025-03-29'), to: dayNumber('2025-04-03') };

const statePath = (cache: string) => join(cache, 'state.json');
const readState = (cache: string) => JSON.parse(JSON.parse(readFileSync(statePath(cache), 'utf8')).state);
/** The key the renders of the store beside `cache` sign with: a damage here is one a render could have written. */
const keyOf = (cache: string) => cacheKeyOf(join(dirname(cache), 'pollen.db'));

type State = { units: Record<string, { files: string[] }>; files: Record<string, unknown> };

/** The state as the render wrote it, or undefined where an earlier damage left none (cut short, or of another shape). */
function stateOf(cache: string): State | undefined {
  let state: unknown;
  try {
    state = readState(cache);
  } catch {
    return undefined;
  }
  const { units, files } = (state ?? {}) as Partial<State>;
  const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isRecord(units) || !isRecord(files) || !Object.values(units!).every((u) => isRecord(u) && Array.isArray(u.files))) return undefined;
  return state as State;
}

/** Edits the state as a damage does; a damage on a state an earlier one already broke does nothing more. */
function editState(cache: string, edit: (state: State) => void): void {
  const state = stateOf(cache);
  if (!state) return;
  edit(state);
  writeState(cache, state);
}
function writeState(cache: string, state: unknown): void {
  const text = JSON.stringify(state);
  writeFileSync(statePath(cache), JSON.stringify({ signature: signatureOf(keyOf(cache), text), state: text }));
}

/** A store change as ingest makes them. */
type Change =
  | { kind: 'next day' }
  | { kind: 'corrected day'; city: number; day: number; bump: number }
  | { kind: 'some hours asked again'; city: number; day: number; from: number }
  | { kind: 'weather'; city: number; day: number; temp: number }
  | { kind: 'city set'; add: boolean };

/** Damage to the render cache. */
type Damage =
  | { kind: 'delete a file'; pick: number }
  | { kind: 'edit a file'; pick: number }
  | { kind: 'a unit lists one file fewer'; pick: number }
  | { kind: 'a path outside the folder'; where: 'files' | 'units' | 'manifest' }
  | { kind: 'state cut short' }
  | { kind: 'state of another shape' }
  | { kind: 'a manifest entry changed'; pick: number; field: 'inputs_sha256' | 'columns' | 'bytes' }
  | { kind: 'a file turned into a link'; pick: number }
  | { kind: 'output gone' };

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.constant({ kind: 'next day' as const }),
  fc.record({ kind: fc.constant('corrected day' as const), city: fc.nat(1), day: fc.nat(5), bump: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('some hours asked again' as const), city: fc.nat(1), day: fc.nat(5), from: fc.nat(23) }),
  fc.record({ kind: fc.constant('weather' as const), city: fc.nat(1), day: fc.nat(5), temp: fc.integer({ min: -20, max: 40 }) }),
  fc.record({ kind: fc.constant('city set' as const), add: fc.boolean() }),
);

const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('delete a file' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('edit a file' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('a unit lists one file fewer' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('a path outside the folder' as const),
    where: fc.constantFrom('files' as const, 'units' as const, 'manifest' as const),
  }),
  fc.constant({ kind: 'state cut short' as const }),
  fc.constant({ kind: 'state of another shape' as const }),
  fc.record({
    kind: fc.constant('a manifest entry changed' as const),
    pick: fc.nat(),
    field: fc.constantFrom('inputs_sha256' as const, 'columns' as const, 'bytes' as const),
  }),
  fc.record({ kind: fc.constant('a file turned into a link' as const), pick: fc.nat() }),
  fc.constant({ kind: 'output gone' as const }),
);

/** Applies a store change to the store at `db`, as ingest would write it. */
async function change(db: string, c: Change, state: { next: number; extra: boolean }): Promise<void> {
  const store = openStore(db);
  try {
    const city = CITIES[(c as { city?: number }).city ?? 0]!;
    const day = SPAN.from + ((c as { day?: number }).day ?? 0);
    switch (c.kind) {
      case 'next day': {
        const sample = new SampleProvider();
        const cities = [...CITIES, ...(state.extra ? ['scranton'] : [])].map((s) => DEFAULT_CITIES.get(s)!);
        await ingest({ store, pollen: sample, weather: sample, cities, span: { from: state.next, to: state.next } });
        state.next++;
        break;
      }
      case 'corrected day':
      case 'some hours asked again': {
        const from = c.kind === 'corrected day' ? 0 : c.from;
        const hours = Array.from({ length: 24 - from }, (_, h) => ({
          hour: day * 24 + from + h,
          tree: (c.kind === 'corrected day' ? c.bump : 7) + h,
          grass: 3,
          weed: null,
          total: (c.kind === 'corrected day' ? c.bump : 7) + h + 3,
          species: null,
        }));
        store.writeCityDay({
          city,
          day,
          pollen: {
            source: 'sample',
            timezone: DEFAULT_CITIES.get(city)!.timezone,
            fetchedAt: 1,
            hours,
            asked: { from: day * 24 + from, to: day * 24 + 24 },
          },
        });
        break;
      }
      case 'weather':
        store.writeCityDay({ city, day, weather: { source: 'sample', fetchedAt: 2, values: { temp_day_c: c.temp, humidity: 50 } } });
        break;
      case 'city set': {
        state.extra = c.add;
        const slugs = [...CITIES, ...(c.add ? ['scranton'] : [])];
        store.replaceCities(slugs.map((s) => DEFAULT_CITIES.get(s)!));
        break;
      }
    }
  } finally {
    store.close();
  }
}

/** Damages the render cache at `cache`; `victim` is a file outside it that must survive. */
function damage(cache: string, d: Damage, victim: string): void {
  const output = join(cache, 'output');
  if (!existsSync(statePath(cache))) return;
  const files = existsSync(output)
    ? readdirSync(output, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(output, join(e.parentPath, e.name)))
        .sort()
    : [];
  const pick = (n: number) => files[n % Math.max(1, files.length)];
  const outside = relative(output, victim);
  switch (d.kind) {
    case 'delete a file': {
      const f = pick(d.pick);
      if (f) rmSync(join(output, f));
      break;
    }
    case 'edit a file': {
      const f = pick(d.pick);
      if (f) appendFileSync(join(output, f), ' ');
      break;
    }
    case 'a unit lists one file fewer':
      editState(cache, (state) => {
        const units = Object.values(state.units) as Array<{ files: string[] }>;
        const unit = units[d.pick % units.length];
        if (unit && unit.files.length > 0) unit.files.pop();
      });
      break;
    case 'a path outside the folder': {
      if (d.where === 'files') editState(cache, (state) => void (state.files[outside] = Object.values(state.files)[0]));
      else if (d.where === 'units')
        editState(cache, (state) => void (Object.values(state.units)[0] as { files: string[] }).files.push(outside));
      else {
        const index = join(output, 'data/bulk/index.json');
        if (!existsSync(index)) break;
        const manifest = JSON.parse(readFileSync(index, 'utf8'));
        if (manifest.files.length > 0) manifest.files[0].path = `/${outside}`;
        writeFileSync(index, JSON.stringify(manifest));
      }
      break;
    }
    case 'state cut short':
      if (existsSync(statePath(cache))) writeFileSync(statePath(cache), readFileSync(statePath(cache), 'utf8').slice(0, 100));
      break;
    case 'state of another shape':
      writeState(cache, { ...(stateOf(cache) ?? {}), units: [1, 2, 3] });
      break;
    case 'a manifest entry changed': {
      const index = join(output, 'data/bulk/index.json');
      if (!existsSync(index)) break;
      const manifest = JSON.parse(readFileSync(index, 'utf8'));
      const entry = manifest.files[d.pick % manifest.files.length];
      if (d.field === 'inputs_sha256') entry.inputs_sha256 = '0'.repeat(64);
      else if (d.field === 'columns') entry.columns = entry.columns.slice(1);
      else entry.bytes += 1;
      writeFileSync(index, JSON.stringify(manifest));
      break;
    }
    case 'a file turned into a link': {
      const f = pick(d.pick);
      if (!f) break;
      rmSync(join(output, f));
      symlinkSync(victim, join(output, f));
      break;
    }
    case 'output gone':
      rmSync(output, { recursive: true, force: true });
      break;
  }
}

describe('the render cache heals', () => {
  it('renders a unit whose state lists one file fewer than it writes, instead of failing', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const cache = join(dir, 'cache');
    await renderTo(db, join(dir, 'a'), { cacheDir: cache });
    const state = readState(cache);
    const key = Object.keys(state.units).find((k) => k.startsWith('date:'))!;
    state.units[key].files.pop();
    writeState(cache, state);
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect(b.units - b.unitsReused).toBe(1);
    expect(b.warnings).toEqual([]);
    expectSameTree(join(dir, 'a'), join(dir, 'b'));
  });

  it('ignores, with a warning, a cache naming a file outside its folder, and deletes nothing there', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const cache = join(dir, 'cache');
    await renderTo(db, join(dir, 'a'), { cacheDir: cache });
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const state = readState(cache);
    const key = Object.keys(state.units)[0]!;
    state.units[key].files.push('../../../victim.txt');
    state.files['../../../victim.txt'] = Object.values(state.files)[0];
    writeState(cache, state);
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect(b.unitsReused).toBe(0);
    expect(b.warnings).toEqual([
      expect.stringMatching(/names a file outside its folder \("\.\.\/\.\.\/\.\.\/victim\.txt"\): it is ignored/),
    ]);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expectSameTree(join(dir, 'a'), join(dir, 'b'));
    // The next render finds the cache this one kept, whole again.
    const c = await renderTo(db, join(dir, 'c'), { cacheDir: cache });
    expect([c.unitsReused, c.warnings]).toEqual([c.units, []]);
  });

  it('is made again when the Node.js version that compresses the gzip files changes', () => {
    const version = process.version;
    const before = codeDigest();
    try {
      Object.defineProperty(process, 'version', { value: 'v99.0.0', configurable: true });
      expect(codeDigest()).not.toBe(before);
    } finally {
      Object.defineProperty(process, 'version', { value: version, configurable: true });
    }
    expect(codeDigest()).toBe(before);
  });

  it('keeps an incremental render equal to a fresh one, whatever ingest changes and whatever happens to the cache (property)', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, CITIES, SPAN);
    const cache = join(dir, 'cache');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    await renderTo(db, join(dir, 'first'), { cacheDir: cache });
    const state = { next: SPAN.to + 1, extra: false };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(changeArb, { minLength: 0, maxLength: 3 }),
        fc.array(damageArb, { minLength: 0, maxLength: 2 }),
        async (changes, damages) => {
          run++;
          for (const c of changes) await change(db, c, state);
          for (const d of damages) damage(cache, d, victim);
          const incremental = join(dir, `incremental-${run}`);
          const fresh = join(dir, `fresh-${run}`);
          await renderTo(db, incremental, { cacheDir: cache });
          await renderTo(db, fresh, { cacheDir: join(dir, `fresh-cache-${run}`) });
          expectSameTree(fresh, incremental);
          expect(readFileSync(victim, 'utf8')).toBe('keep me');
          for (const f of [fresh, `${fresh}.renders`, join(dir, `fresh-cache-${run}`), `${incremental}.renders`])
            rmSync(f, { recursive: true, force: true });
        },
      ),
      {
        numRuns: 8,
        // Damage on damage: a state cut short, then changed in shape (and a path outside the folder on top).
        examples: [
          [[], [{ kind: 'state cut short' }, { kind: 'state of another shape' }]],
          [[{ kind: 'next day' }], [{ kind: 'state of another shape' }, { kind: 'a path outside the folder', where: 'files' }]],
        ],
      },
    );
  }, 900_000);
});
