#!/usr/bin/env node
/** The command line: parses flags and calls library functions, nothing more. */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { SHARD_STORE } from '../src/deploy-data/remote-shards.js';
import {
  DEPLOY_BLOBS_DIR,
  readShardManifest,
  shardFolderPath,
  shardManifestPath,
  stageDeployShards,
} from '../src/deploy-data/shard-folder.js';
import { KEEP_DEPLOYS, uploadShards } from '../src/deploy-data/shard-upload.js';
import { DEFAULT_CITIES } from '../src/domain/cities.js';
import { dayOf } from '../src/domain/dates.js';
import { parseIngestArgs, type RawIngestArgs, START_DAYS, UsageError } from '../src/ingest/args.js';
import { ingestExitCode, runIngest, sampleDeployRefusal } from '../src/ingest/run.js';
import { serveStdio } from '../src/mcp/stdio.js';
import { doctor, formatDoctor, providerList } from '../src/providers/doctor.js';
import { ConfigError, checkProviders, pollenChainFor } from '../src/providers/registry.js';
import { formatRender, RenderError, render } from '../src/render/render.js';
import { type RunningServer, serve } from '../src/server/server.js';
import { startSite } from '../src/server/start.js';
import { clockOf, settingsOf } from '../src/settings.js';
import { formatSmoke, parseBase, smoke } from '../src/smoke/smoke.js';
import { ShardUnavailable } from '../src/store/shards/shard-format.js';
import { pullSnapshot, pushSnapshot, siteBlobs, snapshotStore } from '../src/store/snapshot.js';
import { openStore } from '../src/store/store.js';
import { censusZips } from '../src/store/zip-table.js';
import { closeStores, environmentContext, useSqlite } from '../src/wiring/contexts.js';

// The command line's contexts (MCP over stdio, the server it starts) may open SQLite stores.
useSqlite(openStore);

const ROOT = resolve(import.meta.dirname, '..');
const defaultDb = () => settingsOf().POLLEN_DB;
const today = () => dayOf(clockOf()());
const DEFAULT_PUBLISH = 'publish';

const program = new Command('pollen')
  .description('Build, inspect and serve the pollen, weather and air-quality API.')
  .exitOverride()
  .showHelpAfterError();

const ingestOptions = (command: Command) =>
  command
    .option(
      '--provider <id>',
      "pollen provider: sample or ambee (default: the store's own, the provider of its newest day; sample for a new store)",
    )
    .option(
      '--weather <id>',
      'weather provider: sample, open-meteo or openweathermap (default: sample with sample pollen; else openweathermap when OPENWEATHER_API_KEY is set, else open-meteo)',
    )
    .option('--from <date>', 'first UTC day, YYYY-MM-DD')
    .option('--to <date>', 'last UTC day (inclusive), YYYY-MM-DD')
    .option('--days <n>', 'the N days ending yesterday (default 365 when no dates are given)')
    .option('--cities <slugs>', 'comma-separated city slugs within the set (default: all of it)')
    .option(
      '--cities-file <path>',
      'the city set: a JSON array of {name, slug, state, lat, lon, timezone} (default: $CITIES_FILE, else the set in the store, else the built-in 40)',
    )
    .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
    .option('--refresh', 'fetch and overwrite days already stored')
    .option(
      '--replace-provider-days',
      "let a provider other than the store's write this run's days, replacing the days another provider stored there (each keeps its own provider's label)",
    )
    .option('--json', 'print {counts, failed, stopped} as JSON on stdout (progress stays on stderr)');

ingestOptions(
  program
    .command('ingest')
    .description("Pull provider data into the SQLite store, planned per city-day: newest first, within each provider's window and budget."),
).action(async (raw: RawIngestArgs & { json?: boolean }) => {
  const summary = await runIngest(parseIngestArgs(raw, today(), defaultDb()), process.stderr, process.stdout, { json: raw.json });
  process.exitCode = ingestExitCode(summary);
});

