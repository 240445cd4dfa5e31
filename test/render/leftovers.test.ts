/**
 * What killed renders leave (their generation with its served store, the forecast-skill scores
 * they were writing into the render cache, files under names of their own) is removed by the next
 * render; what a render still running is writing stays, until it is gone. The render cache, which
 * CI saves whole, holds nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shardFolderPath } from '../../src/deploy-data/shard-folder.js';
import { renderCachePath } from '../../src/deploy-data/site-file.js';
import { render } from '../../src/render/render.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { buildStore, SITE_SPAN } from '../helpers/site.js';

describe('leftovers of killed renders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pollen-leftovers-'));
  let live: ChildProcess | undefined;
  afterAll(() => {
    live?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it("are removed by the next render, and another render's that still runs are kept until it is gone", async () => {
    const db = await buildStore(dir, ['tulsa', 'boise'], { from: SITE_SPAN.from - 30, to: SITE_SPAN.to });
    const [publish, cache, renders] = [join(dir, 'publish'), renderCachePath(db), join(dir, 'publish.renders')];
    const again = async () => {
      const store = openStore(db, { readonly: true });
      try {
        await render(store, publish);
      } finally {
        store.close();
      }
    };
    await again();
    const kept = new Set(readdirSync(renders));

    // Killed once it writes its scores into the cache: that folder and its generation (with its served store) are left.
    const killed = await runCli(['render', '--db', db, '--publish', publish], {
      killWhen: () => readdirSync(cache).some((n) => n.startsWith('skills.next-')),
    });
    expect(killed.signal).toBe('SIGKILL');
    const left = [...readdirSync(cache).filter((n) => n.startsWith('skills.next-')), ...readdirSync(renders).filter((n) => !kept.has(n))];
    expect(left).toHaveLength(2);
    const dead = Number(/-(\d+)$/.exec(left[1]!)![1]);
    expect(left[0]).toMatch(new RegExp(`^skills\\.next-${dead}-[0-9a-f]{12}$`));
    // What the renders that wrote their served store beside the store left, and a half-written shard.
    writeFileSync(join(dir, `serve.db.next-${dead}`), 'half a store');
    // And the served store renders wrote beside the store before they wrote it into their own folder.
    writeFileSync(join(dir, 'serve.db'), 'an older layout');
    const shardTemp = `${'a'.repeat(64)}.${dead}-0123456789ab.tmp`;
    writeFileSync(join(shardFolderPath(db), shardTemp), 'half a shard');

    // Another render, running: what it is writing stays.
    live = spawn('sleep', ['600'], { stdio: 'ignore' });
    const running = live.pid!;
    const liveNames = {
      cache: `skills.next-${running}-0123456789ab`,
      generation: `r1-${running}`,
      beside: `serve.db.next-${running}`,
      shard: `${'b'.repeat(64)}.${running}-0123456789ab.tmp`,
    };
    mkdirSync(join(cache, liveNames.cache));
    mkdirSync(join(renders, liveNames.generation));
    writeFileSync(join(dir, liveNames.beside), 'a store on its way');
    writeFileSync(join(shardFolderPath(db), liveNames.shard), 'a shard on its way');
    // And something no render writes into the cache, which CI would save with it.
    writeFileSync(join(cache, 'stray.txt'), 'not the cache');

    await again();
    for (const gone of [
      join(cache, left[0]!),
      join(renders, left[1]!),
      join(dir, `serve.db.next-${dead}`),
      join(dir, 'serve.db'),
      join(shardFolderPath(db), shardTemp),
    ])
      expect(existsSync(gone), gone).toBe(false);
    expect(readdirSync(cache).sort()).toEqual(['output', 'skills', liveNames.cache, 'state.json'].sort());
    expect(existsSync(join(renders, liveNames.generation))).toBe(true);
    expect(existsSync(join(dir, liveNames.beside))).toBe(true);
    expect(existsSync(join(shardFolderPath(db), liveNames.shard))).toBe(true);

    // Once that render is gone, what it left goes with the next.
    live.kill('SIGKILL');
    await new Promise((done) => live!.once('exit', done));
    await again();
    expect(readdirSync(cache).sort()).toEqual(['output', 'skills', 'state.json']);
    expect(readdirSync(renders)).not.toContain(liveNames.generation);
    expect(readdirSync(renders)).toHaveLength(3); // current, the generation it names, and the one before it (its files beside the store)
    expect(existsSync(join(dir, liveNames.beside))).toBe(false);
    expect(existsSync(join(shardFolderPath(db), liveNames.shard))).toBe(false);
  }, 300_000);
});
