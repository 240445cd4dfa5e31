import { mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { threadCode } from '../../src/render/threads/thread-code.js';
import { tempDir } from '../helpers/tmp.js';

const digest = (c: string) => c.repeat(64);
const folderOf = (c: string) => `render-threads-${c.repeat(16)}`;
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

// The bundles are made in a folder of the test's own: their imports of libraries would not resolve
// from there, so no thread starts from them here (test/render/render.test.ts starts threads from
// bundles made inside the project).
describe("the render threads' code", () => {
  it('is bundled once for a version of the code, and made again when a file of it is missing', () => {
    const cache = tempDir();
    const first = threadCode(digest('a'), cache);
    expect(first.warning).toBeUndefined();
    const folder = join(cache, folderOf('a'));
    expect(readdirSync(folder).sort()).toEqual(['scoring-worker.mjs', 'worker.mjs']);
    expect(first.start('scoring-worker')).toEqual({ url: pathToFileURL(join(folder, 'scoring-worker.mjs')), argv: [] });
    const made = statSync(join(folder, 'worker.mjs')).mtimeMs;
    threadCode(digest('a'), cache);
    expect(statSync(join(folder, 'worker.mjs')).mtimeMs).toBe(made);
    rmSync(join(folder, 'scoring-worker.mjs'));
    threadCode(digest('a'), cache);
    expect(readdirSync(folder).sort()).toEqual(['scoring-worker.mjs', 'worker.mjs']);
  }, 60_000);

  it("removes other versions' bundles and staging folders only once no render has used them for a day", () => {
    const cache = tempDir();
    threadCode(digest('a'), cache);
    threadCode(digest('b'), cache);
    mkdirSync(join(cache, `${folderOf('c')}.123-456`));
    mkdirSync(join(cache, `${folderOf('d')}.123-456`));
    utimesSync(join(cache, `${folderOf('d')}.123-456`), daysAgo(2), daysAgo(2));
    // Used by a render a little under a day ago: kept.
    utimesSync(join(cache, folderOf('b')), daysAgo(0.9), daysAgo(0.9));
    threadCode(digest('e'), cache);
    expect(readdirSync(cache).sort()).toEqual([folderOf('a'), folderOf('b'), `${folderOf('c')}.123-456`, folderOf('e')]);
    utimesSync(join(cache, folderOf('a')), daysAgo(1.1), daysAgo(1.1));
    // Using a bundle marks it: b is kept by this render's use of it.
    threadCode(digest('b'), cache);
    expect(readdirSync(cache).sort()).toEqual([folderOf('b'), `${folderOf('c')}.123-456`, folderOf('e')]);
  }, 60_000);
});
