import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli, stdoutUntil } from '../helpers/cli.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

describe('npm start', () => {
  it('serves at once, every answer from the functions, and the rendered files and served store once the background render swaps them in', async () => {
    const dir = tempDir();
    const publish = join(dir, 'publish');
    const db = await buildStore(dir, ['tulsa'], { from: 20000, to: 20002 });
    const child = startCli(['start', '--db', db, '--publish', publish, '--port', '0']);
    try {
      const served = await stdoutUntil(child, /serving .* on (http:\/\/127\.0\.0\.1:\d+)/);
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(served)![1]!;
      // Served before the render: the landing page and the answers made once are files already.
      expect(served).not.toMatch(/rendered \d+ files/);
      expect(existsSync(join(publish, 'index.html'))).toBe(true);
      expect((await fetch(`${url}/api/latest-date`)).status).toBe(200);
      const before = await fetch(`${url}/api/pollen?city=tulsa&date=2024-10-04`);
      expect(before.status).toBe(200);
      const body = await before.text();
      expect((JSON.parse(body) as { rows: unknown[] }).rows.length).toBeGreaterThan(20);

      await stdoutUntil(child, /rendered \d+ files/);
      // The render's file answers the same request with the same bytes.
      expect(readFileSync(join(publish, 'data/pollen/tulsa/2024-10-04.json'), 'utf8')).toBe(body);
      expect(await (await fetch(`${url}/api/pollen?city=tulsa&date=2024-10-04`)).text()).toBe(body);
      // The functions, which answered from the store before the render, answer from the store it served:
      // the forecast skill it computed, asked in a form no file holds.
      const skill = await fetch(`${url}/api/forecast-skill?city=tulsa&category=tree`);
      expect(skill.status).toBe(200);
      expect(((await skill.json()) as { categories: Array<{ category: string }> }).categories.map((c) => c.category)).toEqual(['tree']);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