program
  .command('doctor')
  .description('Check the configured providers with at most three requests each: reachable, authorized, fields, window, budget.')
  .option(
    '--provider <ids>',
    'pollen provider, or a chain comma-separated (default: $POLLEN_PROVIDERS, else $POLLEN_PROVIDER, else ambee when AMBEE_API_KEY is set, else sample)',
  )
  .option('--weather <id>', 'weather provider (default as for ingest)')
  .option('--city <slug>', 'the city to ask about', 'tulsa')
  .option('--db <path>', 'store file whose ledger counts the calls (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { provider?: string; weather?: string; city: string; db?: string }) => {
    const provider = pollenChainFor(o.provider, process.env);
    try {
      checkProviders(provider, o.weather);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const db = o.db ?? defaultDb();
    const set = existsSync(db) ? undefined : DEFAULT_CITIES;
    if (set && !set.get(o.city)) throw new UsageError(`--city: unsupported city ${JSON.stringify(o.city)}`);
    const store = openStore(db);
    try {
      const cities = store.cities.set();
      const city = cities.get(o.city);
      if (!city) throw new UsageError(`--city: unsupported city ${JSON.stringify(o.city)}; the store's set has ${cities.slugs.join(', ')}`);
      const now = clockOf(process.env);
      const checks = await doctor({ store, city, cities: cities.size, pollen: provider, weather: o.weather, now });
      process.stdout.write(formatDoctor(checks, now(), providerList(process.env)));
      process.exitCode = checks.every((c) => c.usable) ? 0 : 1;
    } finally {
      store.close();
    }
  });

