#!/usr/bin/env node
/** The command line: parses flags and calls library functions, nothing more. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { environmentContext } from '../src/api/context.js';
import { dayOf } from '../src/domain/dates.js';
import { parseIngestArgs, UsageError, type RawIngestArgs } from '../src/ingest/args.js';
import { serveStdio } from '../src/mcp/stdio.js';
import { runIngest } from '../src/ingest/run.js';
import { formatRender, render } from '../src/render/render.js';
import { serve } from '../src/server/server.js';
import { pullSnapshot, pushSnapshot, snapshotStore } from '../src/store/snapshot.js';
import { DEFAULT_DB_PATH, openStore } from '../src/store/store.js';

const ROOT = resolve(import.meta.dirname, '..');
const defaultDb = () => process.env.POLLEN_DB ?? DEFAULT_DB_PATH;
const today = () => dayOf(Date.now());
const DEFAULT_PUBLISH = 'publish';

const program = new Command('pollen')
  .description('Build, inspect and serve the pollen, weather and air-quality API.')
  .exitOverride()
  .showHelpAfterError();

const ingestOptions = (command: Command) =>
  command
    .option('--provider <id>', 'pollen provider: sample or ambee', 'sample')
    .option('--weather <id>', 'weather provider: sample, open-meteo or openweathermap (default: sample with sample pollen; else openweathermap when OPENWEATHER_API_KEY is set, else open-meteo)')
    .option('--from <date>', 'first UTC day, YYYY-MM-DD')
    .option('--to <date>', 'last UTC day (inclusive), YYYY-MM-DD')
    .option('--days <n>', 'the N days ending yesterday (default 365 when no dates are given)')
    .option('--cities <slugs>', 'comma-separated city slugs (default: all)')
    .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
    .option('--refresh', 'fetch and overwrite days already stored');

ingestOptions(program.command('ingest').description('Pull provider data into the SQLite store, skipping city-days already complete.')).action(
  async (raw: RawIngestArgs) => {
    const summary = await runIngest(parseIngestArgs(raw, today(), defaultDb()), process.stderr, process.stdout);
    if (summary.failures.length > 0) process.exitCode = 1;
  },
);

const renderTo = async (db: string, publish: string) => {
  const store = openStore(db, { readonly: true });
  try {
    process.stdout.write(formatRender(await render(store, publish)));
  } finally {
    store.close();
  }
};

program
  .command('render')
  .description('Write every enumerable answer and _redirects into the publish folder, atomically.')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
  .action((o: { db?: string; publish: string }) => renderTo(o.db ?? defaultDb(), o.publish));

ingestOptions(program.command('build').description('ingest, then render: what the scheduled deploy runs.'))
  .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
  .action(async (raw: RawIngestArgs & { publish: string }) => {
    const args = parseIngestArgs(raw, today(), defaultDb());
    const summary = await runIngest(args, process.stderr, process.stdout);
    await renderTo(args.db, raw.publish);
    if (summary.failures.length > 0) process.exitCode = 1;
  });

const serveOptions = (command: Command) =>
  command
    .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
    .option('--publish <dir>', 'publish folder', DEFAULT_PUBLISH)
    .option('--port <n>', 'port', '8888')
    .option('--host <address>', 'address to listen on', '127.0.0.1');

type ServeFlags = { db?: string; publish: string; port: string; host: string };
const startServer = async (o: ServeFlags) => {
  if (!/^\d+$/.test(o.port) || Number(o.port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535 (got ${JSON.stringify(o.port)})`);
  process.env.POLLEN_DB = resolve(o.db ?? defaultDb()); // read by the functions, in this process
  const running = await serve({ root: ROOT, publishDir: resolve(o.publish), host: o.host, port: Number(o.port) });
  process.stdout.write(`serving ${o.publish} on ${running.url}  (try ${running.url}/api/cities)\n`);
};

serveOptions(program.command('serve').description("Serve the publish folder and functions on Netlify's request chain.")).action(startServer);

serveOptions(program.command('start').description('Ingest a year of sample data if the store is empty, render, serve.')).action(async (o: ServeFlags) => {
  const args = parseIngestArgs({ provider: 'sample', db: o.db }, today(), defaultDb());
  const summary = await runIngest(args, process.stderr, process.stdout, { onlyIfEmpty: true });
  if (summary.failures.length > 0) process.exitCode = 1;
  await renderTo(args.db, o.publish);
  await startServer(o);
});

program
  .command('mcp')
  .description('Serve the MCP tools over stdio, for desktop MCP clients.')
  .requiredOption('--stdio', 'use stdin/stdout (the only transport of this command; /mcp serves HTTP)')
  .option('--db <path>', 'store file (default: $POLLEN_DB or snapshots/pollen.db)')
  .action(async (o: { db?: string }) => {
    if (o.db) process.env.POLLEN_DB = resolve(o.db);
    await serveStdio(environmentContext());
  });

const snapshot = program.command('snapshot').description("Pull or push the store's history kept in Netlify Blobs (NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN).");
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
