import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDER_ARENAS, renderEnv } from '../../src/render/threads/render-process.js';
import { ROOT } from '../helpers/cli.js';

describe("a render process's environment", () => {
  it('limits malloc arenas to two unless the environment says otherwise, and keeps the rest of it', () => {
    expect(renderEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
    expect(renderEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '8' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '8' });
  });

  it('is what `npm run render` and `npm run build` start the command line with', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const prefix = Object.entries(RENDER_ARENAS)
      .map(([k, v]) => `${k}=${v} `)
      .join('');
    expect(scripts.render).toBe(`${prefix}tsx build/cli.ts render`);
    expect(scripts.build).toBe(`${prefix}tsx build/cli.ts build`);
  });
});