/** Renders; a request that does not answer 200 fails the command (exit 1), the previous render still served. */
program
  .command('smoke')
  .description('Check a deployment (local or real) end to end: every endpoint and mode, errors, headers, health, MCP.')
  .argument('[base-url]', 'the site, such as https://your-site.netlify.app or http://127.0.0.1:8888')
  .option('--expect-node <major>', 'the Node.js major the functions must run on (from /api/health)')
  .option('--allow-simulated', "a demonstration site: pass /api/health's simulated (the sample provider's data) rather than fail it")
  .action(async (base: string | undefined, o: { expectNode?: string; allowSimulated?: boolean }) => {
    let url: URL;
    try {
      url = parseBase(base);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (o.expectNode !== undefined && !/^\d+$/.test(o.expectNode))
      throw new UsageError(`--expect-node must be a major version such as 22 (got ${JSON.stringify(o.expectNode)})`);
    const checks = await smoke(url.origin, {
      expectNode: o.expectNode === undefined ? undefined : Number(o.expectNode),
      allowSimulated: o.allowSimulated === true,
    });
    process.stdout.write(formatSmoke(url.origin, checks));
    process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
  });

const renderTo = async (db: string, publish: string, cacheDir?: string, requireCacheKey = false): Promise<boolean> => {
  const store = openStore(db, { readonly: true });
  try {
    process.stdout.write(formatRender(await render(store, publish, { ...(cacheDir ? { cacheDir } : {}), requireCacheKey })));
    return true;
  } catch (error) {
    // A render that cannot be (over budget, a bad SERVE_DAYS or DEPLOY_MAX_FILES) leaves the previous one served.
    if (!(error instanceof RenderError || error instanceof ConfigError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
    return false;
  } finally {
    store.close();
  }
};

program
  .command('render')
  .description('Write every enumerable answer and _redirects into the publish folder, atomically.')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
  .option('--cache <dir>', "the previous build's reusable output (default: $RENDER_CACHE, else render-cache beside the store)")
  .option(
    '--require-cache-key',
    'refuse to render without $RENDER_CACHE_KEY, the secret that signs the render cache (the scheduled rebuild)',
  )
  .action(
    async (o: { db?: string; publish: string; cache?: string; requireCacheKey?: boolean }) =>
      void (await renderTo(o.db ?? defaultDb(), o.publish, o.cache, o.requireCacheKey === true)),
  );

ingestOptions(program.command('build').description('ingest, then render: what the scheduled deploy runs.'))
  .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
  .action(async (raw: RawIngestArgs & { publish: string; json?: boolean }) => {
    const args = parseIngestArgs(raw, today(), defaultDb());
    const summary = await runIngest(args, process.stderr, process.stdout, { json: raw.json, refuseSample: sampleDeployRefusal() });
    if (!(await renderTo(args.db, raw.publish))) return;
    process.exitCode = ingestExitCode(summary);
    // Netlify's own build: the shards go up with the deploy, as its own blobs.
    if (settingsOf().NETLIFY === true) {
      const staged = stageDeployShards(shardManifestPath(args.db), shardFolderPath(args.db), ROOT);
      process.stdout.write(`staged ${staged} shards as the deploy's blobs (${DEPLOY_BLOBS_DIR}), which Netlify uploads with it\n`);
    }
  });

const serveOptions = (command: Command) =>
  command
    .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
    .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
    .option('--port <n>', 'port', '8888')
    .option('--host <address>', 'address to listen on', '127.0.0.1');

type ServeFlags = { db?: string; publish: string; port: string; host: string };
const checkedPort = (port: string): number => {
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535 (got ${JSON.stringify(port)})`);
  return Number(port);
};
/**
 * Ctrl-C (or SIGTERM) stops a server as a command ends: the requests under way answered, the stores
 * its functions opened closed (the forecast cache's writer folds its WAL), the exit code its own
 * (0 once it served; a background render is ended with it). A second signal ends it at once.
 */
const stopOnSignal = (server: RunningServer) => {
  const stop = async () => {
    await server.close();
    closeStores();
    process.exit();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

const startServer = async (o: ServeFlags) => {
  const port = checkedPort(o.port);
  process.env.POLLEN_DB = resolve(o.db ?? defaultDb()); // read by the functions, in this process
  const running = await serve({ root: ROOT, publishDir: resolve(o.publish), host: o.host, port });
  stopOnSignal(running);
  process.stdout.write(`serving ${o.publish} on ${running.url}  (try ${running.url}/api/cities)\n`);
};

serveOptions(program.command('serve').description("Serve the publish folder and functions on Netlify's request chain.")).action(
  startServer,
);

serveOptions(
  program
    .command('start')
    .description(`Ingest ${START_DAYS} days of sample data if the store is empty, serve, and render in the background.`),
).action(async (o: ServeFlags) => {
  const args = parseIngestArgs({ provider: 'sample', db: o.db, days: String(START_DAYS) }, today(), defaultDb());
  process.exitCode = ingestExitCode(await runIngest(args, process.stderr, process.stdout, { onlyIfEmpty: true }));
  const port = checkedPort(o.port);
  const { server, rendered } = await startSite({ root: ROOT, db: args.db, publish: o.publish, host: o.host, port, log: process.stdout });
  stopOnSignal(server);
  process.stdout.write(
    `serving ${o.publish} on ${server.url}  (try ${server.url}/api/cities); rendering its static files in the background, the functions answer meanwhile\n`,
  );
  if ((await rendered) !== 0) process.stderr.write('the render failed: the functions keep answering every request\n');
});

program
  .command('mcp')
  .description('Serve the MCP tools over stdio, for desktop MCP clients.')
  .requiredOption('--stdio', 'use stdin/stdout (the only transport of this command; /mcp serves HTTP)')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { db?: string }) => {
    if (o.db) process.env.POLLEN_DB = resolve(o.db);
    await serveStdio(environmentContext(process.env, censusZips));
  });

const snapshot = program
  .command('snapshot')
  .description("Pull or push the store's history kept in Netlify Blobs (NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN).");
snapshot
  .command('pull')
  .description('Download the latest snapshot over the local store, if there is one.')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { db?: string }) => {
    const db = o.db ?? defaultDb();
    mkdirSync(dirname(resolve(db)), { recursive: true });
    const found = await pullSnapshot(snapshotStore(), db);
    process.stdout.write(found ? `pulled the snapshot into ${db}\n` : 'no snapshot yet: starting from an empty store\n');
  });
snapshot
  .command('push')
  .description('Upload the local store as the latest snapshot (never one with fewer hourly rows).')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { db?: string }) => {
    const rows = await pushSnapshot(snapshotStore(), o.db ?? defaultDb(), new Date().toISOString().slice(0, 10));
    process.stdout.write(`pushed the snapshot: ${rows} hourly rows\n`);
  });

program
  .command('shards')
  .description('Shards of the served store, which deployed functions read from Netlify Blobs (NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN).')
  .command('upload')
  .description(
    `Upload the last render's shards that the site's Blobs lack, and its manifest; delete the shards none of the last ${KEEP_DEPLOYS} manifests names.`,
  )
  .option('--db <path>', 'store file beside which the render left its shards (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { db?: string }) => {
    const db = o.db ?? defaultDb();
    const manifest = readShardManifest(shardManifestPath(db));
    if (!manifest) throw new UsageError(`no shards beside ${db}: run \`npm run render\` first`);
    let done: Awaited<ReturnType<typeof uploadShards>>;
    try {
      done = await uploadShards(siteBlobs(SHARD_STORE), shardFolderPath(db), manifest, new Date().toISOString());
    } catch (error) {
      if (!(error instanceof ShardUnavailable)) throw error;
      // Nothing the deploy would read was changed: its manifest goes up last.
      process.stderr.write(`error: ${error.message}: render again, which writes it anew; nothing was deployed\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      `uploaded ${done.uploaded} of ${done.shards} shards (${(done.bytes / 1e6).toFixed(1)} MB; the others were there), ` +
        `deleted ${done.deleted} no kept manifest names; ${done.manifests} manifests kept\n`,
    );
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
