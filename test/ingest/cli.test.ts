import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const WINDOW = ['--from', '2025-01-01', '--to', '2025-06-30'];
const CITIES = ['--cities', 'austin,anchorage,honolulu,wichita,scranton,richmond,tulsa,dallas'];

describe('build ingest', () => {
  it.each([
    [['--days', '0'], /--days must be a whole number from 1 to 3660/],
    [['--days', 'ten'], /--days must be a whole number/],
    [['--days', '5', '--from', '2025-01-01'], /--days cannot be combined/],
    [['--from', '2025-02-30', '--to', '2025-03-01'], /--from must be a date in YYYY-MM-DD format/],
    [['--from', '2025-03-01'], /--from and --to go together/],
    [['--from', '2025-03-02', '--to', '2025-03-01'], /--from must not be later than --to/],
    [['--from', '2025-03-01', '--to', '2999-01-01'], /--to must be a past day/],
    [['--cities', 'austin,atlantis'], /unsupported city "atlantis"/],
    [['--provider', 'nope'], /--provider must be one of: sample/],
    [['--bogus'], /unknown option '--bogus'/],
  ])('rejects %j with exit code 2 and writes nothing', async (args, message) => {
    const db = join(tempDir(), 'x.db');
    const r = await runCli(['ingest', '--db', db, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(db)).toBe(false);
  });

  it('ends a run killed halfway, then re-run, with exactly the tables of an uninterrupted run', async () => {
    const dir = tempDir();
    const killed = join(dir, 'killed.db');
    const whole = join(dir, 'whole.db');

    const interrupted = await runCli(['ingest', ...WINDOW, ...CITIES, '--db', killed], { killWhen: /ingest: 50%/ });
    expect(interrupted.signal).toBe('SIGKILL');
    const half = openStore(killed);
    expect(half.checks.integrity()).toBe('ok');
    expect(half.checks.incompleteDays()).toEqual([]); // every city-day is whole or absent
    const stored = half.checks.counts().pollen_day! + half.checks.counts().weather_day!;
    half.close();
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(2 * 8 * 181);

    const resumed = await runCli(['ingest', ...WINDOW, ...CITIES, '--db', killed]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`wrote ${2 * 1448 - stored} city-days`));
    expect((await runCli(['ingest', ...WINDOW, ...CITIES, '--db', whole])).code).toBe(0);

    const [a, b] = [openStore(killed, { readonly: true }), openStore(whole, { readonly: true })];
    expect(a.checks.counts()).toEqual(b.checks.counts());
    expect(a.checks.checksum(['fetched_at'])).toBe(b.checks.checksum(['fetched_at']));
    a.close();
    b.close();
  });

  it('adds and changes nothing when run again over the same window', async () => {
    const db = join(tempDir(), 'again.db');
    const args = ['ingest', '--from', '2025-07-01', '--to', '2025-07-31', '--cities', 'miami,seattle', '--db', db];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^124 city-days \(pollen and weather counted apart\): \d+ complete, \d+ partial, 0 empty, 0 deferred, 0 outside window, 0 failed\nwrote 124 city-days/,
    );
    const store = openStore(db, { readonly: true });
    const [counts, sum] = [store.checks.counts(), store.checks.checksum()];
    store.close();

    const second = await runCli(args);
    expect(second.stdout).toMatch(/wrote 0 city-days .* with 0 provider requests/);
    const after = openStore(db, { readonly: true });
    expect(after.checks.counts()).toEqual(counts);
    expect(after.checks.checksum()).toBe(sum);
    after.close();
  });

  it('reads the store path from POLLEN_DB', async () => {
    const db = join(tempDir(), 'env.db');
    const r = await runCli(['ingest', '--from', '2025-07-01', '--to', '2025-07-02', '--cities', 'boise'], { env: { POLLEN_DB: db } });
    expect(r.code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it.each([
    ['without a key', {}],
    ["with Ambee's key (the build still ingests the sample into its empty store)", { AMBEE_API_KEY: 'a-key' }],
  ])("refuses the sample on Netlify's own build %s, naming the settings, and renders nothing", async (_, env) => {
    const dir = tempDir();
    const [db, publish] = [join(dir, 'store.db'), join(dir, 'publish')];
    const r = await runCli(['build', '--days', '2', '--cities', 'tulsa', '--db', db, '--publish', publish], {
      env: { NETLIFY: 'true', ALLOW_SAMPLE_DEPLOY: '', ...env },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "error: this is Netlify's own build (NETLIFY=true), and it would deploy the sample provider's simulated data",
    );
    expect(r.stderr).toContain('Stop builds');
    expect(r.stderr).toContain('ALLOW_SAMPLE_DEPLOY=true');
    expect(existsSync(publish)).toBe(false);
    const store = openStore(db, { readonly: true });
    expect(store.checks.counts().hours).toBe(0);
    store.close();
  });

  it('names ALLOW_SAMPLE_DEPLOY when it is neither true nor false', async () => {
    const dir = tempDir();
    const r = await runCli(
      ['build', '--days', '2', '--cities', 'tulsa', '--db', join(dir, 'store.db'), '--publish', join(dir, 'publish')],
      {
        env: { NETLIFY: 'true', ALLOW_SAMPLE_DEPLOY: 'yes' },
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: ALLOW_SAMPLE_DEPLOY must be true or false (got "yes")\n');
  });
});
