/**
 * A store keeps its provider: ingest without --provider asks the store's own, another one is
 * refused unless the run says it replaces that provider's days, and then every day keeps its own
 * provider's label. The store is filled from the loopback Ambee in its recorded format.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CITIES } from '../../src/domain/cities.js';
import { dayOf } from '../../src/domain/dates.js';
import { parseIngestArgs, type RawIngestArgs, UsageError } from '../../src/ingest/args.js';
import { runIngest } from '../../src/ingest/run.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { sink } from '../helpers/sink.js';
import { tempDir } from '../helpers/tmp.js';

const KEY = 'ambee-v3-key-5d2e';
const NOW = Date.parse('2026-03-10T06:30:00Z');
const TODAY = dayOf(NOW);
const HISTORY_HOURS = String(24 * 6);
const ENV = { AMBEE_API_KEY: KEY, AMBEE_HISTORY_HOURS: HISTORY_HOURS, HTTP_RETRIES: '0' };
let replay: ReplayServer;
beforeAll(async () => (replay = await startReplayServer(KEY)));
afterAll(async () => replay.close());
beforeEach(() => {
  replay.options = { now: () => NOW, ambeeHistoryHours: 24 * 6 };
  replay.fault = () => undefined;
  replay.served.length = 0;
});

/** `ingest` with these flags over three cities, on the replay server's clock. */
async function ingestWith(db: string, raw: RawIngestArgs) {
  const env = { ...ENV, AMBEE_BASE_URL: replay.url };
  const args = parseIngestArgs({ cities: 'austin,tulsa,scranton', days: '6', db, ...raw }, TODAY, db, env);
  const [out, log] = [sink(), sink()];
  await runIngest(args, log.stream, out.stream, { json: true, env, now: () => NOW });
  return { log: log.text(), json: JSON.parse(out.text()) as { counts: Record<string, number> } };
}

/** Each stored day of a city, by day, with the provider that wrote it. */
function labels(db: string, city: string): Record<number, string> {
  const store = openStore(db, { readonly: true });
  try {
    return Object.fromEntries([...store.pollen.storedDays(city, TODAY - 6, TODAY - 1)].map(([day, d]) => [day - TODAY, d.source]));
  } finally {
    store.close();
  }
}

const historyAsked = () => replay.served.filter((s) => s.url.startsWith('/v3/pollen/history'));

