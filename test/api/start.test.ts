import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { buildStore } from '../helpers/site.js';
import { tempDir } from '../helpers/tmp.js';

describe('npm start', () => {
  it('renders an existing store and serves the API on 127.0.0.1', async () => {
    const dir = tempDir();
    const db = await buildStore(dir, ['tulsa'], { from: 20000, to: 20002 });
    const child = startCli(['start', '--db', db, '--publish', join(dir, 'publish'), '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d;
          const m = /serving .* on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`start exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/api/pollen?city=tulsa&date=2024-10-04`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { rows: unknown[] }).rows.length).toBeGreaterThan(20);
      expect((await fetch(`${url}/api/latest-date`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
