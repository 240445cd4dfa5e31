/**
 * The render cache is restored from CI's cache store, which any workflow run can write: nothing in
 * it is followed through a link, and a state is only reused when this build's key signed it. Each
 * case places what a hostile cache could hold, renders, and checks that the render publishes what
 * a render from nothing would and that nothing outside the cache was read into it or written.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dayNumber } from '../../src/domain/dates.js';
import { RenderError } from '../../src/output/render-error.js';
import { cacheKeyOf, cacheKeyPath, signatureOf } from '../../src/render/cache/key.js';
import { listFiles } from '../../src/render/render.js';
import { ConfigError } from '../../src/settings.js';
import { expectSameTree, renderTo } from '../helpers/renders.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

const CITIES = ['austin', 'honolulu'];
const SPAN = { from: dayNumber('2025-03-29'), to: dayNumber('2025-04-03') };

/** Every file under `dir` with its bytes and modification time: what must not change. */
function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    if (e.isFile()) out[path] = `${statSync(path).mtimeMs}:${readFileSync(path).toString('base64')}`;
  }
  return out;
}

/** A store, a first render with its cache, and a fresh render's output to compare with. */
async function rendered() {
  const dir = tempDir();
  const db = await buildStore(dir, CITIES, SPAN);
  const cache = join(dir, 'cache');
  await renderTo(db, join(dir, 'first'), { cacheDir: cache });
  return { dir, db, cache, fresh: join(dir, 'first') };
}

const unwrap = (cache: string) => JSON.parse(readFileSync(join(cache, 'state.json'), 'utf8')) as { signature: string; state: string };

