import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadCode } from '../../src/render/thread-code.js';
import { tempDir } from '../helpers/tmp.js';

const digest = (c: string) => c.repeat(64);

describe("the render threads' code", () => {
  it('is bundled once for a version of the code, and the bundles of other versions are removed', () => {
    const cache = tempDir();
    const first = threadCode(digest('a'), cache);
    expect(first.warning).toBeUndefined();
    const folder = join(cache, `render-threads-${'a'.repeat(16)}`);
    expect(readdirSync(folder).sort()).toEqual(['skills-worker.mjs', 'worker.mjs']);
    expect(first.start('skills-worker')).toEqual({ url: new URL(`file://${folder}/skills-worker.mjs`), argv: [] });
    const made = statSync(join(folder, 'worker.mjs')).mtimeMs;
    threadCode(digest('a'), cache);
    expect(statSync(join(folder, 'worker.mjs')).mtimeMs).toBe(made);
    // A staging folder of a render still bundling is left alone.
    mkdirSync(join(cache, `render-threads-${'c'.repeat(16)}.123-456`));
    threadCode(digest('b'), cache);
    expect(readdirSync(cache).sort()).toEqual([`render-threads-${'b'.repeat(16)}`, `render-threads-${'c'.repeat(16)}.123-456`]);
  }, 60_000);
});