describe('a store keeps its provider', () => {
  it("ingests the store's own provider when --provider is not given, and refuses another one, writing nothing", async () => {
    const db = join(tempDir(), 'ambee.db');
    await ingestWith(db, { provider: 'ambee', weather: 'sample' });
    expect(Object.values(labels(db, 'austin'))).toEqual(Array(6).fill('ambee'));

    replay.served.length = 0;
    const again = await ingestWith(db, { weather: 'sample', refresh: true });
    expect(again.log).toContain('ingest: ambee pollen, sample weather');
    expect(historyAsked().length).toBeGreaterThan(0);

    const before = labels(db, 'austin');
    await expect(ingestWith(db, { provider: 'sample', refresh: true })).rejects.toThrow(UsageError);
    await expect(ingestWith(db, { provider: 'sample', refresh: true })).rejects.toThrow(
      /the store .*ambee\.db holds ambee's pollen: --provider sample would write sample's days into it\. Leave out --provider to ingest ambee, name another --db, or add --replace-provider-days/,
    );
    expect(labels(db, 'austin')).toEqual(before);
  });

  it("with --replace-provider-days, writes the run's days with its own label and leaves the other days to the store's provider", async () => {
    const db = join(tempDir(), 'mixed.db');
    await ingestWith(db, { provider: 'ambee', weather: 'sample' });
    const day = TODAY - 4;
    const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
    await ingestWith(db, { provider: 'sample', weather: 'sample', replaceProviderDays: true, from: iso, to: iso, days: undefined });
    const expected = { '-6': 'ambee', '-5': 'ambee', '-4': 'sample', '-3': 'ambee', '-2': 'ambee', '-1': 'ambee' };
    expect(labels(db, 'austin')).toEqual(expected);
    expect(labels(db, 'tulsa')).toEqual(expected);

    // The store's provider (its newest day's) is still Ambee: the next run asks it, and keeps the
    // sample's day as it is, complete, rather than asking Ambee for it.
    replay.served.length = 0;
    const next = await ingestWith(db, { weather: 'sample' });
    expect(next.log).toContain('ingest: ambee pollen');
    expect(labels(db, 'austin')).toEqual(expected);
  });

  it("makes the sample's past forecasts and outlooks again only for the day it replaced, under its name", async () => {
    const db = join(tempDir(), 'remade.db');
    await ingestWith(db, { provider: 'ambee', weather: 'sample' });
    const day = TODAY - 4;
    const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
    const run = await ingestWith(db, {
      provider: 'sample',
      weather: 'sample',
      replaceProviderDays: true,
      from: iso,
      to: iso,
      days: undefined,
    });
    // Those reaching the day by 18 of its hours: the evening's two days before (lead 2), the day
    // before's two (lead 1) and the day's own morning (lead 0); in each of the three cities.
    expect(run.log).toContain('kept 12 forecasts (0 fetched by the forecast function, 0 taken from the provider, 12 made again)');
    // The one outlook that reads the sample's day: issued the day after it. The other days' outlooks read Ambee's.
    expect(run.log).toContain('kept 3 outlooks (0 issued, 3 made again)');
    const store = openStore(db, { readonly: true });
    try {
      for (const city of ['austin', 'tulsa', 'scranton']) {
        const sample = store.issued.since(city, 0).filter((f) => f.source === 'sample');
        expect(sample.map((f) => [(f.issuedAt - day * 86_400_000) / 3_600_000, f.days.map((d) => [d.day - day, d.lead])])).toEqual([
          [-29.5, [[0, 2]]],
          [-17.5, [[0, 1]]],
          [-5.5, [[0, 1]]],
          [6.5, [[0, 0]]],
        ]);
        const madeAgain = [...store.outlooks.outlooks(city, 0, TODAY + 1).values()].filter((o) => o.origin === 'made again');
        expect(madeAgain.map((o) => [o.issueDay - day, o.source])).toEqual([[1, 'sample']]);
      }
    } finally {
      store.close();
    }
  });

  it("keeps a young partial day another provider wrote, rather than filling it with this provider's hours under its label", async () => {
    const db = join(tempDir(), 'partial.db');
    await ingestWith(db, { provider: 'ambee', weather: 'sample' });
    // Yesterday's first hours from the sample, as a replacing run cut short would leave them.
    const store = openStore(db);
    const austin = DEFAULT_CITIES.get('austin')!;
    const yesterday = TODAY - 1;
    const hours = Array.from({ length: 6 }, (_, h) => ({ hour: yesterday * 24 + h, tree: 1, grass: 1, weed: 1, total: 3, species: null }));
    store.writeCityDay({
      city: 'austin',
      day: yesterday,
      pollen: {
        source: 'sample',
        timezone: austin.timezone,
        fetchedAt: NOW,
        hours,
        asked: { from: yesterday * 24, to: yesterday * 24 + 6 },
      },
    });
    store.close();

    replay.served.length = 0;
    await ingestWith(db, { weather: 'sample' });
    const after = openStore(db, { readonly: true });
    expect(after.pollen.storedDays('austin', yesterday, yesterday).get(yesterday)).toEqual({ status: 'partial', source: 'sample' });
    expect(after.pollen.hours('austin', yesterday * 24, TODAY * 24).map((h) => h.source)).toEqual(Array(6).fill('sample'));
    after.close();

    // Replacing it asks Ambee for the whole day: the sample's hours go, none is relabelled.
    await ingestWith(db, { provider: 'ambee', weather: 'sample', replaceProviderDays: true, days: '1' });
    const replaced = openStore(db, { readonly: true });
    const sources = new Set(replaced.pollen.hours('austin', yesterday * 24, TODAY * 24).map((h) => h.source));
    expect([...sources]).toEqual(['ambee']);
    replaced.close();
  });

  it('refuses simulated weather into a store of real weather, and lets real weather join a simulated store', async () => {
    const db = join(tempDir(), 'weather.db');
    const store = openStore(db);
    store.writeCityDay({
      city: 'austin',
      day: TODAY - 3,
      weather: { source: 'open-meteo', fetchedAt: NOW, values: { temp_day_c: 20, humidity: 50 } },
    });
    store.close();
    await expect(ingestWith(db, { provider: 'sample' })).rejects.toThrow(
      /holds open-meteo's weather: --weather sample would write simulated weather into it/,
    );
    const withSample = join(tempDir(), 'sample.db');
    await ingestWith(withSample, { provider: 'sample' });
    const store2 = openStore(withSample);
    store2.writeCityDay({
      city: 'austin',
      day: TODAY - 1,
      weather: { source: 'open-meteo', fetchedAt: NOW, values: { temp_day_c: 20, humidity: 50 } },
    });
    store2.close();
    await ingestWith(withSample, { provider: 'sample', weather: 'sample', days: '1' });
  });

  it('exits 2 from the command line naming the flag, and a new store still defaults to the sample', async () => {
    const dir = tempDir();
    const db = join(dir, 'cli.db');
    const fresh = await runCli(['ingest', '--days', '2', '--cities', 'austin', '--db', db]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain('ingest: sample pollen, sample weather');
    const refused = await runCli(['ingest', '--provider', 'ambee', '--days', '2', '--cities', 'austin', '--db', db], {
      env: { AMBEE_API_KEY: KEY, AMBEE_BASE_URL: replay.url },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("holds sample's pollen: --provider ambee would write ambee's days into it");
    expect(refused.stderr).toContain('--replace-provider-days');
    expect(refused.stderr).not.toContain(KEY);
  }, 60_000);
});