describe('the render cache trusts nothing it did not write', () => {
  afterEach(() => {
    delete process.env.RENDER_CACHE_KEY;
  });

  it('does not follow an output that is a link to another folder: that folder is neither reused, emptied nor written', async () => {
    const { dir, db, cache, fresh } = await rendered();
    // The outside folder holds a copy of a valid output and a file of its own, and the cache's
    // output becomes a link to it: the state is the build's own, signed.
    const outside = join(dir, 'outside');
    renameSync(join(cache, 'output'), outside);
    writeFileSync(join(outside, 'precious.txt'), 'keep me');
    symlinkSync(outside, join(cache, 'output'));
    const before = snapshotOf(outside);
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect(b.unitsReused).toBe(0);
    expect(b.warnings).toEqual([
      expect.stringMatching(/render cache's output .* is not a folder but a link or another file: it is ignored/),
    ]);
    expectSameTree(fresh, join(dir, 'b'));
    expect(snapshotOf(outside)).toEqual(before);
    // The cache kept is a real folder again, and the next render reuses it whole.
    expect(lstatSync(join(cache, 'output')).isDirectory()).toBe(true);
    const c = await renderTo(db, join(dir, 'c'), { cacheDir: cache });
    expect([c.unitsReused, c.warnings]).toEqual([c.units, []]);
  }, 120_000);

  it('writes its state to a name of its own: links placed beside state.json are left pointing at untouched files', async () => {
    const { dir, db, cache, fresh } = await rendered();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    for (const name of ['state.json.next', 'state.json.next.next', 'state.json.tmp', `state.json.${process.pid}.tmp`])
      symlinkSync(victim, join(cache, name));
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect([b.unitsReused, b.warnings]).toEqual([b.units, []]);
    expectSameTree(fresh, join(dir, 'b'));
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(cache, 'state.json')).isFile()).toBe(true);
  }, 120_000);

  it('ignores a state.json that is a link, and replaces the link, not what it points to', async () => {
    const { dir, db, cache, fresh } = await rendered();
    const outside = join(dir, 'state-elsewhere.json');
    renameSync(join(cache, 'state.json'), outside);
    symlinkSync(outside, join(cache, 'state.json'));
    const before = readFileSync(outside, 'utf8');
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect(b.unitsReused).toBe(0);
    expect(b.warnings).toEqual([expect.stringMatching(/state .* is a link: it is ignored/)]);
    expectSameTree(fresh, join(dir, 'b'));
    expect(readFileSync(outside, 'utf8')).toBe(before);
    expect(lstatSync(join(cache, 'state.json')).isFile()).toBe(true);
  }, 120_000);

  it('does not use a cache folder that is itself a link', async () => {
    const { dir, db, cache, fresh } = await rendered();
    const linked = join(dir, 'linked-cache');
    symlinkSync(cache, linked);
    const before = snapshotOf(cache);
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: linked });
    expect(b.unitsReused).toBe(0);
    expect(b.warnings).toEqual([expect.stringMatching(/render cache .* is not a folder but a link or another file: it is not used/)]);
    expectSameTree(fresh, join(dir, 'b'));
    expect(snapshotOf(cache)).toEqual(before);
  }, 120_000);

  it('publishes no file edited in the cache, even with its new SHA-256 written into the state: the state is not signed with the key', async () => {
    const { dir, db, cache, fresh } = await rendered();
    const output = join(cache, 'output');
    const file = listFiles(output).find(
      (f) => f.endsWith('.json') && readFileSync(join(output, f), 'utf8').includes('"provider":"sample"'),
    )!;
    const edited = readFileSync(join(output, file), 'utf8').replace('"provider":"sample"', '"provider":"ambee"');
    // A hard link shares the published file's bytes: the edit replaces the cache's file alone.
    const path = join(output, file);
    writeFileSync(`${path}.new`, edited);
    renameSync(`${path}.new`, path);
    const { state } = unwrap(cache);
    const parsed = JSON.parse(state);
    const { createHash } = await import('node:crypto');
    const record = parsed.files[file];
    record[0] = createHash('sha256').update(edited).digest('hex');
    record[1] = Buffer.byteLength(edited);
    const text = JSON.stringify(parsed);
    // Signed with a key that is not the build's, and then with no signature at all.
    for (const signature of [signatureOf(Buffer.alloc(32, 7), text), '']) {
      writeFileSync(join(cache, 'state.json'), JSON.stringify({ signature, state: text }));
      const publish = join(dir, `b-${signature.length}`);
      const b = await renderTo(db, publish, { cacheDir: cache });
      expect(b.unitsReused).toBe(0);
      expect(b.warnings).toEqual([expect.stringMatching(/not signed with this build's key \(RENDER_CACHE_KEY.*the render starts fresh/)]);
      expectSameTree(fresh, publish);
      expect(readFileSync(join(publish, file), 'utf8')).not.toContain('"provider":"ambee"');
    }
  }, 180_000);

  it('signs with RENDER_CACHE_KEY when it is set: a cache signed with the laptop key is not reused, and no key file is made', async () => {
    const { dir, db, cache } = await rendered();
    expect(existsSync(cacheKeyPath(db))).toBe(true);
    process.env.RENDER_CACHE_KEY = 'a'.repeat(40);
    const b = await renderTo(db, join(dir, 'b'), { cacheDir: cache });
    expect(b.unitsReused).toBe(0);
    expect(b.warnings).toEqual([expect.stringMatching(/not signed with this build's key/)]);
    const c = await renderTo(db, join(dir, 'c'), { cacheDir: cache });
    expect([c.unitsReused, c.warnings]).toEqual([c.units, []]);
    const { signature, state } = unwrap(cache);
    expect(signature).toBe(signatureOf(Buffer.from('a'.repeat(40)), state));

    const other = tempDir();
    const db2 = await buildStore(other, ['austin'], { from: SPAN.from, to: SPAN.from });
    await renderTo(db2, join(other, 'p'), { cacheDir: join(other, 'cache') });
    expect(existsSync(cacheKeyPath(db2))).toBe(false);
  }, 180_000);

  it('refuses to render, publishing nothing, when the key is required and not set', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['austin'], { from: SPAN.from, to: SPAN.from });
    await expect(renderTo(db, join(dir, 'p'), { requireCacheKey: true })).rejects.toThrow(RenderError);
    await expect(renderTo(db, join(dir, 'p'), { requireCacheKey: true })).rejects.toThrow(
      /RENDER_CACHE_KEY is not set.*Nothing was published/,
    );
    expect(existsSync(join(dir, 'p'))).toBe(false);
  }, 60_000);

  it('refuses a key shorter than 32 characters, naming the variable and never printing it', () => {
    process.env.RENDER_CACHE_KEY = 'short-secret-value';
    const dir = tempDir();
    let error: unknown;
    try {
      cacheKeyOf(join(dir, 'pollen.db'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/RENDER_CACHE_KEY must be at least 32 characters/);
    expect((error as Error).message).not.toContain('short-secret-value');
  });

  it('makes the laptop key once, readable by its owner alone, and refuses a key file that is a link', () => {
    const dir = tempDir();
    const db = join(dir, 'pollen.db');
    const key = cacheKeyOf(db);
    expect(cacheKeyOf(db).equals(key)).toBe(true);
    expect(statSync(cacheKeyPath(db)).mode & 0o777).toBe(0o600);
    const other = tempDir();
    writeFileSync(join(other, 'elsewhere.key'), `${'b'.repeat(64)}\n`);
    symlinkSync(join(other, 'elsewhere.key'), cacheKeyPath(join(other, 'pollen.db')));
    expect(() => cacheKeyOf(join(other, 'pollen.db'))).toThrow(/ELOOP/);
  });
});
